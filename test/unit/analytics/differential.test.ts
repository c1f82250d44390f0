import { SqlClient } from "@effect/sql"
import { Effect, FastCheck as fc, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  Analytics,
  DAY_MS,
  type Filters,
  formatDate,
  type Interval,
  intervals,
  type SeriesQuery,
  sourceSortKeys,
  type SourceSortBy,
  type SortOrder,
  urlSortKeys,
  type UrlSortBy
} from "../../../src/Analytics/Analytics.ts"
import * as AnalyticsMemory from "../../../src/Analytics/AnalyticsMemory.ts"
import * as AnalyticsSql from "../../../src/Analytics/AnalyticsSql.ts"
import type { Platform } from "../../../src/Domain/Platform.ts"
import type { ResponseStatus } from "../../../src/Domain/Response.ts"
import { MemoryStore, MemoryTables } from "../../../src/Memory/Store.ts"
import { type DatasetIds, type DatasetSpec, writeMemory, writeMemoryOrganization, writeSql, writeSqlOrganization } from "../../support/AnalyticsData.ts"
import { migratedSql } from "../../support/Databases.ts"
import { rollupMismatches } from "../../support/Rollups.ts"
import { sqlBackend } from "../../support/TestServer.ts"

/**
 * The SQL implementation against the in-memory reference, on random datasets and random queries of
 * all three endpoints. Every dataset becomes a fresh project of one shared database (so the earlier
 * runs' projects sit beside it and must never be counted) and a fresh in-memory store; the answers
 * must be identical, ids compared through the dataset's own indexes.
 */

const RUNS = 50
const QUERIES_PER_RUN = 10

// ---------------------------------------------------------------------------
// Datasets
// ---------------------------------------------------------------------------

const BASE = Date.UTC(2026, 0, 5) // a Monday; day 0 of the data
const SPAN = 30 // days of data, and a few days either side

const platformPool: ReadonlyArray<Platform> = ["chatgpt", "gemini", "claude"]
const countryPool = ["US", "GB", "DE"]
const domainPool = ["a.com", "b.com", "ab.com", "a-b.com", "z.org", "a.b.com", "B2.com"]
const pathPool = ["/", "/a", "/A", "/a?x=1", "/b/", "/a/b"]

/** Instants on day boundaries (first and last millisecond), noon, or anywhere in the day. */
const instantArb = fc
  .tuple(
    fc.integer({ min: -8, max: SPAN + 8 }),
    fc.oneof(fc.constant(0), fc.constant(DAY_MS - 1), fc.constant(DAY_MS / 2), fc.integer({ min: 0, max: DAY_MS - 1 }))
  )
  .map(([day, ms]) => new Date(BASE + day * DAY_MS + ms))

const statusArb: fc.Arbitrary<ResponseStatus> = fc.constantFrom<ResponseStatus>(
  "analyzed",
  "analyzed",
  "analyzed",
  "analyzed",
  "analyzed",
  "analyzed",
  "failed",
  "pending"
)

const datasetArb: fc.Arbitrary<DatasetSpec> = fc
  .record({
    monitors: fc.array(fc.record({ country: fc.constantFrom(...countryPool) }), { minLength: 1, maxLength: 3 }),
    // Up to four, so that prompts carry up to four of the tags of a filter (see `higherOrderOf`).
    tags: fc.integer({ min: 0, max: 4 }),
    sources: fc.uniqueArray(fc.constantFrom(...domainPool), { minLength: 1, maxLength: 5 })
  })
  .chain(({ monitors, sources, tags }) =>
    fc
      .record({
        prompts: fc.array(
          fc.record({
            monitor: fc.integer({ min: 0, max: monitors.length - 1 }),
            tags: tags === 0 ? fc.constant([]) : fc.uniqueArray(fc.integer({ min: 0, max: tags - 1 }), { maxLength: tags })
          }),
          { minLength: 1, maxLength: 5 }
        ),
        urls: fc.uniqueArray(
          fc.record({ source: fc.integer({ min: 0, max: sources.length - 1 }), path: fc.constantFrom(...pathPool) }),
          { minLength: 1, maxLength: 8, selector: (url) => `${url.source}${url.path}` }
        )
      })
      .chain(({ prompts, urls }) =>
        fc
          .integer({ min: 10, max: 100 })
          .chain((count) =>
            fc.array(
              fc.record({
              prompt: fc.integer({ min: 0, max: prompts.length - 1 }),
              platform: fc.constantFrom(...platformPool),
              country: fc.option(fc.constantFrom(...countryPool), { nil: undefined, freq: 3 }),
              status: statusArb,
              collected_at: instantArb,
              // Repeats allowed: a URL cited twice in one response counts twice as citations, once as use.
              citations: fc.array(fc.integer({ min: 0, max: urls.length - 1 }), { maxLength: 5 })
              }),
              { minLength: count, maxLength: count }
            )
          )
          .map((responses): DatasetSpec => ({
            monitors,
            tags,
            prompts,
            sources,
            urls: urls.map((url) => ({ source: url.source, url: `https://${sources[url.source]!.toLowerCase()}${url.path}` })),
            responses
          }))
      )
  )

