import { Effect, FastCheck as fc, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Analytics, type BrandListQuery, type BrandRow, DAY_MS, type Filters, formatDate } from "../../../src/Analytics/Analytics.ts"
import * as AnalyticsMemory from "../../../src/Analytics/AnalyticsMemory.ts"
import * as AnalyticsSql from "../../../src/Analytics/AnalyticsSql.ts"
import { percentageChange, significantChange } from "../../../src/Analytics/Statistics.ts"
import type { Classification } from "../../../src/Domain/Brand.ts"
import type { Platform } from "../../../src/Domain/Platform.ts"
import type { AnswerState, ResponseStatus } from "../../../src/Domain/Response.ts"
import { MemoryStore, MemoryTables } from "../../../src/Memory/Store.ts"
import { type DatasetIds, type DatasetSpec, writeMemory, writeMemoryOrganization, writeSql, writeSqlOrganization } from "../../support/AnalyticsData.ts"
import { migratedSql } from "../../support/Databases.ts"
import { mergePending } from "../../support/Rollups.ts"
import { sqlBackend } from "../../support/TestServer.ts"

/**
 * The previous period's counts of a brand row (docs/api.md, "Brand analytics formulas"):
 * `previous_responses_count`, `previous_mentioned_count` and `previous_total_mentions` equal a recount of
 * the raw dataset over P with the window's filters, are 0 when P holds nothing, and are enough for a client
 * to recompute both changes of proportions and both significance flags from the row alone, with the
 * service's own functions (Statistics.ts). On both implementations; on SQL, with the answers pending (read
 * raw) in some runs and merged into the rollups in others.
 */

const BASE = Date.UTC(2026, 0, 5)
const SPAN = 24
const platforms: ReadonlyArray<Platform> = ["chatgpt", "gemini", "claude"]
const countries = ["US", "DE"]

const datasetArb: fc.Arbitrary<DatasetSpec> = fc
  .record({
    monitors: fc.array(fc.record({ country: fc.constantFrom(...countries) }), { minLength: 1, maxLength: 2 }),
    tags: fc.integer({ min: 0, max: 3 }),
    brands: fc.array(
      fc.record({ name: fc.constantFrom("Acme", "Beta", "Zeta"), classification: fc.constantFrom<Classification>("competitor", "other", "ignored") }),
      { minLength: 1, maxLength: 4 }
    )
  })
  .chain(({ brands, monitors, tags }) =>
    fc
      .array(
        fc.record({
          monitor: fc.integer({ min: 0, max: monitors.length - 1 }),
          tags: tags === 0 ? fc.constant([]) : fc.uniqueArray(fc.integer({ min: 0, max: tags - 1 }), { maxLength: tags })
        }),
        { minLength: 1, maxLength: 4 }
      )
      .chain((prompts) =>
        fc
          .array(
            fc.record({
              prompt: fc.integer({ min: 0, max: prompts.length - 1 }),
              platform: fc.constantFrom(...platforms),
              status: fc.constantFrom<ResponseStatus>("analyzed", "analyzed", "analyzed", "analyzed", "failed"),
              answer_state: fc.constantFrom<AnswerState>("answered", "answered", "answered", "refused"),
              collected_at: fc.integer({ min: 0, max: SPAN * DAY_MS - 1 }).map((ms) => new Date(BASE + ms)),
              citations: fc.constant([]),
              mentions: fc.uniqueArray(fc.integer({ min: 0, max: brands.length - 1 }), { maxLength: brands.length }).map((chosen) =>
                chosen.map((brand, i) => ({ brand, position: i + 1, sentiment: 50 }))
              )
            }),
            { minLength: 5, maxLength: 60 }
          )
          .map((responses): DatasetSpec => ({ monitors, tags, prompts, sources: [], urls: [], brands, responses }))
      )
  )

