import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  Analytics,
  bucketCount,
  bucketsOf,
  type Filters,
  hundredfold,
  type Interval,
  roundRatio,
  type SourceSortBy,
  type SortOrder,
  type UrlSortBy
} from "../../../src/Analytics/Analytics.ts"
import * as AnalyticsMemory from "../../../src/Analytics/AnalyticsMemory.ts"
import * as AnalyticsSql from "../../../src/Analytics/AnalyticsSql.ts"
import { MemoryStore, MemoryTables } from "../../../src/Memory/Store.ts"
import {
  type DatasetIds,
  type DatasetSpec,
  writeMemory,
  writeMemoryOrganization,
  writeSql,
  writeSqlOrganization
} from "../../support/AnalyticsData.ts"
import { migratedSql } from "../../support/Databases.ts"
import { sqlBackend } from "../../support/TestServer.ts"

/**
 * Small datasets whose every number was worked out by hand from docs/api.md, run on both
 * implementations. The comments show the arithmetic.
 */

describe("rounding", () => {
  it("rounds half away from zero, exactly", () => {
    expect([roundRatio(1, 2), roundRatio(-1, 2), roundRatio(3, 2), roundRatio(-3, 2), roundRatio(5, 2), roundRatio(-5, 2)]).toEqual([1, -1, 2, -2, 3, -3])
    expect([roundRatio(1, 3), roundRatio(-1, 3), roundRatio(2, 3), roundRatio(-2, 3), roundRatio(0, 7)]).toEqual([0, 0, 1, -1, 0])
    expect(roundRatio(1, -2)).toBe(-1)
    // 100 × 1/8 = 12.5 → 13; 100 × 0.145 is 14.499999999999998 in binary, but 145/1000 is exactly .5 away.
    expect(hundredfold(1, 8)).toBe(13)
    expect(hundredfold(145, 1000)).toBe(15)
    expect(hundredfold(7, 0)).toBe(0)
  })
})

