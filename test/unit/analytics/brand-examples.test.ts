import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  Analytics,
  type BrandListQuery,
  type BrandMetric,
  type BrandRow,
  type BrandSelection,
  type BrandSortBy,
  type Filters,
  type Interval,
  type PromptSortBy,
  type SortOrder
} from "../../../src/Analytics/Analytics.ts"
import * as AnalyticsMemory from "../../../src/Analytics/AnalyticsMemory.ts"
import * as AnalyticsSql from "../../../src/Analytics/AnalyticsSql.ts"
import { mean, meanChange, percentage, percentageChange, significantChange, wilson, Z_95 } from "../../../src/Analytics/Statistics.ts"
import { MemoryStore, MemoryTables } from "../../../src/Memory/Store.ts"
import { type DatasetIds, type DatasetSpec, writeMemory, writeMemoryOrganization, writeSql, writeSqlOrganization } from "../../support/AnalyticsData.ts"
import { migratedSql } from "../../support/Databases.ts"
import { sqlBackend } from "../../support/TestServer.ts"

/**
 * Brand analytics worked out by hand from docs/api.md ("Brand analytics") and docs/metrics.md, on both
 * implementations. The comments show the arithmetic; the intervals were computed independently at 50
 * significant digits, then rounded.
 */

describe("statistics", () => {
  it("gives the Wilson 95% interval of 0, 10 and 5 of 10, 1 of 1000, and none of 0", () => {
    // 0 of 10: low 0, high z²/(10 + z²) = 3.8415/13.8415 = 27.753...%.
    expect(wilson(0, 10)).toEqual({ low: 0, high: 27.75 })
    // 10 of 10: low 10/(10 + z²) = 72.246...%, high 100.
    expect(wilson(10, 10)).toEqual({ low: 72.25, high: 100 })
    // 5 of 10: (5 + z²/2 ∓ z √(2.5 + z²/4)) / (10 + z²) = 23.659...% and 76.340...%.
    expect(wilson(5, 10)).toEqual({ low: 23.66, high: 76.34 })
    // 1 of 1000: 0.01765...% and 0.56425...%.
    expect(wilson(1, 1000)).toEqual({ low: 0.02, high: 0.56 })
    expect(wilson(0, 0)).toBeNull()
    expect(wilson(3, 5)).toEqual({ low: 23.07, high: 88.24 })
    expect(wilson(15, 20)).toEqual({ low: 53.13, high: 88.81 })
    expect(Z_95).toBe(1.959963984540054)
  })

  it("marks a change significant when |z| > 1.96 with the pooled proportion, never without data or variance", () => {
    // 15 of 20 against 3 of 20: p = 18/40 = 0.45, z = 0.6 / √(0.45 × 0.55 × 0.1) = 3.81: significant.
    expect(significantChange(15, 20, 3, 20)).toBe(true)
    // The same in the other direction.
    expect(significantChange(3, 20, 15, 20)).toBe(true)
    // 5 of 10 against 3 of 10: p = 0.4, z = 0.2 / √(0.24 × 0.2) = 0.91: noise.
    expect(significantChange(5, 10, 3, 10)).toBe(false)
    // 50 of 100 against 30 of 100: the same proportions on ten times the sample, z = 2.89: significant.
    expect(significantChange(50, 100, 30, 100)).toBe(true)
    // Just either side of z = 1.96: 60 of 100 against 46 of 100 gives z = 1.981, 60 against 47 gives 1.840.
    expect(significantChange(60, 100, 46, 100)).toBe(true)
    expect(significantChange(60, 100, 47, 100)).toBe(false)
    // No sample on one side; the pooled proportion 0 or 1.
    expect([significantChange(3, 5, 0, 0), significantChange(0, 0, 3, 5)]).toEqual([false, false])
    expect([significantChange(0, 5, 0, 9), significantChange(5, 5, 9, 9)]).toEqual([false, false])
  })

  it("rounds percentages, means and changes to 2 places exactly, half away from zero, null without a denominator", () => {
    expect([percentage(1, 3), percentage(2, 3), percentage(1, 8), percentage(0, 4), percentage(3, 0)]).toEqual([33.33, 66.67, 12.5, 0, null])
    // 100 × 145/100000 = 0.145 exactly (0.145 × 100 is 14.499999999999998 in binary): 0.15.
    expect(percentage(145, 100_000)).toBe(0.15)
    expect([mean(4, 3), mean(1, 8), mean(7, 0)]).toEqual([1.33, 0.13, null])
    // Changes from the unrounded values: 100 × (1/3 − 1/6) = 16.666... → 16.67 (the rounded values' difference would be 16.66).
    expect(percentageChange(1, 3, 1, 6)).toBe(16.67)
    // ±0.125 → ±0.13.
    expect([percentageChange(1, 800, 0, 1), percentageChange(0, 1, 1, 800)]).toEqual([0.13, -0.13])
    expect([meanChange(1, 8, 0, 1), meanChange(0, 1, 1, 8)]).toEqual([0.13, -0.13])
    expect([percentageChange(1, 2, 0, 0), percentageChange(0, 0, 1, 2), meanChange(3, 2, 0, 0)]).toEqual([null, null, null])
    // Counts whose products pass 2^53 stay exact.
    expect(percentageChange(99_999_999, 100_000_000, 1, 3)).toBe(66.67)
  })
})