/** A window inside the data (so that P is partly or wholly inside it too, or before it), and some filters. */
const queryArb = (dataset: DatasetSpec) =>
  fc.record({
    start: fc.integer({ min: 2, max: SPAN - 1 }),
    days: fc.integer({ min: 1, max: 12 }),
    platforms: fc.option(fc.uniqueArray(fc.constantFrom(...platforms), { minLength: 1 }), { nil: undefined, freq: 2 }),
    countries: fc.option(fc.uniqueArray(fc.constantFrom(...countries), { minLength: 1 }), { nil: undefined, freq: 2 }),
    monitors: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: dataset.monitors.length - 1 }), { minLength: 1 }), { nil: undefined, freq: 2 }),
    tags: dataset.tags === 0
      ? fc.constant(undefined)
      : fc.option(fc.uniqueArray(fc.integer({ min: 0, max: dataset.tags - 1 }), { minLength: 1 }), { nil: undefined, freq: 2 })
  })

type QueryChoice = ReturnType<typeof queryArb> extends fc.Arbitrary<infer Q> ? Q : never

/** The previous period's counts of every counted brand, recounted from the dataset's description. */
const recount = (dataset: DatasetSpec, query: QueryChoice) => {
  const from = BASE + (query.start - query.days) * DAY_MS
  const to = BASE + query.start * DAY_MS
  const inP = dataset.responses.filter((response) => {
    const at = new Date(response.collected_at).getTime()
    const prompt = dataset.prompts[response.prompt]!
    const country = response.country ?? dataset.monitors[prompt.monitor]!.country
    return response.status === "analyzed" && (response.answer_state ?? "answered") === "answered" && at >= from && at < to &&
      (query.platforms === undefined || query.platforms.includes(response.platform)) &&
      (query.countries === undefined || query.countries.includes(country)) &&
      (query.monitors === undefined || query.monitors.includes(prompt.monitor)) &&
      (query.tags === undefined || prompt.tags.some((tag) => query.tags!.includes(tag)))
  })
  const counted = (brand: number) => dataset.brands![brand]!.classification !== "ignored"
  const totalMentions = inP.reduce((sum, response) => sum + (response.mentions ?? []).filter((m) => counted(m.brand)).length, 0)
  return new Map(
    dataset.brands!.flatMap((_brand, index) =>
      counted(index)
        ? [[index, {
          previous_responses_count: inP.length,
          previous_mentioned_count: inP.filter((response) => (response.mentions ?? []).some((m) => m.brand === index)).length,
          previous_total_mentions: totalMentions
        }]]
        : []
    )
  )
}

/** What a client can recompute from a row alone, and the row's own values of the same. */
const fromRowAlone = (row: BrandRow) => ({
  recomputed: {
    visibility_change: percentageChange(row.mentioned_count, row.responses_count, row.previous_mentioned_count, row.previous_responses_count),
    visibility_change_significant: significantChange(row.mentioned_count, row.responses_count, row.previous_mentioned_count, row.previous_responses_count),
    share_of_voice_change: percentageChange(row.mentioned_count, row.total_mentions, row.previous_mentioned_count, row.previous_total_mentions),
    share_of_voice_change_significant: significantChange(row.mentioned_count, row.total_mentions, row.previous_mentioned_count, row.previous_total_mentions)
  },
  shown: {
    visibility_change: row.visibility_change,
    visibility_change_significant: row.visibility_change_significant,
    share_of_voice_change: row.share_of_voice_change,
    share_of_voice_change_significant: row.share_of_voice_change_significant
  }
})

interface Store {
  readonly load: (dataset: DatasetSpec, merged: boolean) => Promise<DatasetIds>
  readonly run: <A>(effect: Effect.Effect<A, unknown, Analytics>) => Promise<A>
}

const memoryStore = (): Store & { close: () => Promise<void> } => {
  let db = new MemoryTables()
  return {
    load: async (dataset) => {
      db = new MemoryTables()
      return writeMemory(db, writeMemoryOrganization(db), dataset)
    },
    run: (effect) => Effect.runPromise(Effect.provide(effect, AnalyticsMemory.layerMemory.pipe(Layer.provide(Layer.succeed(MemoryStore, db)))).pipe(Effect.orDie)),
    close: async () => {}
  }
}