describe("buckets", () => {
  const range = (start: string, end: string) => ({ start, end })
  const iso = (list: Array<number>) => list.map((ms) => new Date(ms).toISOString().slice(0, 10))
  it("start with the bucket holding start_date and end with the one holding end_date", () => {
    // 2026-01-10 is a Saturday: its ISO week starts on Monday 2026-01-05.
    expect(iso(bucketsOf("week", range("2026-01-10", "2026-01-13")))).toEqual(["2026-01-05", "2026-01-12"])
    expect(iso(bucketsOf("day", range("2026-02-27", "2026-03-02")))).toEqual(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"])
    expect(iso(bucketsOf("month", range("2025-11-30", "2026-02-01")))).toEqual(["2025-11-01", "2025-12-01", "2026-01-01", "2026-02-01"])
    expect(iso(bucketsOf("year", range("2024-12-31", "2026-01-01")))).toEqual(["2024-01-01", "2025-01-01", "2026-01-01"])
    // A Sunday start: its week began six days before.
    expect(iso(bucketsOf("week", range("2026-01-11", "2026-01-11")))).toEqual(["2026-01-05"])
    for (const interval of ["day", "week", "month", "year"] as const) {
      for (const [start, end] of [["2023-02-27", "2026-03-02"], ["2026-01-01", "2026-01-01"], ["2020-12-31", "2021-01-04"]] as const) {
        expect(bucketCount(interval, range(start, end)), `${interval} ${start} ${end}`).toBe(bucketsOf(interval, range(start, end)).length)
      }
    }
    expect(bucketCount("day", range("2023-01-01", "2025-09-27"))).toBe(1001)
  })
})

// ---------------------------------------------------------------------------
// The dataset
// ---------------------------------------------------------------------------

// URLs and prompts by index.
const U1 = 0 // https://alpha.com/1 (alpha.com)
const U2 = 1 // https://alpha.com/2 (alpha.com)
const U3 = 2 // https://beta.com/x (beta.com)
const U4 = 3 // https://gamma.com/ (gamma.com)
const P1 = 0 // monitor 0 (US), tag 0
const P2 = 1 // monitor 1 (DE), no tag
const P3 = 2 // monitor 0 (US), tag 1

/**
 * W = 2026-01-10..2026-01-13 (4 days), P = 2026-01-06..2026-01-09.
 * R(W), unfiltered: r1 r2 r3 r4 r5 r6 r7 r8 (T = 8). R(P): p1 p2 p3 p4 (4).
 */
const dataset: DatasetSpec = {
  monitors: [{ country: "US", platforms: ["chatgpt", "perplexity", "claude"] }, { country: "DE", platforms: ["gemini"] }],
  tags: 2,
  prompts: [{ monitor: 0, tags: [0] }, { monitor: 1, tags: [] }, { monitor: 0, tags: [1] }],
  sources: ["alpha.com", "beta.com", "gamma.com"],
  urls: [
    { source: 0, url: "https://alpha.com/1" },
    { source: 0, url: "https://alpha.com/2" },
    { source: 1, url: "https://beta.com/x" },
    { source: 2, url: "https://gamma.com/" }
  ],
  responses: [
    // W
    { prompt: P1, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-10T00:00:00.000Z", citations: [U1, U1, U3] }, // r1: the first instant of W; U1 twice
    { prompt: P1, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-11T12:00:00.000Z", citations: [U1] }, // r2
    { prompt: P2, platform: "gemini", status: "analyzed", collected_at: "2026-01-12T08:00:00.000Z", citations: [U2, U4] }, // r3
    { prompt: P2, platform: "gemini", status: "analyzed", collected_at: "2026-01-13T23:59:59.999Z", citations: [] }, // r4: the last instant of W, no citation
    { prompt: P3, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-12T00:00:00.000Z", citations: [U3] }, // r5
    { prompt: P3, platform: "claude", country: "GB", status: "analyzed", collected_at: "2026-01-11T00:00:00.000Z", citations: [U1] }, // r6: collected in GB by a US monitor
    { prompt: P1, platform: "perplexity", status: "analyzed", collected_at: "2026-01-10T05:00:00.000Z", citations: [] }, // r7
    { prompt: P2, platform: "gemini", status: "analyzed", collected_at: "2026-01-13T10:00:00.000Z", citations: [U4] }, // r8
    // Not analyzed: never counted, not even in the lifetime dates.
    { prompt: P1, platform: "chatgpt", status: "failed", collected_at: "2026-01-11T00:00:00.000Z", citations: [U1, U2] }, // r9
    { prompt: P2, platform: "gemini", status: "pending", collected_at: "2026-01-12T00:00:00.000Z", citations: [U3] }, // r10
    // After W: the first instant of the next day.
    { prompt: P1, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-14T00:00:00.000Z", citations: [U2] }, // r11
    // P
    { prompt: P1, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-06T00:00:00.000Z", citations: [U1] }, // p1: the first instant of P
    { prompt: P2, platform: "gemini", status: "analyzed", collected_at: "2026-01-09T23:59:59.999Z", citations: [U1, U1] }, // p2: the last instant of P
    { prompt: P3, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-08T00:00:00.000Z", citations: [U3] }, // p3
    { prompt: P3, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-07T00:00:00.000Z", citations: [] }, // p4
    // Before P: the last instant before it.
    { prompt: P2, platform: "gemini", status: "analyzed", collected_at: "2026-01-05T23:59:59.999Z", citations: [U4] } // o1
  ]
}

/** Another project of the same organization, citing the same URLs in the same days: never counted. */
const neighbour: DatasetSpec = {
  monitors: [{ country: "US" }],
  tags: 1,
  prompts: [{ monitor: 0, tags: [0] }],
  sources: ["alpha.com", "zeta.com"],
  urls: [{ source: 0, url: "https://alpha.com/1" }, { source: 1, url: "https://zeta.com/" }],
  responses: [
    { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-11T00:00:00.000Z", citations: [0, 1] },
    { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-02T00:00:00.000Z", citations: [0] },
    { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-20T00:00:00.000Z", citations: [0] }
  ]
}

// ---------------------------------------------------------------------------
// Both implementations
// ---------------------------------------------------------------------------

interface Loaded {
  readonly ids: DatasetIds
  readonly other: DatasetIds
  readonly run: <A>(effect: Effect.Effect<A, unknown, Analytics>) => Promise<A>
  readonly close: () => Promise<void>
}

const loadMemory = async (spec: DatasetSpec = dataset): Promise<Loaded> => {
  const db = new MemoryTables()
  const organization = writeMemoryOrganization(db)
  const other = writeMemory(db, organization, neighbour)
  const ids = writeMemory(db, organization, spec)
  const layer = AnalyticsMemory.layerMemory.pipe(Layer.provide(Layer.succeed(MemoryStore, db)))
  return { ids, other, run: (effect) => Effect.runPromise(Effect.provide(effect, layer).pipe(Effect.orDie)), close: async () => {} }
}

const loadSql = async (spec: DatasetSpec = dataset): Promise<Loaded> => {
  const runtime = ManagedRuntime.make(
    AnalyticsSql.layerSql.pipe(Layer.provideMerge(migratedSql), Layer.provide(Logger.minimumLogLevel(LogLevel.None)))
  )
  const { ids, other } = await runtime.runPromise(Effect.gen(function*() {
    const organization = yield* writeSqlOrganization()
    const other = yield* writeSql(organization, neighbour)
    const ids = yield* writeSql(organization, spec)
    return { ids, other }
  }))
  return { ids, other, run: (effect) => runtime.runPromise(effect.pipe(Effect.orDie)), close: () => runtime.dispose() }
}

const W = { start: "2026-01-10", end: "2026-01-13" }

const list = <SortBy extends string>(options: {
  readonly range?: { start: string; end: string }
  readonly filters?: Filters
  readonly sortBy?: SortBy
  readonly sortOrder?: SortOrder
  readonly offset?: number
  readonly limit?: number
}) => ({
  range: options.range ?? W,
  filters: options.filters ?? {},
  sortBy: options.sortBy ?? ("used_percentage" as SortBy),
  sortOrder: options.sortOrder ?? "desc",
  window: { offset: options.offset ?? 0, limit: options.limit ?? 25 }
})

type Numbers = readonly [number, number, number, number, number, number, string, string]

const measures = ([used, usedChange, percentage, percentageChange, average, averageChange, first, last]: Numbers) => ({
  used_count: used,
  used_count_change: usedChange,
  used_percentage: percentage,
  used_percentage_change: percentageChange,
  average_citations: average,
  average_citations_change: averageChange,
  first_seen_on: first,
  last_seen_on: last
})

describe.each([["memory", loadMemory], [sqlBackend, loadSql]] as const)("hand-computed examples (%s)", (_name, load) => {
  let loaded: Loaded
  beforeAll(async () => {
    loaded = await load(dataset)
  }, 60_000)
  afterAll(() => loaded.close())

  const source = (index: number, numbers: Numbers) => ({
    source: { id: loaded.ids.sources[index]!, domain: dataset.sources[index]! },
    ...measures(numbers)
  })
  const url = (index: number, numbers: Numbers) => ({
    source_url: { id: loaded.ids.urls[index]!, source_id: loaded.ids.sources[dataset.urls[index]!.source]!, url: dataset.urls[index]!.url },
    ...measures(numbers)
  })
  const sources = (query: ReturnType<typeof list<SourceSortBy>>) => loaded.run(Effect.flatMap(Analytics, (a) => a.sources(loaded.ids.project, query)))
  const urls = (query: ReturnType<typeof list<UrlSortBy>>) => loaded.run(Effect.flatMap(Analytics, (a) => a.sourceUrls(loaded.ids.project, query)))
  const series = (range: { start: string; end: string }, interval: Interval, topN = 20, filters: Filters = {}) =>
    loaded.run(Effect.flatMap(Analytics, (a) => a.sourceUrlUsage(loaded.ids.project, { range, filters, interval, topN })))

  // Sources over W (T = 8) and P (T = 4):
  //   alpha: W r1(U1,U1) r2 r3(U2) r6 → used 4, cited 5 → 50 %, 5/8 = 0.625 → 0.63; P p1 p2(U1,U1) → used 2, cited 3 → 50 %, 0.75.
  //          average change: 0.63 - 0.75 = -0.12 (the shown values' difference; the exact -0.125 would round to -0.13).
  //          lifetime: p1 2026-01-06 .. r11 2026-01-14 (r9, failed, ignored).
  //   beta:  W r1 r5 → 2, 2 → 25 %, 0.25; P p3 → 1, 1 → 25 %, 0.25. Lifetime p3 01-08 .. r5 01-12 (r10, pending, ignored).
  //   gamma: W r3 r8 → 2, 2 → 25 %, 0.25; P none. Lifetime o1 01-05 .. r8 01-13.
  const alpha = (): Numbers => [4, 2, 50, 0, 0.63, -0.12, "2026-01-06", "2026-01-14"]
  const beta = (): Numbers => [2, 1, 25, 0, 0.25, 0, "2026-01-08", "2026-01-12"]
  const gamma = (): Numbers => [2, 2, 25, 25, 0.25, 0.25, "2026-01-05", "2026-01-13"]

  it("sources: default order used_percentage desc, ties by domain", async () => {
    expect(await sources(list({}))).toEqual({ rows: [source(0, alpha()), source(1, beta()), source(2, gamma())], total: 3 })
  })

  it("source URLs: .5 rounds away from zero, changes are differences of the shown values", async () => {
    // U1: W r1(×2) r2 r6 → used 3, cited 4 → 37.5 → 38 %, 0.5; P p1 p2(×2) → 2, 3 → 50 %, 0.75 → changes 1, -12, -0.25.
    // U2: W r3 → 1, 1 → 12.5 → 13 %, 0.125 → 0.13; P none → changes 1, 13, 0.13. Lifetime r3 01-12 (r9 failed 01-11 ignored) .. r11 01-14.
    // U3: W r1 r5 → 2, 2 → 25 %, 0.25; P p3 → 1, 1 → 25 %, 0.25.
    // U4: W r3 r8 → 2, 2 → 25 %, 0.25; P none.
    expect(await urls(list({}))).toEqual({
      rows: [
        url(U1, [3, 1, 38, -12, 0.5, -0.25, "2026-01-06", "2026-01-11"]),
        url(U3, [2, 1, 25, 0, 0.25, 0, "2026-01-08", "2026-01-12"]),
        url(U4, [2, 2, 25, 25, 0.25, 0.25, "2026-01-05", "2026-01-13"]),
        url(U2, [1, 1, 13, 13, 0.13, 0.13, "2026-01-12", "2026-01-14"])
      ],
      total: 4
    })
  })

  it("sorts by any measure in both directions, ties by name then id, before paging", async () => {
    const ids = (page: { rows: ReadonlyArray<{ source: { id: number } }> }) => page.rows.map((row) => row.source.id)
    const [a, b, c] = loaded.ids.sources as [number, number, number]
    expect(ids(await sources(list({ sortBy: "used_count_change", sortOrder: "asc" })))).toEqual([b, a, c])
    expect(ids(await sources(list({ sortBy: "average_citations_change", sortOrder: "desc" })))).toEqual([c, b, a])
    expect(ids(await sources(list({ sortBy: "used_percentage", sortOrder: "asc" })))).toEqual([b, c, a])
    expect(ids(await sources(list({ sortBy: "first_seen_on", sortOrder: "asc" })))).toEqual([c, a, b])
    expect(ids(await sources(list({ sortBy: "last_seen_on", sortOrder: "desc" })))).toEqual([a, c, b])
    expect(ids(await sources(list({ sortBy: "domain", sortOrder: "desc" })))).toEqual([c, b, a])
    expect(ids(await sources(list({ sortBy: "used_count", sortOrder: "desc", offset: 1, limit: 1 })))).toEqual([b])
    expect(await sources(list({ offset: 3, limit: 2 }))).toEqual({ rows: [], total: 3 })
    const page = await sources(list({ sortBy: "last_seen_on", sortOrder: "asc", offset: 1, limit: 2 }))
    expect(page).toEqual({ rows: [source(2, gamma()), source(0, alpha())], total: 3 })
  })

  it("an empty previous period: changes equal the values", async () => {
    // W = 2026-01-05 (o1 alone, T = 1), P = 2026-01-04 (nothing): gamma 1, 100 %, 1 citation per response.
    expect(await sources(list({ range: { start: "2026-01-05", end: "2026-01-05" } }))).toEqual({
      rows: [source(2, [1, 1, 100, 100, 1, 1, "2026-01-05", "2026-01-13"])],
      total: 1
    })
  })

  it("an empty window: no rows", async () => {
    expect(await sources(list({ range: { start: "2026-01-21", end: "2026-01-22" } }))).toEqual({ rows: [], total: 0 })
    expect(await urls(list({ range: { start: "2026-01-15", end: "2026-01-19" } }))).toEqual({ rows: [], total: 0 })
  })

  it("filters narrow W and P alike; the lifetime dates ignore them", async () => {
    // gemini: W r3 r4 r8 (T = 3): alpha r3 → 1, 33 %, 0.33; gamma r3 r8 → 2, 67 %, 0.67. P p2 (T = 1): alpha 1, 100 %, 2.
    const gemini = [source(2, [2, 2, 67, 67, 0.67, 0.67, "2026-01-05", "2026-01-13"]), source(0, [1, 0, 33, -67, 0.33, -1.67, "2026-01-06", "2026-01-14"])]
    expect(await sources(list({ filters: { platforms: ["gemini"] } }))).toEqual({ rows: gemini, total: 2 })
    // The same responses, through their monitor.
    expect(await sources(list({ filters: { monitors: [loaded.ids.monitors[1]!] } }))).toEqual({ rows: gemini, total: 2 })
    // Several platforms, one absent from the data.
    expect((await sources(list({ filters: { platforms: ["gemini", "grok", "claude"] } }))).total).toBe(2)
    // GB: the response's own country (r6), though its monitor runs in the US. W T = 1, P empty.
    expect(await sources(list({ filters: { countries: ["GB"] } }))).toEqual({
      rows: [source(0, [1, 1, 100, 100, 1, 1, "2026-01-06", "2026-01-14"])],
      total: 1
    })
    // Tag 1 is on P3: W r5 r6 (T = 2): alpha r6 → 50 %, 0.5; beta r5 → 50 %, 0.5. P p3 p4 (T = 2): beta p3 → 50 %, 0.5.
    expect(await sources(list({ filters: { tags: [loaded.ids.tags[1]!] } }))).toEqual({
      rows: [source(0, [1, 1, 50, 50, 0.5, 0.5, "2026-01-06", "2026-01-14"]), source(1, [1, 0, 50, 0, 0.5, 0, "2026-01-08", "2026-01-12"])],
      total: 2
    })
    // Any of the tags: both tags cover P1 and P3 (every response but P2's).
    const both = await sources(list({ filters: { tags: [...loaded.ids.tags] } }))
    const either = await sources(list({ filters: { monitors: [loaded.ids.monitors[0]!] } }))
    expect(both).toEqual(either)
    // Filters combine: US responses of gemini: none.
    expect(await sources(list({ filters: { platforms: ["gemini"], countries: ["US"] } }))).toEqual({ rows: [], total: 0 })
  })

  it("time series by day: dense, R(W) only, ranked by citations then URL, top_n", async () => {
    // Buckets (T): 01-10 r1 r7 (2), 01-11 r2 r6 (2), 01-12 r3 r5 (2), 01-13 r4 r8 (2).
    // Citations in R(W): U1 4, U3 2, U4 2, U2 1 → U1, U3 (beta < gamma), U4, U2.
    const days = ["2026-01-10", "2026-01-11", "2026-01-12", "2026-01-13"]
    const points = (values: Array<number>, starts = days) => starts.map((day, i) => ({ timestamp: new Date(`${day}T00:00:00.000Z`), value: values[i]! }))
    const ref = (index: number) => ({ id: loaded.ids.urls[index]!, source_id: loaded.ids.sources[dataset.urls[index]!.source]!, url: dataset.urls[index]!.url })
    expect(await series(W, "day")).toEqual({
      interval: "day",
      series: [
        { source_url: ref(U1), data: points([50, 100, 0, 0]) },
        { source_url: ref(U3), data: points([50, 0, 50, 0]) },
        { source_url: ref(U4), data: points([0, 0, 50, 50]) },
        { source_url: ref(U2), data: points([0, 0, 50, 0]) }
      ]
    })
    expect((await series(W, "day", 2)).series.map((s) => s.source_url.id)).toEqual([ref(U1).id, ref(U3).id])

    // Weeks: 2026-01-05 holds 01-10 and 01-11 (r1 r7 r2 r6: P's responses of that week are outside W), 2026-01-12 the rest.
    const weeks = ["2026-01-05", "2026-01-12"]
    expect(await series(W, "week")).toEqual({
      interval: "week",
      series: [
        { source_url: ref(U1), data: points([75, 0], weeks) },
        { source_url: ref(U3), data: points([25, 25], weeks) },
        { source_url: ref(U4), data: points([0, 50], weeks) },
        { source_url: ref(U2), data: points([0, 25], weeks) }
      ]
    })
    // One month bucket: U1 3/8 = 37.5 → 38, U2 1/8 → 13.
    const month = await series(W, "month")
    expect(month.series.map((s) => s.data)).toEqual([points([38], ["2026-01-01"]), points([25], ["2026-01-01"]), points([25], ["2026-01-01"]), points([13], ["2026-01-01"])])
    expect((await series(W, "year")).series[0]!.data).toEqual(points([38], ["2026-01-01"]))

    // An empty bucket is 0: 01-13 r4 r8, 01-14 r11, 01-15 nothing. U2 and U4 tie at 1 citation: alpha.com/2 first.
    expect(await series({ start: "2026-01-13", end: "2026-01-15" }, "day")).toEqual({
      interval: "day",
      series: [
        { source_url: ref(U2), data: points([0, 100, 0], ["2026-01-13", "2026-01-14", "2026-01-15"]) },
        { source_url: ref(U4), data: points([50, 0, 0], ["2026-01-13", "2026-01-14", "2026-01-15"]) }
      ]
    })
    // Nothing cited: no series.
    expect(await series({ start: "2026-01-16", end: "2026-01-19" }, "day")).toEqual({ interval: "day", series: [] })
    // Filtered: gemini → r3 (U2 U4), r4, r8 (U4).
    expect((await series(W, "day", 20, { platforms: ["gemini"] })).series.map((s) => [s.source_url.id, s.data.map((p) => p.value)])).toEqual([
      [ref(U4).id, [0, 0, 100, 50]],
      [ref(U2).id, [0, 0, 100, 0]]
    ])
  })

  it("knows the project's monitors and tags only", async () => {
    const known = await loaded.run(Effect.flatMap(Analytics, (a) =>
      a.knownReferences(loaded.ids.project, {
        monitors: [...loaded.ids.monitors, ...loaded.other.monitors],
        tags: [loaded.ids.tags[0]!, loaded.other.tags[0]!, 999_999],
        brands: [],
        segments: []
      })))
    expect([...known.monitors].sort((x, y) => x - y)).toEqual([...loaded.ids.monitors])
    expect(known.tags).toEqual([loaded.ids.tags[0]])
  })
})

/**
 * Several tags: a response counts once whatever number of the given tags its prompt carries (the SQL
 * subtracts pairs of tags and adds back prompts carrying three or more). W = 2026-01-10 alone, P empty.
 */
const tagged: DatasetSpec = {
  monitors: [{ country: "US" }],
  tags: 4,
  // Q1 carries all four tags, Q2 three, Q3 two, Q4 one, Q5 none.
  prompts: [{ monitor: 0, tags: [0, 1, 2, 3] }, { monitor: 0, tags: [0, 1, 2] }, { monitor: 0, tags: [0, 1] }, { monitor: 0, tags: [2] }, {
    monitor: 0,
    tags: []
  }],
  sources: ["alpha.com", "beta.com"],
  urls: [{ source: 0, url: "https://alpha.com/1" }, { source: 1, url: "https://beta.com/x" }],
  responses: [
    { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-10T01:00:00.000Z", citations: [0] }, // q1
    { prompt: 1, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-10T02:00:00.000Z", citations: [0] }, // q2
    { prompt: 2, platform: "gemini", status: "analyzed", collected_at: "2026-01-10T03:00:00.000Z", citations: [0, 0] }, // q3
    { prompt: 3, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-10T04:00:00.000Z", citations: [1] }, // q4
    { prompt: 4, platform: "chatgpt", status: "analyzed", collected_at: "2026-01-10T05:00:00.000Z", citations: [0] } // q5
  ]
}

describe.each([["memory", loadMemory], [sqlBackend, loadSql]] as const)("several tags (%s)", (_name, load) => {
  let loaded: Loaded
  beforeAll(async () => {
    loaded = await load(tagged)
  }, 60_000)
  afterAll(() => loaded.close())

  const day = { start: "2026-01-10", end: "2026-01-10" }
  const tags = (...indexes: Array<number>) => indexes.map((index) => loaded.ids.tags[index]!)
  const sources = (filters: Filters) =>
    loaded.run(Effect.flatMap(Analytics, (a) => a.sources(loaded.ids.project, list<SourceSortBy>({ range: day, filters }))))
  const numbers = (page: { rows: ReadonlyArray<{ source: { domain: string }; used_count: number; used_percentage: number; average_citations: number }> }) =>
    page.rows.map((row) => [row.source.domain, row.used_count, row.used_percentage, row.average_citations])

  it("count each response once, whatever number of the tags its prompt carries", async () => {
    // All four tags: q1 (k = 4), q2 (3), q3 (2), q4 (1); T = 4. alpha q1 q2 q3 → 3, 75 %, 4 citations → 1; beta q4 → 25 %, 0.25.
    expect(numbers(await sources({ tags: tags(0, 1, 2, 3) }))).toEqual([["alpha.com", 3, 75, 1], ["beta.com", 1, 25, 0.25]])
    // Three tags, 0 1 3: q1 (3), q2 (2), q3 (2); T = 3: alpha 3, 100 %, 4/3 → 1.33.
    expect(numbers(await sources({ tags: tags(0, 1, 3) }))).toEqual([["alpha.com", 3, 100, 1.33]])
    // Two tags, 1 2: q1, q2 (2 each), q3, q4 (1); T = 4 as with all four.
    expect(numbers(await sources({ tags: tags(1, 2) }))).toEqual([["alpha.com", 3, 75, 1], ["beta.com", 1, 25, 0.25]])
    // With another filter: chatgpt drops q3. Tags 0 1 2 3: q1 q2 q4, T = 3: alpha 2 → 67 %, 2/3 → 0.67; beta 33 %, 0.33.
    expect(numbers(await sources({ tags: tags(0, 1, 2, 3), platforms: ["chatgpt"] }))).toEqual([
      ["alpha.com", 2, 67, 0.67],
      ["beta.com", 1, 33, 0.33]
    ])
    // The series: alpha.com/1 cited by 3 of the 4 responses of the day.
    const series = await loaded.run(Effect.flatMap(Analytics, (a) =>
      a.sourceUrlUsage(loaded.ids.project, { range: day, filters: { tags: tags(0, 1, 2, 3) }, interval: "day", topN: 1 })))
    expect(series.series.map((s) => s.data.map((point) => point.value))).toEqual([[75]])
  })
})