// ---------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------

/** Filters as indexes into the dataset; resolved to ids per store. */
interface FilterChoice {
  readonly platforms?: ReadonlyArray<Platform> | undefined
  readonly countries?: ReadonlyArray<string> | undefined
  readonly monitors?: ReadonlyArray<number> | undefined
  readonly tags?: ReadonlyArray<number> | undefined
}

type QueryChoice =
  | { readonly kind: "sources"; readonly sortBy: SourceSortBy; readonly sortOrder: SortOrder; readonly page: number; readonly perPage: number }
  | { readonly kind: "urls"; readonly sortBy: UrlSortBy; readonly sortOrder: SortOrder; readonly page: number; readonly perPage: number }
  | { readonly kind: "series"; readonly interval: Interval; readonly topN: number }

interface Params {
  readonly start: number
  readonly days: number
  readonly filters: FilterChoice
  readonly query: QueryChoice
}

const paramsArb = (dataset: DatasetSpec): fc.Arbitrary<Params> => {
  // Each filter is given one time in three.
  const some = <A>(arb: fc.Arbitrary<ReadonlyArray<A>>): fc.Arbitrary<ReadonlyArray<A> | undefined> =>
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: arb, weight: 1 })
  const indexes = (count: number) => fc.uniqueArray(fc.integer({ min: 0, max: count - 1 }), { minLength: 1, maxLength: count })
  const groupFilters = {
    platforms: some(fc.uniqueArray(fc.constantFrom<Platform>(...platformPool, "grok"), { minLength: 1, maxLength: 3 })),
    countries: some(fc.uniqueArray(fc.constantFrom(...countryPool, "FR"), { minLength: 1, maxLength: 2 })),
    monitors: some(indexes(dataset.monitors.length))
  }
  return fc.record({
    start: fc.integer({ min: -4, max: SPAN + 2 }),
    // Mostly short windows (many edges in the data), sometimes long ones.
    // Long windows hold whole calendar months, which the rollups read from monthly rows.
    days: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 28, max: 70 })),
    // Each shape of filters reads its own rollup cut (and several tags their correction): all are drawn often.
    filters: fc.oneof(
      fc.constant({}),
      fc.record(groupFilters),
      dataset.tags === 0 ? fc.constant({}) : fc.record({ tags: indexes(dataset.tags).map((tags) => tags.slice(0, 1)) }),
      // Several tags: a prompt carrying two, three or four of them must count once.
      dataset.tags === 0 ? fc.constant({}) : fc.record({ tags: indexes(dataset.tags) }),
      fc.record({ ...groupFilters, tags: dataset.tags === 0 ? fc.constant(undefined) : some(indexes(dataset.tags)) })
    ),
    query: fc.oneof(
      fc.record({
        kind: fc.constant("sources" as const),
        sortBy: fc.constantFrom(...sourceSortKeys),
        sortOrder: fc.constantFrom<SortOrder>("asc", "desc"),
        page: fc.integer({ min: 1, max: 4 }),
        perPage: fc.integer({ min: 1, max: 5 })
      }),
      fc.record({
        kind: fc.constant("urls" as const),
        sortBy: fc.constantFrom(...urlSortKeys),
        sortOrder: fc.constantFrom<SortOrder>("asc", "desc"),
        page: fc.integer({ min: 1, max: 4 }),
        perPage: fc.integer({ min: 1, max: 5 })
      }),
      fc.record({
        kind: fc.constant("series" as const),
        interval: fc.constantFrom(...intervals),
        topN: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(50))
      })
    )
  })
}

// ---------------------------------------------------------------------------
// Changes after the data is written: the SQL rollups must follow every one of them
// ---------------------------------------------------------------------------

type Change =
  | { readonly kind: "attach" | "detach"; readonly prompt: number; readonly tag: number }
  | { readonly kind: "deletePrompt"; readonly prompt: number }
  | { readonly kind: "deleteMonitor"; readonly monitor: number }
  | { readonly kind: "deleteTag"; readonly tag: number }
  | { readonly kind: "deleteResponse"; readonly response: number }
  | { readonly kind: "setStatus"; readonly response: number; readonly status: ResponseStatus }