const sqlStore = (): Store & { close: () => Promise<void> } => {
  const runtime = ManagedRuntime.make(
    AnalyticsSql.layerSql.pipe(Layer.provideMerge(migratedSql), Layer.provide(Logger.minimumLogLevel(LogLevel.None)))
  )
  let organization: number | undefined
  return {
    load: (dataset, merged) =>
      runtime.runPromise(Effect.gen(function*() {
        organization ??= yield* writeSqlOrganization()
        const ids = yield* writeSql(organization, dataset)
        if (merged) yield* mergePending(ids.project)
        return ids
      })),
    run: (effect) => runtime.runPromise(effect.pipe(Effect.orDie)),
    close: () => runtime.dispose()
  }
}

const brandsOf = (store: Store, ids: DatasetIds, query: QueryChoice) => {
  const filters: Filters = {
    platforms: query.platforms,
    countries: query.countries,
    monitors: query.monitors?.map((index) => ids.monitors[index]!),
    tags: query.tags?.map((index) => ids.tags[index]!)
  }
  const list: BrandListQuery = {
    range: { start: formatDate(BASE + query.start * DAY_MS), end: formatDate(BASE + (query.start + query.days - 1) * DAY_MS) },
    filters,
    selection: {},
    sortBy: "name",
    sortOrder: "asc",
    window: { offset: 0, limit: 100 }
  }
  return store.run(Effect.flatMap(Analytics, (analytics) => analytics.brands(ids.project, list)))
}