// ---------------------------------------------------------------------------
// The dataset
// ---------------------------------------------------------------------------

const [B0, B1, B2, B3, B4] = [0, 1, 2, 3, 4]
const [P0, P1, P2] = [0, 1, 2]

/**
 * W = 2026-01-10..2026-01-13 (4 days), P = 2026-01-06..2026-01-09.
 *
 * Brands: B0 "Acme" (the own brand; segment 0), B1 "Beta" (segments 0 and 1), B2 "acme" (`other`,
 * segment 1), B3 "Delta" (`ignored`, but mentioned before it was), B4 "Beta" (never mentioned).
 * In code point order: "Acme" < "Beta" < "acme".
 *
 * R(W): r1..r5 (5 responses); R(P): p1 p2 (2). Mentions (brand position/sentiment):
 *   r1 P0 chatgpt 01-10: B0 1/80, B1 2/40, B3 3/50      p1 P0 chatgpt 01-06: B1 1/50
 *   r2 P0 gemini  01-11: B1 1/60                        p2 P2 gemini  01-09: B1 1/20, B2 2/40
 *   r3 P1 chatgpt 01-12: B1 1/50, B0 2/70, B2 3/30
 *   r4 P2 gemini  01-13: none
 *   r5 P1 chatgpt 01-13: B0 1/90
 * plus f1 (failed, 01-11, B0): never counted, not even in the lifetime dates.
 */
