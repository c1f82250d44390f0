import { describe, expect, it } from "@effect/vitest"
import { ConfigError, ConfigProvider, Duration, Effect, Layer, Option, Redacted } from "effect"
import { platforms } from "../../../src/Domain/Platform.ts"
import { Platforms } from "../../../src/Collector/Platform.ts"
import { layer, layerFrom } from "../../../src/Collector/Platforms/Live.ts"
import {
  defaultResilience,
  defaults,
  platformsConfig,
  policyFor,
  type PlatformsSettings
} from "../../../src/Collector/Platforms/Settings.ts"
import { fakeServer } from "./FakeServer.ts"
import { KEY, providerOf, question } from "./providers.ts"
import { HttpClientLive, testPolicy } from "./support.ts"

const fromEnv = (env: Record<string, string>) =>
  Effect.withConfigProvider(platformsConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))

describe("platformsConfig", () => {
  it.effect("configures nothing without keys, with the default policy", () =>
    Effect.gen(function*() {
      const settings = yield* fromEnv({})
      for (const provider of ["openai", "perplexity", "gemini", "anthropic", "xai", "serp"] as const) {
        expect(Option.isNone(settings[provider] as Option.Option<unknown>)).toBe(true)
      }
      expect(settings.resilience).toEqual(defaultResilience)
      for (const platform of platforms) expect(policyFor(settings, platform)).toEqual(defaultResilience)
    }))

  it.effect("a key configures its provider with the default model and base URL; both can be changed", () =>
    Effect.gen(function*() {
      const settings = yield* fromEnv({
        OPENAI_API_KEY: KEY,
        ANTHROPIC_API_KEY: "ak",
        ANTHROPIC_MODEL: "claude-haiku-4-5",
        ANTHROPIC_BASE_URL: "http://proxy.local",
        GEMINI_API_KEY: "   "
      })
      const openai = Option.getOrThrow(settings.openai)
      expect(Redacted.value(openai.apiKey)).toBe(KEY)
      expect(openai).toMatchObject(defaults.openai)
      expect(Option.getOrThrow(settings.anthropic)).toMatchObject({
        model: "claude-haiku-4-5",
        baseUrl: "http://proxy.local"
      })
      // A blank key is no key.
      expect(Option.isNone(settings.gemini)).toBe(true)
      // The key does not show when the settings are printed.
      expect(String(openai.apiKey)).not.toContain(KEY)
    }))

  it.effect("the SERP key serves the platforms SERP_PLATFORMS names, all three by default", () =>
    Effect.gen(function*() {
      const all = yield* fromEnv({ SERP_API_KEY: "serp" })
      expect(Option.getOrThrow(all.serp)).toMatchObject({
        baseUrl: defaults.serp.baseUrl,
        platforms: ["copilot", "google_ai_mode", "google_ai_overview"]
      })
      const some = yield* fromEnv({ SERP_API_KEY: "serp", SERP_PLATFORMS: " Copilot, google_ai_mode ,," })
      expect(Option.getOrThrow(some.serp).platforms).toEqual(["copilot", "google_ai_mode"])
      const none = yield* fromEnv({ SERP_API_KEY: "serp", SERP_PLATFORMS: "" })
      expect(Option.getOrThrow(none.serp).platforms).toEqual([])
    }))

  it.effect("an unknown SERP platform is a configuration error", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(fromEnv({ SERP_API_KEY: "serp", SERP_PLATFORMS: "copilot,chatgpt" }))
      expect(String(error)).toContain("SERP_PLATFORMS")
    }))

  it.effect("global limits, and per-platform overrides of them", () =>
    Effect.gen(function*() {
      const settings = yield* fromEnv({
        PLATFORM_TIMEOUT_SECONDS: "45",
        PLATFORM_MAX_ATTEMPTS: "5",
        PLATFORM_CONCURRENCY: "3",
        PLATFORM_REQUESTS_PER_MINUTE: "30",
        PLATFORM_BACKOFF_BASE_SECONDS: "0.5",
        PLATFORM_CHATGPT_MAX_ATTEMPTS: "2",
        PLATFORM_GOOGLE_AI_MODE_REQUESTS_PER_MINUTE: "6",
        PLATFORM_CLAUDE_TIMEOUT_SECONDS: "300"
      })
      const global = { ...defaultResilience, timeout: Duration.seconds(45), maxAttempts: 5, concurrency: 3, requestsPerMinute: 30, backoffBase: Duration.millis(500) }
      expect(policyFor(settings, "perplexity")).toEqual(global)
      expect(policyFor(settings, "chatgpt")).toEqual({ ...global, maxAttempts: 2 })
      expect(policyFor(settings, "google_ai_mode")).toEqual({ ...global, requestsPerMinute: 6 })
      expect(policyFor(settings, "claude")).toEqual({ ...global, timeout: Duration.seconds(300) })
    }))

  it.effect("an ask's budget is half the worker's lease (COLLECTOR_LEASE_SECONDS), the same for every platform", () =>
    Effect.gen(function*() {
      expect(Duration.toMillis(defaultResilience.budget)).toBe(150_000)
      const settings = yield* fromEnv({ COLLECTOR_LEASE_SECONDS: "41", PLATFORM_CLAUDE_TIMEOUT_SECONDS: "300" })
      expect(Duration.toMillis(policyFor(settings, "claude").budget)).toBe(20_500)
      expect(Duration.toMillis(policyFor(settings, "chatgpt").budget)).toBe(20_500)
    }))

  it.effect("the default models are the current ones of the providers' documentation (docs/platforms.md, \"Models\")", () =>
    Effect.sync(() => {
      expect({
        openai: defaults.openai.model,
        perplexity: defaults.perplexity.model,
        gemini: defaults.gemini.model,
        anthropic: defaults.anthropic.model,
        xai: defaults.xai.model
      }).toEqual({
        openai: "gpt-6.1-terra",
        perplexity: "perplexity/sonar",
        gemini: "gemini-3.8-flash",
        anthropic: "claude-sonnet-5-5",
        xai: "grok-4.7"
      })
    }))

  it.effect.each([
    ["PLATFORM_MAX_ATTEMPTS", "0"],
    ["PLATFORM_CONCURRENCY", "-1"],
    ["PLATFORM_TIMEOUT_SECONDS", "0"],
    ["PLATFORM_REQUESTS_PER_MINUTE", "many"],
    ["PLATFORM_GROK_MAX_ATTEMPTS", "0"]
  ])("%s=%s is a configuration error", ([name, value]) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(fromEnv({ [name!]: value! }))
      expect(String(error)).toContain(name)
    }))
})