describe.each([["memory", memoryStore], [sqlBackend, sqlStore]] as const)("previous period's counts (%s)", (_name, make) => {
  let store: ReturnType<typeof make>
  beforeAll(() => {
    store = make()
  })
  afterAll(() => store.close())

  it("equal a recount over P with the window's filters, and give back both changes and both flags from the row alone", async () => {
    let rows = 0
    let withPrevious = 0
    let runs = 0
    await fc.assert(
      fc.asyncProperty(
        datasetArb.chain((dataset) => fc.tuple(fc.constant(dataset), fc.array(queryArb(dataset), { minLength: 4, maxLength: 4 }))),
        async ([dataset, queries]) => {
          runs += 1
          const ids = await store.load(dataset, runs % 2 === 0)
          for (const query of queries) {
            const page = await brandsOf(store, ids, query)
            const expected = recount(dataset, query)
            const actual = new Map(page.rows.map((row) => [ids.brands.indexOf(row.brand.id), {
              previous_responses_count: row.previous_responses_count,
              previous_mentioned_count: row.previous_mentioned_count,
              previous_total_mentions: row.previous_total_mentions
            }]))
            expect(actual, JSON.stringify(query)).toEqual(expected)
            for (const row of page.rows) {
              const { recomputed, shown } = fromRowAlone(row)
              expect(recomputed).toEqual(shown)
              rows += 1
              if (row.previous_responses_count > 0) withPrevious += 1
            }
          }
        }
      ),
      { numRuns: 12, endOnFailure: true }
    )
    // The generator must give rows with a previous period to check.
    expect(withPrevious).toBeGreaterThan(rows / 8)
  }, 120_000)

  it("give back significant changes from the row alone", async () => {
    // Rising in 10 of 10 answers of W (02-03) against 0 of 10 in P (02-01), where only Other is named.
    const answers = (date: string, brand: number) =>
      Array.from({ length: 10 }, () => ({
        prompt: 0,
        platform: "chatgpt" as const,
        status: "analyzed" as const,
        collected_at: `${date}T12:00:00.000Z`,
        citations: [],
        mentions: [{ brand, position: 1, sentiment: 50 }]
      }))
    const ids = await store.load({
      monitors: [{ country: "US" }],
      tags: 0,
      prompts: [{ monitor: 0, tags: [] }],
      sources: [],
      urls: [],
      brands: [{ name: "Other" }, { name: "Rising" }],
      responses: [...answers("2026-02-01", 0), ...answers("2026-02-03", 1)]
    }, true)
    const day = (Date.parse("2026-02-03T00:00:00.000Z") - BASE) / DAY_MS
    const page = await brandsOf(store, ids, { start: day, days: 2, platforms: undefined, countries: undefined, monitors: undefined, tags: undefined })
    const rising = page.rows.find((row) => row.brand.name === "Rising")!
    const other = page.rows.find((row) => row.brand.name === "Other")!
    // 100 % against 0 % on 10 and 10: p = 0.5, z = 1 / √(0.25 × 0.2) = 4.47, for visibility and share of voice alike.
    expect(rising).toMatchObject({
      visibility_change: 100,
      visibility_change_significant: true,
      share_of_voice_change: 100,
      share_of_voice_change_significant: true,
      previous_responses_count: 10,
      previous_mentioned_count: 0,
      previous_total_mentions: 10
    })
    expect(other).toMatchObject({ visibility_change: -100, visibility_change_significant: true, previous_mentioned_count: 10 })
    for (const row of [rising, other]) {
      const { recomputed, shown } = fromRowAlone(row)
      expect(recomputed).toEqual(shown)
    }
  }, 60_000)

  it("are 0, never null, when P holds nothing, and follow the filters into P", async () => {
    // One brand; P = 2026-02-01..02-02 holds r1 (chatgpt, tagged) and r2 (gemini, untagged, no mention).
    const dataset: DatasetSpec = {
      monitors: [{ country: "US", platforms: ["chatgpt", "gemini"] }],
      tags: 1,
      prompts: [{ monitor: 0, tags: [0] }, { monitor: 0, tags: [] }],
      sources: [],
      urls: [],
      brands: [{ name: "Acme" }],
      responses: [
        { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: "2026-02-01T10:00:00.000Z", citations: [], mentions: [{ brand: 0, position: 1, sentiment: 50 }] },
        { prompt: 1, platform: "gemini", status: "analyzed", collected_at: "2026-02-02T23:59:59.999Z", citations: [], mentions: [] },
        { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: "2026-02-03T00:00:00.000Z", citations: [], mentions: [{ brand: 0, position: 1, sentiment: 50 }] }
      ]
    }
    for (const merged of [false, true]) {
      const ids = await store.load(dataset, merged)
      const at = async (start: number, filters: Partial<QueryChoice> = {}) => {
        const page = await brandsOf(store, ids, { start, days: 2, platforms: undefined, countries: undefined, monitors: undefined, tags: undefined, ...filters })
        const row = page.rows[0]!
        return [row.previous_responses_count, row.previous_mentioned_count, row.previous_total_mentions]
      }
      const day = (date: string) => (Date.parse(`${date}T00:00:00.000Z`) - BASE) / DAY_MS
      // W = 02-03..02-04: P = 02-01..02-02.
      expect(await at(day("2026-02-03"))).toEqual([2, 1, 1])
      expect(await at(day("2026-02-03"), { platforms: ["gemini"] })).toEqual([1, 0, 0])
      expect(await at(day("2026-02-03"), { platforms: ["claude"] })).toEqual([0, 0, 0])
      expect(await at(day("2026-02-03"), { tags: [0] })).toEqual([1, 1, 1])
      expect(await at(day("2026-02-03"), { countries: ["DE"] })).toEqual([0, 0, 0])
      // W = 02-05..02-06: P = 02-03..02-04 holds r3 only; W = 02-01..02-02: P before any data.
      expect(await at(day("2026-02-05"))).toEqual([1, 1, 1])
      const before = await brandsOf(store, ids, { start: day("2026-02-01"), days: 2, platforms: undefined, countries: undefined, monitors: undefined, tags: undefined })
      expect(before.rows[0]).toMatchObject({
        responses_count: 2,
        visibility_change: null,
        visibility_change_significant: false,
        share_of_voice_change: null,
        previous_responses_count: 0,
        previous_mentioned_count: 0,
        previous_total_mentions: 0
      })
    }
  }, 60_000)
})