const dataset: DatasetSpec = {
  monitors: [{ country: "US", platforms: ["chatgpt", "gemini"] }, { country: "DE", platforms: ["gemini"] }],
  tags: 2,
  prompts: [{ monitor: 0, tags: [0] }, { monitor: 0, tags: [1] }, { monitor: 1, tags: [] }],
  sources: [],
  urls: [],
  segments: 2,
  brands: [
    { name: "Acme", segments: [0] },
    { name: "Beta", segments: [0, 1] },
    { name: "acme", classification: "other", segments: [1] },
    { name: "Delta", classification: "ignored" },
    { name: "Beta" }
  ],
  ownBrand: B0,
  responses: [
    {
      prompt: P0,
      platform: "chatgpt",
      status: "analyzed",
      collected_at: "2026-01-10T00:00:00.000Z",
      citations: [],
      mentions: [{ brand: B0, position: 1, sentiment: 80 }, { brand: B1, position: 2, sentiment: 40 }, { brand: B3, position: 3, sentiment: 50 }]
    },
    { prompt: P0, platform: "gemini", status: "analyzed", collected_at: "2026-01-11T08:00:00.000Z", citations: [], mentions: [{ brand: B1, position: 1, sentiment: 60 }] },
    {
      prompt: P1,
      platform: "chatgpt",
      status: "analyzed",
      collected_at: "2026-01-12T12:00:00.000Z",
      citations: [],
      mentions: [{ brand: B1, position: 1, sentiment: 50 }, { brand: B0, position: 2, sentiment: 70 }, { brand: B2, position: 3, sentiment: 30 }]
    },
    { prompt: P2, platform: "gemini", status: "analyzed", collected_at: "2026-01-13T01:00:00.000Z", citations: [], mentions: [] },
    { prompt: P1, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-13T23:59:59.999Z", citations: [], mentions: [{ brand: B0, position: 1, sentiment: 90 }] },
    { prompt: P0, platform: "chatgpt", status: "failed", collected_at: "2026-01-11T00:00:00.000Z", citations: [], mentions: [{ brand: B0, position: 1, sentiment: 10 }] },
    { prompt: P0, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-06T00:00:00.000Z", citations: [], mentions: [{ brand: B1, position: 1, sentiment: 50 }] },
    {
      prompt: P2,
      platform: "gemini",
      status: "analyzed",
      collected_at: "2026-01-09T23:59:59.999Z",
      citations: [],
      mentions: [{ brand: B1, position: 1, sentiment: 20 }, { brand: B2, position: 2, sentiment: 40 }]
    }
  ]
}

/** Another project of the organization, its brand mentioned in the same days: never counted here. */
const neighbour: DatasetSpec = {
  monitors: [{ country: "US" }],
  tags: 0,
  prompts: [{ monitor: 0, tags: [] }],
  sources: [],
  urls: [],
  brands: [{ name: "Acme" }],
  ownBrand: 0,
  responses: [
    { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-11T00:00:00.000Z", citations: [], mentions: [{ brand: 0, position: 1, sentiment: 99 }] },
    { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-02T00:00:00.000Z", citations: [], mentions: [{ brand: 0, position: 1, sentiment: 99 }] }
  ]
}

interface Loaded {
  readonly ids: DatasetIds
  readonly run: <A>(effect: Effect.Effect<A, unknown, Analytics>) => Promise<A>
  readonly close: () => Promise<void>
}

const loadMemory = async (spec: DatasetSpec): Promise<Loaded> => {
  const db = new MemoryTables()
  const organization = writeMemoryOrganization(db)
  writeMemory(db, organization, neighbour)
  const ids = writeMemory(db, organization, spec)
  const layer = AnalyticsMemory.layerMemory.pipe(Layer.provide(Layer.succeed(MemoryStore, db)))
  return { ids, run: (effect) => Effect.runPromise(Effect.provide(effect, layer).pipe(Effect.orDie)), close: async () => {} }
}

const loadSql = async (spec: DatasetSpec): Promise<Loaded> => {
  const runtime = ManagedRuntime.make(
    AnalyticsSql.layerSql.pipe(Layer.provideMerge(migratedSql), Layer.provide(Logger.minimumLogLevel(LogLevel.None)))
  )
  const ids = await runtime.runPromise(Effect.gen(function*() {
    const organization = yield* writeSqlOrganization()
    yield* writeSql(organization, neighbour)
    return yield* writeSql(organization, spec)
  }))
  return { ids, run: (effect) => runtime.runPromise(effect.pipe(Effect.orDie)), close: () => runtime.dispose() }
}

const W = { start: "2026-01-10", end: "2026-01-13" }

describe.each([["memory", loadMemory], [sqlBackend, loadSql]] as const)("brand analytics by hand (%s)", (_name, load) => {
  let loaded: Loaded
  beforeAll(async () => {
    loaded = await load(dataset)
  }, 60_000)
  afterAll(() => loaded.close())

  const brandRef = (index: number) => ({
    id: loaded.ids.brands[index]!,
    name: dataset.brands![index]!.name,
    classification: dataset.brands![index]!.classification ?? "competitor",
    is_own: index === B0
  })
  const brands = (options: {
    readonly range?: { start: string; end: string }
    readonly filters?: Filters
    readonly selection?: BrandSelection
    readonly sortBy?: BrandSortBy
    readonly sortOrder?: SortOrder
    readonly offset?: number
    readonly limit?: number
  } = {}) => {
    const query: BrandListQuery = {
      range: options.range ?? W,
      filters: options.filters ?? {},
      selection: options.selection ?? {},
      sortBy: options.sortBy ?? "visibility",
      sortOrder: options.sortOrder ?? "desc",
      window: { offset: options.offset ?? 0, limit: options.limit ?? 25 }
    }
    return loaded.run(Effect.flatMap(Analytics, (a) => a.brands(loaded.ids.project, query)))
  }
  const order = async (sortBy: BrandSortBy, sortOrder: SortOrder) =>
    (await brands({ sortBy, sortOrder })).rows.map((row) => loaded.ids.brands.indexOf(row.brand.id))

  // Over W: 5 responses; the counted brands' mentions 7 (r1 2, r2 1, r3 3, r5 1; B3 is ignored).
  // Over P: 2 responses; 3 mentions (p1 1, p2 2).
  const acme = (): BrandRow => ({
    brand: brandRef(B0),
    responses_count: 5,
    // r1 r3 r5: 3 of 5 = 60 %; P: 0 of 2 → change +60; z = 0.6 / √(3/7 × 4/7 × (1/5 + 1/2)) = 1.45: not significant.
    mentioned_count: 3,
    visibility: 60,
    visibility_ci: { low: 23.07, high: 88.24 },
    visibility_change: 60,
    visibility_change_significant: false,
    // 3 of 7 = 42.857 %; P: 0 of 3 → change +42.86; z = 1.36.
    total_mentions: 7,
    share_of_voice: 42.86,
    share_of_voice_ci: { low: 15.82, high: 74.95 },
    share_of_voice_change: 42.86,
    share_of_voice_change_significant: false,
    // Positions 1 + 2 + 1 = 4 over 3 → 1.33; no mention in P: no change. Sentiment (80 + 70 + 90) / 3 = 80.
    average_position: 1.33,
    average_position_change: null,
    average_sentiment: 80,
    average_sentiment_change: null,
    first_seen_on: "2026-01-10",
    last_seen_on: "2026-01-13",
    // P: p1 p2, neither mentioning it; 3 counted mentions (p1 1, p2 2).
    previous_responses_count: 2,
    previous_mentioned_count: 0,
    previous_total_mentions: 3
  })
  const beta = (): BrandRow => ({
    brand: brandRef(B1),
    responses_count: 5,
    // r1 r2 r3: 60 %; P: p1 p2, 2 of 2 = 100 % → change −40; z = −0.4 / √(5/7 × 2/7 × 0.7) = −1.06.
    mentioned_count: 3,
    visibility: 60,
    visibility_ci: { low: 23.07, high: 88.24 },
    visibility_change: -40,
    visibility_change_significant: false,
    // 3 of 7 = 42.857 %; P: 2 of 3 = 66.667 % → change −23.8095 → −23.81.
    total_mentions: 7,
    share_of_voice: 42.86,
    share_of_voice_ci: { low: 15.82, high: 74.95 },
    share_of_voice_change: -23.81,
    share_of_voice_change_significant: false,
    // Positions 2 + 1 + 1 = 4/3; P: 1 + 1 = 2/2 = 1 → +0.33. Sentiment 150/3 = 50; P: 70/2 = 35 → +15.
    average_position: 1.33,
    average_position_change: 0.33,
    average_sentiment: 50,
    average_sentiment_change: 15,
    first_seen_on: "2026-01-06",
    last_seen_on: "2026-01-12",
    previous_responses_count: 2,
    previous_mentioned_count: 2,
    previous_total_mentions: 3
  })
  const lowerAcme = (): BrandRow => ({
    brand: brandRef(B2),
    responses_count: 5,
    // r3: 1 of 5 = 20 %; P: p2, 1 of 2 = 50 % → −30.
    mentioned_count: 1,
    visibility: 20,
    visibility_ci: { low: 3.62, high: 62.45 },
    visibility_change: -30,
    visibility_change_significant: false,
    // 1 of 7 = 14.2857 %; P: 1 of 3 = 33.333 % → −19.0476 → −19.05.
    total_mentions: 7,
    share_of_voice: 14.29,
    share_of_voice_ci: { low: 2.57, high: 51.31 },
    share_of_voice_change: -19.05,
    share_of_voice_change_significant: false,
    average_position: 3,
    average_position_change: 1,
    average_sentiment: 30,
    average_sentiment_change: -10,
    first_seen_on: "2026-01-09",
    last_seen_on: "2026-01-12",
    previous_responses_count: 2,
    previous_mentioned_count: 1,
    previous_total_mentions: 3
  })
  const silentBeta = (): BrandRow => ({
    brand: brandRef(B4),
    responses_count: 5,
    // Never mentioned: 0 % in both periods (change 0, pooled proportion 0: not significant), no mean, no dates.
    mentioned_count: 0,
    visibility: 0,
    visibility_ci: { low: 0, high: 43.45 },
    visibility_change: 0,
    visibility_change_significant: false,
    total_mentions: 7,
    share_of_voice: 0,
    share_of_voice_ci: { low: 0, high: 35.43 },
    share_of_voice_change: 0,
    share_of_voice_change_significant: false,
    average_position: null,
    average_position_change: null,
    average_sentiment: null,
    average_sentiment_change: null,
    first_seen_on: null,
    last_seen_on: null,
    previous_responses_count: 2,
    previous_mentioned_count: 0,
    previous_total_mentions: 3
  })

  it("lists every counted brand, zero counts included, the ignored one never, by visibility desc, ties by name", async () => {
    expect(await brands()).toEqual({ rows: [acme(), beta(), lowerAcme(), silentBeta()], total: 4 })
  })

  it("sorts by every key in both directions: nulls last, ties by name in code point order, then id", async () => {
    expect(await order("name", "asc")).toEqual([B0, B1, B4, B2])
    // Descending names; the two "Beta" still by id.
    expect(await order("name", "desc")).toEqual([B2, B1, B4, B0])
    expect(await order("average_position", "asc")).toEqual([B0, B1, B2, B4])
    expect(await order("average_position", "desc")).toEqual([B2, B0, B1, B4])
    expect(await order("average_position_change", "asc")).toEqual([B1, B2, B0, B4])
    expect(await order("visibility_change", "asc")).toEqual([B1, B2, B4, B0])
    expect(await order("share_of_voice_change", "desc")).toEqual([B0, B4, B2, B1])
    expect(await order("average_sentiment", "desc")).toEqual([B0, B1, B2, B4])
    expect(await order("mentioned_count", "asc")).toEqual([B4, B2, B0, B1])
    // Equal for every row: the name order alone.
    expect(await order("responses_count", "desc")).toEqual([B0, B1, B4, B2])
    expect(await order("total_mentions", "asc")).toEqual([B0, B1, B4, B2])
    // Pages come after the sort.
    const page = await brands({ sortBy: "name", sortOrder: "asc", offset: 1, limit: 2 })
    expect(page.rows.map((row) => row.brand.id)).toEqual([loaded.ids.brands[B1], loaded.ids.brands[B4]])
    expect(page.total).toBe(4)
  })

  it("chooses rows with brands[] and segments[], never the denominators", async () => {
    const inSegment1 = await brands({ selection: { segments: [loaded.ids.segments[1]!] } })
    expect(inSegment1).toEqual({ rows: [beta(), lowerAcme()], total: 2 })
    const some = await brands({ selection: { brands: [loaded.ids.brands[B4]!, loaded.ids.brands[B0]!, loaded.ids.brands[B3]!] } })
    // The ignored brand, though named, is not counted: no row.
    expect(some).toEqual({ rows: [acme(), silentBeta()], total: 2 })
    const both = await brands({ selection: { brands: [loaded.ids.brands[B0]!, loaded.ids.brands[B2]!], segments: [loaded.ids.segments[1]!] } })
    expect(both.rows.map((row) => row.brand.id)).toEqual([loaded.ids.brands[B2]])
  })

  it("gives nulls where a denominator is 0: a filter leaving P empty", async () => {
    // tags[] = tag 1 (P1): W r3 r5 (2 responses, 4 counted mentions), P nothing.
    const page = await brands({ filters: { tags: [loaded.ids.tags[1]!] } })
    const row = (index: number) => page.rows.find((r) => r.brand.id === loaded.ids.brands[index])!
    expect(row(B0)).toMatchObject({
      responses_count: 2,
      mentioned_count: 2,
      visibility: 100,
      visibility_ci: { low: 34.24, high: 100 },
      visibility_change: null,
      visibility_change_significant: false,
      total_mentions: 4,
      share_of_voice: 50,
      share_of_voice_change: null,
      average_position: 1.5,
      average_position_change: null,
      // Lifetime dates ignore the filters.
      first_seen_on: "2026-01-10"
    })
    // A window with no response at all: every proportion and mean is null, every count 0.
    const empty = await brands({ range: { start: "2026-02-01", end: "2026-02-02" } })
    expect(empty.rows.map((r) => [r.responses_count, r.visibility, r.visibility_ci, r.share_of_voice, r.average_position])).toEqual([
      [0, null, null, null, null],
      [0, null, null, null, null],
      [0, null, null, null, null],
      [0, null, null, null, null]
    ])
    // All null: ordered by name, then id.
    expect(empty.rows.map((r) => r.brand.id)).toEqual([B0, B1, B4, B2].map((i) => loaded.ids.brands[i]))
  })

  it("answers the time series: dense buckets, counts and totals, ranked by mentions then name", async () => {
    const series = (metric: BrandMetric, interval: Interval = "day", range = W, topN = 20) =>
      loaded.run(Effect.flatMap(Analytics, (a) =>
        a.brandSeries(loaded.ids.project, { range, filters: {}, selection: {}, interval, metric, topN })))
    const at = (day: string) => new Date(`${day}T00:00:00.000Z`)
    const days = ["2026-01-10", "2026-01-11", "2026-01-12", "2026-01-13"]
    // Responses per day 1, 1, 1, 2 (r4 r5); counted mentions per day 2, 1, 3, 1.
    const visibility = await series("visibility")
    // B0 and B1 both 3 mentions: Acme first; then acme (1), then the silent Beta (0).
    expect(visibility.series.map((s) => s.brand.id)).toEqual([B0, B1, B2, B4].map((i) => loaded.ids.brands[i]))
    expect(visibility.series[0]).toEqual({
      brand: brandRef(B0),
      data: [
        { timestamp: at(days[0]!), value: 100, count: 1, total: 1 },
        { timestamp: at(days[1]!), value: 0, count: 0, total: 1 },
        { timestamp: at(days[2]!), value: 100, count: 1, total: 1 },
        { timestamp: at(days[3]!), value: 50, count: 1, total: 2 }
      ]
    })
    const share = await series("share_of_voice")
    expect(share.series[0]!.data.map((p) => [p.value, p.count, p.total])).toEqual([[50, 1, 2], [0, 0, 1], [33.33, 1, 3], [100, 1, 1]])
    const position = await series("average_position")
    // A mean's total is null; its value is null where the brand has no mention.
    expect(position.series[0]!.data.map((p) => [p.value, p.count, p.total])).toEqual([[1, 1, null], [null, 0, null], [2, 1, null], [1, 1, null]])
    const sentiment = await series("average_sentiment", "week")
    // Week of 2026-01-05 (r1, 01-10..01-11): B0 80; week of 01-12: (70 + 90) / 2 = 80.
    expect(sentiment.series[0]!.data).toEqual([
      { timestamp: at("2026-01-05"), value: 80, count: 1, total: null },
      { timestamp: at("2026-01-12"), value: 80, count: 2, total: null }
    ])
    // Days without any response: null value, zero counts.
    const late = await series("visibility", "day", { start: "2026-01-13", end: "2026-01-15" }, 1)
    expect(late.series).toHaveLength(1)
    expect(late.series[0]!.data.map((p) => [p.value, p.count, p.total])).toEqual([[50, 1, 2], [null, 0, 0], [null, 0, 0]])
    expect(late).toMatchObject({ interval: "day", metric: "visibility" })
  })

  it("lists the prompts answered in the window, where the own brand is missing first", async () => {
    const prompts = (sortBy: PromptSortBy = "own_visibility", sortOrder: SortOrder = "asc", filters: Filters = {}) =>
      loaded.run(Effect.flatMap(Analytics, (a) =>
        a.prompts(loaded.ids.project, { range: W, filters, sortBy, sortOrder, window: { offset: 0, limit: 25 } })))
    const prompt = (index: number) => ({
      id: loaded.ids.prompts[index]!,
      text: `Prompt ${index}`,
      monitor_id: loaded.ids.monitors[dataset.prompts[index]!.monitor]!
    })
    // P2: r4 alone, nothing mentioned. P0: r1 r2, the own brand in r1 (1 of 2), Beta in both. P1: r3 r5,
    // the own brand in both (positions 2 and 1), Beta and acme once each: Beta first by name.
    const p2 = {
      prompt: prompt(P2),
      responses_count: 1,
      own: { mentioned_count: 0, visibility: 0, visibility_ci: { low: 0, high: 79.35 }, average_position: null },
      top_competitor: null,
      brands_mentioned: 0
    }
    const p0 = {
      prompt: prompt(P0),
      responses_count: 2,
      own: { mentioned_count: 1, visibility: 50, visibility_ci: { low: 9.45, high: 90.55 }, average_position: 1 },
      top_competitor: { brand: brandRef(B1), mentioned_count: 2, visibility: 100 },
      brands_mentioned: 2
    }
    const p1 = {
      prompt: prompt(P1),
      responses_count: 2,
      own: { mentioned_count: 2, visibility: 100, visibility_ci: { low: 34.24, high: 100 }, average_position: 1.5 },
      top_competitor: { brand: brandRef(B1), mentioned_count: 1, visibility: 50 },
      brands_mentioned: 3
    }
    expect(await prompts()).toEqual({ rows: [p2, p0, p1], total: 3 })
    expect((await prompts("own_visibility", "desc")).rows).toEqual([p1, p0, p2])
    // Ties by prompt id, in both directions.
    expect((await prompts("responses_count", "asc")).rows).toEqual([p2, p0, p1])
    expect((await prompts("responses_count", "desc")).rows).toEqual([p0, p1, p2])
    expect((await prompts("brands_mentioned", "desc")).rows).toEqual([p1, p0, p2])
    expect((await prompts("text", "desc")).rows).toEqual([p2, p1, p0])
    // Filters: gemini answers are r2 (P0) and r4 (P2), the own brand in neither: 0 % both, by prompt id.
    expect((await prompts("own_visibility", "asc", { platforms: ["gemini"] })).rows.map((r) => [r.prompt.id, r.own?.visibility])).toEqual([
      [prompt(P0).id, 0],
      [prompt(P2).id, 0]
    ])
    expect((await prompts("own_visibility", "asc", { tags: [loaded.ids.tags[1]!] })).rows).toEqual([p1])
  })
})

describe.each([["memory", loadMemory], [sqlBackend, loadSql]] as const)("brand analytics edge cases (%s)", (_name, load) => {
  it("marks a real change significant, and a project without an own brand has no own figures", async () => {
    // 20 responses a day apart in W and in P of one prompt: the brand in 15 of W's and 3 of P's (z = 3.81);
    // another brand in 5 of W's and 4 of P's (5/20 against 4/20: z = 0.38).
    const responses = Array.from({ length: 40 }, (_, i) => {
      const inW = i < 20
      const k = i % 20
      return {
        prompt: 0,
        platform: "chatgpt" as const,
        status: "analyzed" as const,
        collected_at: new Date(Date.UTC(2026, 2, inW ? 21 : 1) + k * 86_400_000),
        citations: [],
        mentions: [
          ...(k < (inW ? 15 : 3) ? [{ brand: 0, position: 1, sentiment: 50 }] : []),
          ...(k < (inW ? 5 : 4) ? [{ brand: 1, position: 2, sentiment: 50 }] : [])
        ]
      }
    })
    const loaded = await load({
      monitors: [{ country: "US" }],
      tags: 0,
      prompts: [{ monitor: 0, tags: [] }],
      sources: [],
      urls: [],
      brands: [{ name: "Rising" }, { name: "Steady" }],
      responses
    })
    try {
      const page = await loaded.run(Effect.flatMap(Analytics, (a) =>
        a.brands(loaded.ids.project, {
          range: { start: "2026-03-21", end: "2026-04-09" },
          filters: {},
          selection: {},
          sortBy: "visibility",
          sortOrder: "desc",
          window: { offset: 0, limit: 25 }
        })))
      expect(page.rows.map((r) => [r.brand.name, r.visibility, r.visibility_change, r.visibility_change_significant, r.brand.is_own])).toEqual([
        ["Rising", 75, 60, true, false],
        ["Steady", 25, 5, false, false]
      ])
      // Share of voice: 15 of 20 mentions against 3 of 7: z = 1.53, not significant.
      expect(page.rows[0]).toMatchObject({ total_mentions: 20, share_of_voice: 75, share_of_voice_change: 32.14, share_of_voice_change_significant: false })
      const prompts = await loaded.run(Effect.flatMap(Analytics, (a) =>
        a.prompts(loaded.ids.project, {
          range: { start: "2026-03-21", end: "2026-04-09" },
          filters: {},
          sortBy: "own_visibility",
          sortOrder: "desc",
          window: { offset: 0, limit: 25 }
        })))
      expect(prompts.rows).toEqual([{
        prompt: { id: loaded.ids.prompts[0], text: "Prompt 0", monitor_id: loaded.ids.monitors[0] },
        responses_count: 20,
        own: null,
        top_competitor: { brand: { id: loaded.ids.brands[0], name: "Rising", classification: "competitor", is_own: false }, mentioned_count: 15, visibility: 75 },
        brands_mentioned: 2
      }])
    } finally {
      await loaded.close()
    }
  }, 60_000)
})