const changesArb = (dataset: DatasetSpec): fc.Arbitrary<ReadonlyArray<Change>> => {
  const prompt = fc.integer({ min: 0, max: dataset.prompts.length - 1 })
  const tag = fc.integer({ min: 0, max: Math.max(0, dataset.tags - 1) })
  const response = fc.integer({ min: 0, max: dataset.responses.length - 1 })
  const change: fc.Arbitrary<Change> = fc.oneof(
    ...(dataset.tags === 0 ? [] : [
      fc.record({ kind: fc.constantFrom("attach" as const, "detach" as const), prompt, tag }),
      fc.record({ kind: fc.constant("deleteTag" as const), tag })
    ]),
    fc.record({ kind: fc.constant("deletePrompt" as const), prompt }),
    fc.record({ kind: fc.constant("deleteMonitor" as const), monitor: fc.integer({ min: 0, max: dataset.monitors.length - 1 }) }),
    fc.record({ kind: fc.constant("deleteResponse" as const), response }),
    fc.record({ kind: fc.constant("setStatus" as const), response, status: statusArb })
  )
  // Most runs keep their data as written; the others change it a few times.
  return fc.oneof({ arbitrary: fc.constant([]), weight: 1 }, { arbitrary: fc.array(change, { minLength: 1, maxLength: 4 }), weight: 1 })
}

const changeMemory = (db: MemoryTables, ids: DatasetIds, change: Change) => {
  switch (change.kind) {
    case "attach": {
      const [promptId, tagId] = [ids.prompts[change.prompt]!, ids.tags[change.tag]!]
      if (db.prompts.has(promptId) && db.tags.has(tagId)) db.promptTags.add(`${promptId}:${tagId}`)
      return
    }
    case "detach":
      db.promptTags.delete(`${ids.prompts[change.prompt]!}:${ids.tags[change.tag]!}`)
      return
    case "deletePrompt":
      return db.deletePrompt(ids.prompts[change.prompt]!)
    case "deleteMonitor":
      return db.deleteMonitor(ids.monitors[change.monitor]!)
    case "deleteTag":
      return db.deleteTag(ids.tags[change.tag]!)
    case "deleteResponse":
      return db.deleteResponse(ids.responses[change.response]!)
    case "setStatus": {
      const row = db.responses.get(ids.responses[change.response]!)
      if (row !== undefined) db.responses.set(row.id, { ...row, status: change.status })
      return
    }
  }
}

const changeSql = (ids: DatasetIds, change: Change) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    switch (change.kind) {
      case "attach": {
        const [promptId, tagId] = [ids.prompts[change.prompt]!, ids.tags[change.tag]!]
        return sql`
          INSERT INTO prompt_tags (prompt_id, tag_id)
          SELECT ${promptId}, ${tagId} WHERE EXISTS (SELECT 1 FROM prompts WHERE id = ${promptId})
            AND EXISTS (SELECT 1 FROM tags WHERE id = ${tagId})
          ON CONFLICT DO NOTHING`
      }
      case "detach":
        return sql`DELETE FROM prompt_tags WHERE prompt_id = ${ids.prompts[change.prompt]!} AND tag_id = ${ids.tags[change.tag]!}`
      case "deletePrompt":
        return sql`DELETE FROM prompts WHERE id = ${ids.prompts[change.prompt]!}`
      case "deleteMonitor":
        return sql`DELETE FROM monitors WHERE id = ${ids.monitors[change.monitor]!}`
      case "deleteTag":
        return sql`DELETE FROM tags WHERE id = ${ids.tags[change.tag]!}`
      case "deleteResponse":
        return sql`DELETE FROM responses WHERE id = ${ids.responses[change.response]!}`
      case "setStatus":
        return sql`UPDATE responses SET status = ${change.status} WHERE id = ${ids.responses[change.response]!}`
    }
  })

const runArb = datasetArb.chain((dataset) =>
  fc.tuple(
    fc.constant(dataset),
    changesArb(dataset),
    fc.array(paramsArb(dataset), { minLength: QUERIES_PER_RUN, maxLength: QUERIES_PER_RUN })
  )
)

// ---------------------------------------------------------------------------
// Running a query on one store, with ids mapped back to the dataset's indexes
// ---------------------------------------------------------------------------