describe("the Platforms layer", () => {
  it.scopedLive("from the environment: a client for each configured platform, none for the others", () =>
    Effect.gen(function*() {
      const chatgpt = providerOf("chatgpt")
      const server = yield* fakeServer([{ status: 200, json: chatgpt.grounded.body({ baseUrl: "" }) }])
      const env = ConfigProvider.fromMap(new Map([
        ["OPENAI_API_KEY", KEY],
        ["OPENAI_MODEL", "test-model"],
        ["OPENAI_BASE_URL", `${server.baseUrl}/v1`],
        ["SERP_API_KEY", "serp-key"],
        ["SERP_PLATFORMS", "copilot"]
      ]))
      const service = yield* Effect.provide(
        Platforms,
        layer.pipe(Layer.provide(Layer.setConfigProvider(env)), Layer.provide(HttpClientLive))
      )
      expect(platforms.filter((platform) => Option.isSome(service.client(platform)))).toEqual(["chatgpt", "copilot"])
      const answer = yield* Option.getOrThrow(service.client("chatgpt")).ask(question)
      expect(answer).toEqual(chatgpt.grounded.answer)
      chatgpt.checkRequest(server.requests[0]!)
    }))

  it.effect("fails with a ConfigError on a bad setting", () =>
    Effect.gen(function*() {
      const env = ConfigProvider.fromMap(new Map([["PLATFORM_MAX_ATTEMPTS", "none"]]))
      const error = yield* Effect.flip(Effect.provide(
        Platforms,
        layer.pipe(Layer.provide(Layer.setConfigProvider(env)), Layer.provide(HttpClientLive))
      ))
      expect(ConfigError.isConfigError(error)).toBe(true)
      expect(String(error)).toContain("PLATFORM_MAX_ATTEMPTS")
    }))

  it.scopedLive("from explicit settings, each platform with its own policy", () =>
    Effect.gen(function*() {
      const server = yield* fakeServer([{ status: 503 }])
      const settings: PlatformsSettings = {
        openai: Option.none(),
        perplexity: Option.some({ apiKey: Redacted.make(KEY), model: "sonar", baseUrl: server.baseUrl }),
        gemini: Option.none(),
        anthropic: Option.none(),
        xai: Option.some({ apiKey: Redacted.make(KEY), model: "grok", baseUrl: server.baseUrl }),
        serp: Option.none(),
        resilience: testPolicy({ maxAttempts: 3, backoffBase: Duration.millis(1), backoffMax: Duration.millis(2) }),
        overrides: { grok: { maxAttempts: 1 } }
      }
      const service = yield* Effect.provide(Platforms, layerFrom(settings).pipe(Layer.provide(HttpClientLive)))
      expect(Option.isNone(service.client("chatgpt"))).toBe(true)
      yield* Effect.flip(Option.getOrThrow(service.client("perplexity")).ask(question))
      expect(server.requests).toHaveLength(3)
      yield* Effect.flip(Option.getOrThrow(service.client("grok")).ask(question))
      expect(server.requests).toHaveLength(4)
    }))
})
