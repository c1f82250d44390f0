import { NodeHttpClient } from "@effect/platform-node"
import { Config, ConfigError, Effect, Either, Layer, Option } from "effect"
import { type Platform, platforms } from "../Domain/Platform.ts"
import { Platforms } from "./Platform.ts"
import * as Live from "./Platforms/Live.ts"
import { simulatedClient } from "./Simulated.ts"

/**
 * The platforms the collector asks: the real providers configured by their keys (docs/platforms.md),
 * except those listed in SIMULATED_PLATFORMS, which the simulated platform answers instead
 * (docs/simulated.md). Off unless set: a simulated answer must never stand in for a real one by
 * accident, and each is labelled in its text and on its job.
 */

/** `SIMULATED_PLATFORMS`: a comma list of platform names, or `all`; empty (the default) for none. */
export const simulatedPlatformsConfig: Config.Config<ReadonlySet<Platform>> = Config.string("SIMULATED_PLATFORMS").pipe(
  Config.withDefault(""),
  Config.mapOrFail((list) => {
    const names = list.split(",").map((name) => name.trim().toLowerCase()).filter((name) => name !== "")
    if (names.includes("all")) return Either.right(new Set(platforms))
    const unknown = names.filter((name) => !(platforms as ReadonlyArray<string>).includes(name))
    return unknown.length > 0
      ? Either.left(ConfigError.InvalidData(["SIMULATED_PLATFORMS"], `Expected "all" or some of ${platforms.join(", ")}, got "${unknown.join(", ")}"`))
      : Either.right(new Set(names as ReadonlyArray<Platform>))
  })
)

/** Real clients, with the simulated ones in place of the listed platforms. */
export const layerWithSimulated = (simulated: ReadonlySet<Platform>) =>
  Layer.effect(
    Platforms,
    Effect.map(Platforms, (real) =>
      Platforms.of({
        client: (platform) => simulated.has(platform) ? Option.some(simulatedClient(platform)) : real.client(platform)
      }))
  ).pipe(Layer.provide(Live.layer))

/** `Platforms` from the environment, over Node's HTTP client. */
export const layer = Layer.unwrapEffect(Effect.map(simulatedPlatformsConfig, layerWithSimulated)).pipe(
  Layer.provide(NodeHttpClient.layerUndici)
)
