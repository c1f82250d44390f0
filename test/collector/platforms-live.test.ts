import { NodeHttpClient } from "@effect/platform-node"
import { ConfigProvider, Effect, Layer, Option } from "effect"
import { describe, expect, it } from "vitest"
import { Platforms } from "../../src/Collector/Platform.ts"
import { layerWithSimulated, simulatedPlatformsConfig } from "../../src/Collector/PlatformsLive.ts"

/** SIMULATED_PLATFORMS: which platforms the simulated source answers, on top of the real providers. */

const withEnv = (env: Record<string, string>) => Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

describe("SIMULATED_PLATFORMS", () => {
  it("reads a comma list in any case, `all`, or nothing (the default)", async () => {
    const read = (env: Record<string, string>) => Effect.runPromise(simulatedPlatformsConfig.pipe(withEnv(env)))
    expect([...await read({ SIMULATED_PLATFORMS: " chatgpt, Gemini ,," })]).toEqual(["chatgpt", "gemini"])
    expect((await read({ SIMULATED_PLATFORMS: "all" })).size).toBe(8)
    expect((await read({})).size).toBe(0)
    await expect(read({ SIMULATED_PLATFORMS: "chatgpt,bard" })).rejects.toThrow(/bard/)
  })

  it("answers the listed platforms with labelled simulated answers, and leaves unconfigured ones without a client", async () => {
    const layer = layerWithSimulated(new Set(["chatgpt"])).pipe(Layer.provide(NodeHttpClient.layerUndici))
    const result = await Effect.runPromise(Effect.gen(function*() {
      const platforms = yield* Platforms
      const chatgpt = platforms.client("chatgpt")
      const answer = Option.isSome(chatgpt)
        ? yield* chatgpt.value.ask({ platform: "chatgpt", prompt: "best crm", promptId: 1, country: "US", day: "2026-11-01", brands: [] })
        : undefined
      return { answer, claude: Option.isSome(platforms.client("claude")) }
    }).pipe(Effect.provide(layer), withEnv({})))
    expect(result.answer?.simulated).toBe(true)
    expect(result.answer?.text.startsWith("[Simulated answer]")).toBe(true)
    expect(result.claude).toBe(false)
  })
})
