import { Effect, type Layer, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import type { CollectedResponse } from "../../src/Responses/Analysis.ts"
import { Analyzer } from "../../src/Responses/Analyzer.ts"
import type { BrandForDetection } from "../../src/Responses/Repo.ts"

/**
 * The analysis threads (src/Responses/Analyzer.ts, src/analysis-thread.ts), run from the sources as under
 * `npm run cli` and the tests: they answer what analysis in the calling thread answers, and while one of
 * them works the calling thread's event loop keeps turning.
 */

const brands: ReadonlyArray<BrandForDetection> = [
  { id: 1, name: "Acme", aliases: ["Acme Cloud", "ACME’s"], domains: ["acme.com"], classification: "competitor" },
  { id: 2, name: "Globex", aliases: [], domains: ["globex.io"], classification: "other" },
  { id: 3, name: "Initech", aliases: [], domains: [], classification: "ignored" }
]

const response = (text: string, citations?: ReadonlyArray<string>): CollectedResponse => ({
  monitor_id: 1,
  prompt_id: 2,
  platform: "chatgpt",
  country: "US",
  text,
  collected_at: new Date("2026-01-02T03:04:05.678Z"),
  citations
})

/** Six brands of fifty nested aliases ("a", "a a", ...), each found at every word of "a a a …". */
const heavyBrands: ReadonlyArray<BrandForDetection> = Array.from({ length: 6 }, (_, b) => ({
  id: b + 1,
  name: `Brand ${b}`,
  aliases: Array.from({ length: 50 }, (_, i) => "a ".repeat(b * 10 + i + 1).trim()),
  domains: [],
  classification: "competitor"
}))
const heavy = response("a ".repeat(100_000))

const runtimeOf = (layer: Layer.Layer<Analyzer>) => ManagedRuntime.make(layer)

describe("analysis threads", () => {
  const threads = runtimeOf(Analyzer.threads(2))
  const inProcess = runtimeOf(Analyzer.inProcess)
  afterAll(async () => {
    await threads.dispose()
    await inProcess.dispose()
  })

  it("answer what the calling thread answers: analyses, field errors and re-detections", async () => {
    const cases = [
      response("Acme Cloud beats Globex (see https://globex.io/x). Initech is awful.", ["https://www.acme.com/pricing", "https://x.org"]),
      response("No brand here."),
      response("Acme", ["ftp://acme.com/file", "https://ok.example"])
    ]
    for (const item of cases) {
      const analyze = Effect.flatMap(Analyzer, (analyzer) => analyzer.analyze(item, brands))
      expect(await threads.runPromise(analyze)).toEqual(await inProcess.runPromise(analyze))
    }
    const analyzed = await threads.runPromise(Effect.flatMap(Analyzer, (analyzer) => analyzer.analyze(cases[0]!, brands)))
    expect(analyzed._tag).toBe("Right")
    const redetect = Effect.flatMap(Analyzer, (analyzer) => analyzer.redetect("Globex, then Acme", brands, ["acme.com"]))
    expect(await threads.runPromise(redetect)).toEqual(await inProcess.runPromise(redetect))
    expect(await threads.runPromise(redetect)).toMatchObject([{ brand_id: 2, position: 1 }, { brand_id: 1, position: 2 }])
  })

  it("run the analysis off the calling thread: its event loop turns while a thread works", async () => {
    /** How many turns the calling thread's event loop makes while `runtime` analyses the heavy answer. */
    const turnsDuring = async (runtime: ManagedRuntime.ManagedRuntime<Analyzer, never>) => {
      let turns = 0
      let running = true
      const turn = () => {
        if (!running) return
        turns++
        setImmediate(turn)
      }
      setImmediate(turn)
      const result = await runtime.runPromise(Effect.flatMap(Analyzer, (analyzer) => analyzer.analyze(heavy, heavyBrands)))
      running = false
      expect(result._tag).toBe("Right")
      return turns
    }
    // In the calling thread the loop stands still for the whole analysis; on a thread it goes on turning.
    expect(await turnsDuring(inProcess)).toBeLessThanOrEqual(2)
    expect(await turnsDuring(threads)).toBeGreaterThan(100)
  }, 60_000)
})
