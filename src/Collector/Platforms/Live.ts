import type { HttpClient } from "@effect/platform"
import { type ConfigError, Effect, Layer, Option, type Scope } from "effect"
import type { Platform } from "../../Domain/Platform.ts"
import { type PlatformClient, Platforms } from "../Platform.ts"
import { makeAnthropic } from "./Anthropic.ts"
import { makeGemini } from "./Gemini.ts"
import { makeOpenAi } from "./OpenAi.ts"
import { makePerplexity } from "./Perplexity.ts"
import { resilient, type ResilienceOptions } from "./Resilience.ts"
import { makeSerp } from "./Serp.ts"
import { platformsConfig, type PlatformsSettings, policyFor } from "./Settings.ts"
import { makeXai } from "./Xai.ts"

/**
 * The real platforms: one adapter per configured platform, each behind its own resilience wrapper.
 * A platform whose provider has no key has no client, and the worker skips its jobs.
 */

type Adapter = Effect.Effect<PlatformClient, never, HttpClient.HttpClient>

/** The adapters the settings configure, by platform. */
const adapters = (settings: PlatformsSettings): ReadonlyArray<readonly [Platform, Adapter]> => {
  const configured: Array<readonly [Platform, Adapter]> = []
  const add = <S>(platform: Platform, option: Option.Option<S>, make: (settings: S) => Adapter) => {
    if (Option.isSome(option)) configured.push([platform, make(option.value)])
  }
  add("chatgpt", settings.openai, makeOpenAi)
  add("perplexity", settings.perplexity, makePerplexity)
  add("gemini", settings.gemini, makeGemini)
  add("claude", settings.anthropic, makeAnthropic)
  add("grok", settings.xai, makeXai)
  if (Option.isSome(settings.serp)) {
    for (const platform of settings.serp.value.platforms) configured.push([platform, makeSerp(platform, settings.serp.value)])
  }
  return configured
}

/** The `Platforms` service for explicit settings; the wrappers' rate limiters live as long as the scope. */
export const makePlatforms = (
  settings: PlatformsSettings,
  options: ResilienceOptions = {}
): Effect.Effect<Platforms["Type"], never, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function*() {
    const clients = new Map<Platform, PlatformClient>()
    for (const [platform, make] of adapters(settings)) {
      clients.set(platform, yield* resilient(yield* make, policyFor(settings, platform), options))
    }
    return { client: (platform) => Option.fromNullable(clients.get(platform)) }
  })

/** `Platforms` from explicit settings (tests, or a caller that read them elsewhere). */
export const layerFrom = (
  settings: PlatformsSettings,
  options: ResilienceOptions = {}
): Layer.Layer<Platforms, never, HttpClient.HttpClient> => Layer.scoped(Platforms, makePlatforms(settings, options))

/** `Platforms` from the environment (docs/platforms.md, "Settings"). */
export const layer: Layer.Layer<Platforms, ConfigError.ConfigError, HttpClient.HttpClient> = Layer.scoped(
  Platforms,
  Effect.flatMap(platformsConfig, (settings) => makePlatforms(settings))
)
