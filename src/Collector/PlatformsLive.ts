import { NodeHttpClient } from "@effect/platform-node"
import { Config, ConfigError, Either, Layer } from "effect"
import { type Platform, platforms } from "../Domain/Platform.ts"
import * as Live from "./Platforms/Live.ts"

/**
 * The platforms the collector asks: the real providers configured by their keys (docs/platforms.md).
 * The simulated platform is no part of them: it answers the jobs of simulated monitors only, in the
 * processes that allow it (SIMULATED_PLATFORMS), and never stands in for a provider (docs/simulated.md).
 */

/**
 * `SIMULATED_PLATFORMS`: the platforms this process answers with the simulated platform for the monitors
 * that ask for it (`simulated: true`): a comma list of platform names, `all` (the default), or `none`.
 */
export const simulatedPlatformsConfig: Config.Config<ReadonlySet<Platform>> = Config.string("SIMULATED_PLATFORMS").pipe(
  Config.withDefault("all"),
  Config.mapOrFail((list) => {
    const names = list.split(",").map((name) => name.trim().toLowerCase()).filter((name) => name !== "")
    if (names.includes("all")) return Either.right(new Set(platforms))
    if (names.length === 0 || (names.length === 1 && names[0] === "none")) return Either.right(new Set<Platform>())
    const unknown = names.filter((name) => !(platforms as ReadonlyArray<string>).includes(name))
    return unknown.length > 0
      ? Either.left(
        ConfigError.InvalidData(["SIMULATED_PLATFORMS"], `Expected "all", "none" or some of ${platforms.join(", ")}, got "${unknown.join(", ")}"`)
      )
      : Either.right(new Set(names as ReadonlyArray<Platform>))
  })
)

/** `Platforms` (the real providers) from the environment, over Node's HTTP client. */
export const layer = Live.layer.pipe(Layer.provide(NodeHttpClient.layerUndici))
