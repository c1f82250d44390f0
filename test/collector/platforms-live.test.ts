import { ConfigProvider, Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { Platforms } from "../../src/Collector/Platform.ts"
import { layer, simulatedPlatformsConfig } from "../../src/Collector/PlatformsLive.ts"
import { platforms } from "../../src/Domain/Platform.ts"

/**
 * SIMULATED_PLATFORMS: which platforms a process answers with the simulated platform, for the monitors that
 * ask for it. The providers' `Platforms` never holds the simulated platform (docs/simulated.md).
 */

const withEnv = (env: Record<string, string>) => Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

describe("SIMULATED_PLATFORMS", () => {
  it("reads a comma list in any case, `all` (the default), `none` or nothing", async () => {
    const read = (env: Record<string, string>) => Effect.runPromise(simulatedPlatformsConfig.pipe(withEnv(env)))
    expect([...await read({ SIMULATED_PLATFORMS: " chatgpt, Gemini ,," })]).toEqual(["chatgpt", "gemini"])
    expect((await read({ SIMULATED_PLATFORMS: "all" })).size).toBe(8)
    expect((await read({})).size).toBe(8)
    expect((await read({ SIMULATED_PLATFORMS: "none" })).size).toBe(0)
    expect((await read({ SIMULATED_PLATFORMS: "" })).size).toBe(0)
    await expect(read({ SIMULATED_PLATFORMS: "chatgpt,bard" })).rejects.toThrow(/bard/)
  })

  it("never puts the simulated platform among the providers: without keys, no platform has a client", async () => {
    const clients = await Effect.runPromise(Effect.gen(function*() {
      const configured = yield* Platforms
      return platforms.filter((platform) => Option.isSome(configured.client(platform)))
    }).pipe(Effect.provide(layer), withEnv({ SIMULATED_PLATFORMS: "all" })))
    expect(clients).toEqual([])
  })
})