const filtersFor = (choice: FilterChoice, ids: DatasetIds): Filters => ({
  platforms: choice.platforms,
  countries: choice.countries,
  monitors: choice.monitors?.map((index) => ids.monitors[index]!),
  tags: choice.tags?.map((index) => ids.tags[index]!)
})

const ask = (params: Params, ids: DatasetIds) =>
  Effect.gen(function*() {
    const analytics = yield* Analytics
    const range = { start: formatDate(BASE + params.start * DAY_MS), end: formatDate(BASE + (params.start + params.days - 1) * DAY_MS) }
    const filters = filtersFor(params.filters, ids)
    const sourceIndex = new Map(ids.sources.map((id, index) => [id, index]))
    const urlIndex = new Map(ids.urls.map((id, index) => [id, index]))
    const url = (ref: { id: number; source_id: number; url: string }) => ({
      id: urlIndex.get(ref.id),
      source_id: sourceIndex.get(ref.source_id),
      url: ref.url
    })
    const query = params.query
    switch (query.kind) {
      case "sources": {
        const window = { offset: (query.page - 1) * query.perPage, limit: query.perPage }
        const page = yield* analytics.sources(ids.project, { range, filters, sortBy: query.sortBy, sortOrder: query.sortOrder, window })
        return { ...page, rows: page.rows.map((row) => ({ ...row, source: { ...row.source, id: sourceIndex.get(row.source.id) } })) }
      }
      case "urls": {
        const window = { offset: (query.page - 1) * query.perPage, limit: query.perPage }
        const page = yield* analytics.sourceUrls(ids.project, { range, filters, sortBy: query.sortBy, sortOrder: query.sortOrder, window })
        return { ...page, rows: page.rows.map((row) => ({ ...row, source_url: url(row.source_url) })) }
      }
      case "series": {
        const series: SeriesQuery = { range, filters, interval: query.interval, topN: query.topN }
        const usage = yield* analytics.sourceUrlUsage(ids.project, series)
        return { ...usage, series: usage.series.map((entry) => ({ ...entry, source_url: url(entry.source_url) })) }
      }
    }
  })

describe(`analytics: SQL (${sqlBackend}) against the in-memory reference`, () => {
  const runtime = ManagedRuntime.make(
    AnalyticsSql.layerSql.pipe(Layer.provideMerge(migratedSql), Layer.provide(Logger.minimumLogLevel(LogLevel.None)))
  )
  let organization: number
  beforeAll(async () => {
    organization = await runtime.runPromise(writeSqlOrganization())
  }, 60_000)
  afterAll(() => runtime.dispose())

  it("gives identical results on random datasets and queries", async () => {
    let compared = 0
    let runs = 0
    let nonEmpty = 0
    await fc.assert(
      fc.asyncProperty(runArb, async ([dataset, changes, paramsList]) => {
        const db = new MemoryTables()
        const memoryIds = writeMemory(db, writeMemoryOrganization(db), dataset)
        const memory = AnalyticsMemory.layerMemory.pipe(Layer.provide(Layer.succeed(MemoryStore, db)))
        const sqlIds = await runtime.runPromise(writeSql(organization, dataset))
        for (const change of changes) {
          changeMemory(db, memoryIds, change)
          await runtime.runPromise(changeSql(sqlIds, change))
        }
        // Every rollup still equals the raw data it sums, whatever the queries below happen to read.
        expect(await runtime.runPromise(rollupMismatches(sqlIds.project)), JSON.stringify(changes)).toEqual({})
        runs += 1
        for (const params of paramsList) {
          const expected = await Effect.runPromise(Effect.provide(ask(params, memoryIds), memory))
          // The session's time zone must not matter: everything is UTC whatever the server's setting.
          const zone = runs % 2 === 0 ? "Pacific/Kiritimati" : "America/St_Johns"
          const actual = await runtime.runPromise(
            Effect.flatMap(SqlClient.SqlClient, (sql) =>
              sql.withTransaction(Effect.zipRight(sql.unsafe(`SET LOCAL TIME ZONE '${zone}'`), ask(params, sqlIds))))
          )
          expect(actual, JSON.stringify(params)).toEqual(expected)
          compared += 1
          if ("total" in expected ? expected.total > 0 : expected.series.length > 0) nonEmpty += 1
        }
      }),
      // Shrinking a failure here takes minutes (each step writes a dataset): report the first one as found.
      { numRuns: RUNS, endOnFailure: true }
    )
    // The generators must exercise real data, not mostly empty windows.
    expect(compared).toBe(RUNS * QUERIES_PER_RUN)
    expect(nonEmpty).toBeGreaterThan(compared / 3)
  }, 120_000)
})
