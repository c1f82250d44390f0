import { SqlClient } from "@effect/sql"
import { Effect, FastCheck as fc, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  Analytics,
  type BrandMetric,
  brandMetrics,
  type BrandRef,
  type BrandSortBy,
  brandSortKeys,
  DAY_MS,
  type Filters,
  formatDate,
  type Interval,
  intervals,
  type PromptSortBy,
  promptSortKeys,
  type SeriesQuery,
  sourceSortKeys,
  type SourceSortBy,
  type SortOrder,
  urlSortKeys,
  type UrlSortBy
} from "../../../src/Analytics/Analytics.ts"
import type { Classification } from "../../../src/Domain/Brand.ts"
import * as AnalyticsMemory from "../../../src/Analytics/AnalyticsMemory.ts"
import * as AnalyticsSql from "../../../src/Analytics/AnalyticsSql.ts"
import type { Platform } from "../../../src/Domain/Platform.ts"
import type { AnswerState, ResponseStatus } from "../../../src/Domain/Response.ts"
import { MemoryStore, MemoryTables } from "../../../src/Memory/Store.ts"
import {
  type DatasetIds,
  type DatasetSpec,
  type MentionSpec,
  writeMemory,
  writeMemoryOrganization,
  writeSql,
  writeSqlOrganization
} from "../../support/AnalyticsData.ts"
import { migratedSql } from "../../support/Databases.ts"
import { mergePending, rollupMismatches } from "../../support/Rollups.ts"
import { sqlBackend } from "../../support/TestServer.ts"

/**
 * The SQL implementation against the in-memory reference, on random datasets and random queries of
 * all six endpoints (sources, source URLs, their series; brands, their series, prompts). Every dataset becomes a fresh project of one shared database (so the earlier
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
// Repeated names and names that differ only by case or accent: ties by name, then id, in code point order.
const brandNamePool = ["Acme", "acme", "Ácme", "Beta", "Beta", "Zeta", "Ωmega"]
const classificationArb = fc.constantFrom<Classification>("competitor", "competitor", "competitor", "other", "ignored")

/** A response's mentions: distinct brands, positions 1..k in some order, scores 0-100 (often tied). */
const mentionsArb = (brands: number): fc.Arbitrary<ReadonlyArray<MentionSpec>> =>
  brands === 0
    ? fc.constant([])
    : fc.uniqueArray(fc.integer({ min: 0, max: brands - 1 }), { maxLength: brands }).chain((chosen) =>
      fc.tuple(
        fc.shuffledSubarray(chosen.map((_, i) => i + 1), { minLength: chosen.length, maxLength: chosen.length }),
        fc.array(fc.oneof(fc.constantFrom(0, 50, 100), fc.integer({ min: 0, max: 100 })), { minLength: chosen.length, maxLength: chosen.length })
      ).map(([positions, scores]) => chosen.map((brand, i) => ({ brand, position: positions[i]!, sentiment: scores[i]! })))
    )

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

/** Mostly answers; refusals, empty answers and pages without an AI answer are stored but never counted. */
const answerStateArb: fc.Arbitrary<AnswerState> = fc.constantFrom<AnswerState>(
  "answered",
  "answered",
  "answered",
  "answered",
  "answered",
  "refused",
  "no_answer",
  "empty"
)

const datasetArb: fc.Arbitrary<DatasetSpec> = fc
  .record({
    monitors: fc.array(fc.record({ country: fc.constantFrom(...countryPool) }), { minLength: 1, maxLength: 3 }),
    // Up to four, so that prompts carry up to four of the tags of a filter (see `higherOrderOf`).
    tags: fc.integer({ min: 0, max: 4 }),
    sources: fc.uniqueArray(fc.constantFrom(...domainPool), { minLength: 1, maxLength: 5 }),
    segments: fc.integer({ min: 0, max: 3 }),
    brandCount: fc.integer({ min: 0, max: 5 })
  })
  .chain(({ brandCount, monitors, segments, sources, tags }) =>
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
        ),
        brands: fc.array(
          fc.record({
            name: fc.constantFrom(...brandNamePool),
            classification: classificationArb,
            segments: segments === 0 ? fc.constant([]) : fc.uniqueArray(fc.integer({ min: 0, max: segments - 1 }), { maxLength: segments })
          }),
          { minLength: brandCount, maxLength: brandCount }
        ),
        ownBrand: brandCount === 0 ? fc.constant(undefined) : fc.option(fc.integer({ min: 0, max: brandCount - 1 }), { nil: undefined, freq: 4 })
      })
      .chain(({ brands, ownBrand, prompts, urls }) =>
        fc
          .integer({ min: 10, max: 100 })
          .chain((count) =>
            fc.array(
              fc.record({
              prompt: fc.integer({ min: 0, max: prompts.length - 1 }),
              platform: fc.constantFrom(...platformPool),
              country: fc.option(fc.constantFrom(...countryPool), { nil: undefined, freq: 3 }),
              status: statusArb,
              answer_state: answerStateArb,
              collected_at: instantArb,
              // Repeats allowed: a URL cited twice in one response counts twice as citations, once as use.
              citations: fc.array(fc.integer({ min: 0, max: urls.length - 1 }), { maxLength: 5 }),
              mentions: mentionsArb(brands.length)
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
            responses,
            segments,
            brands,
            ownBrand
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

/** `brands[]` and `segments[]` as indexes into the dataset. */
interface SelectionChoice {
  readonly brands?: ReadonlyArray<number> | undefined
  readonly segments?: ReadonlyArray<number> | undefined
}

type QueryChoice =
  | { readonly kind: "sources"; readonly sortBy: SourceSortBy; readonly sortOrder: SortOrder; readonly page: number; readonly perPage: number }
  | { readonly kind: "urls"; readonly sortBy: UrlSortBy; readonly sortOrder: SortOrder; readonly page: number; readonly perPage: number }
  | { readonly kind: "series"; readonly interval: Interval; readonly topN: number }
  | {
    readonly kind: "brands"
    readonly sortBy: BrandSortBy
    readonly sortOrder: SortOrder
    readonly page: number
    readonly perPage: number
    readonly selection: SelectionChoice
  }
  | {
    readonly kind: "brandSeries"
    readonly interval: Interval
    readonly metric: BrandMetric
    readonly topN: number
    readonly selection: SelectionChoice
  }
  | { readonly kind: "prompts"; readonly sortBy: PromptSortBy; readonly sortOrder: SortOrder; readonly page: number; readonly perPage: number }

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
      }),
      fc.record({
        kind: fc.constant("brands" as const),
        sortBy: fc.constantFrom(...brandSortKeys),
        sortOrder: fc.constantFrom<SortOrder>("asc", "desc"),
        page: fc.integer({ min: 1, max: 3 }),
        perPage: fc.integer({ min: 1, max: 6 }),
        selection: selectionArb(dataset)
      }),
      fc.record({
        kind: fc.constant("brandSeries" as const),
        interval: fc.constantFrom(...intervals),
        metric: fc.constantFrom(...brandMetrics),
        topN: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant(50)),
        selection: selectionArb(dataset)
      }),
      fc.record({
        kind: fc.constant("prompts" as const),
        sortBy: fc.constantFrom(...promptSortKeys),
        sortOrder: fc.constantFrom<SortOrder>("asc", "desc"),
        page: fc.integer({ min: 1, max: 3 }),
        perPage: fc.integer({ min: 1, max: 4 })
      })
    )
  })
}

/** Brands and segments of the dataset, each given one time in three. */
const selectionArb = (dataset: DatasetSpec): fc.Arbitrary<SelectionChoice> => {
  const some = (count: number) =>
    count === 0
      ? fc.constant(undefined)
      : fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 2 },
        { arbitrary: fc.uniqueArray(fc.integer({ min: 0, max: count - 1 }), { minLength: 1, maxLength: count }), weight: 1 }
      )
  return fc.record({ brands: some(dataset.brands?.length ?? 0), segments: some(dataset.segments ?? 0) })
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
  /** A response's answer state changed in plain SQL (the service never does): it leaves or joins the counted ones. */
  | { readonly kind: "setAnswerState"; readonly response: number; readonly answerState: AnswerState }
  | { readonly kind: "classify"; readonly brand: number; readonly classification: Classification }
  | { readonly kind: "deleteBrand"; readonly brand: number }
  | { readonly kind: "setOwnBrand"; readonly brand: number | null }
  /** Mentions detected again in a response: the new set replaces the old (kept ones updated), as `cli reanalyze` does. */
  | { readonly kind: "redetect"; readonly response: number; readonly mentions: ReadonlyArray<MentionSpec> }
  /**
   * The merger run (SQL only): up to `limit` pending responses folded into the rollups. Written answers
   * are pending until then; the answers must be the same either way.
   */
  | { readonly kind: "merge"; readonly limit: number }

const changesArb = (dataset: DatasetSpec): fc.Arbitrary<ReadonlyArray<Change>> => {
  const prompt = fc.integer({ min: 0, max: dataset.prompts.length - 1 })
  const tag = fc.integer({ min: 0, max: Math.max(0, dataset.tags - 1) })
  const response = fc.integer({ min: 0, max: dataset.responses.length - 1 })
  const brands = dataset.brands?.length ?? 0
  const brand = fc.integer({ min: 0, max: Math.max(0, brands - 1) })
  const change: fc.Arbitrary<Change> = fc.oneof(
    ...(dataset.tags === 0 ? [] : [
      fc.record({ kind: fc.constantFrom("attach" as const, "detach" as const), prompt, tag }),
      fc.record({ kind: fc.constant("deleteTag" as const), tag })
    ]),
    fc.record({ kind: fc.constant("deletePrompt" as const), prompt }),
    fc.record({ kind: fc.constant("deleteMonitor" as const), monitor: fc.integer({ min: 0, max: dataset.monitors.length - 1 }) }),
    fc.record({ kind: fc.constant("deleteResponse" as const), response }),
    fc.record({ kind: fc.constant("setStatus" as const), response, status: statusArb }),
    fc.record({ kind: fc.constant("setAnswerState" as const), response, answerState: answerStateArb }),
    ...(brands === 0 ? [] : [
      fc.record({ kind: fc.constant("classify" as const), brand, classification: classificationArb }),
      fc.record({ kind: fc.constant("deleteBrand" as const), brand }),
      fc.record({ kind: fc.constant("setOwnBrand" as const), brand: fc.option(brand, { nil: null }) }),
      fc.record({ kind: fc.constant("redetect" as const), response, mentions: mentionsArb(brands) }),
      fc.record({ kind: fc.constant("redetect" as const), response, mentions: mentionsArb(brands) })
    ])
  )
  // Some runs keep their data as written, every answer pending, every one merged, or the first few merged
  // and the rest pending; the others change it a few times, merging some or all answers before, between
  // or after the changes.
  const merge = fc.record({ kind: fc.constant("merge" as const), limit: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(1000)) })
  return fc.oneof(
    { arbitrary: fc.constant([]), weight: 1 },
    { arbitrary: fc.constant([{ kind: "merge" as const, limit: 1000 }]), weight: 1 },
    { arbitrary: fc.integer({ min: 1, max: 5 }).map((limit) => [{ kind: "merge" as const, limit }]), weight: 1 },
    { arbitrary: fc.array(fc.oneof({ arbitrary: change, weight: 3 }, { arbitrary: merge, weight: 1 }), { minLength: 1, maxLength: 5 }), weight: 2 }
  )
}

const changeMemory = (db: MemoryTables, ids: DatasetIds, change: Change) => {
  switch (change.kind) {
    case "merge":
      return
    case "attach": {
      const [promptId, tagId] = [ids.prompts[change.prompt]!, ids.tags[change.tag]!]
      if (db.table("prompts").has(promptId) && db.table("tags").has(tagId)) db.table("prompt_tags").add(`${promptId}:${tagId}`)
      return
    }
    case "detach":
      db.table("prompt_tags").delete(`${ids.prompts[change.prompt]!}:${ids.tags[change.tag]!}`)
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
      const row = db.table("responses").get(ids.responses[change.response]!)
      if (row !== undefined) db.table("responses").set(row.id, { ...row, status: change.status })
      return
    }
    case "setAnswerState": {
      const row = db.table("responses").get(ids.responses[change.response]!)
      if (row !== undefined) db.table("responses").set(row.id, { ...row, answer_state: change.answerState })
      return
    }
    case "classify": {
      const row = db.table("brands").get(ids.brands[change.brand]!)
      if (row !== undefined) db.table("brands").set(row.id, { ...row, classification: change.classification })
      return
    }
    case "deleteBrand":
      return db.deleteBrand(ids.brands[change.brand]!)
    case "setOwnBrand": {
      const brandId = change.brand === null ? null : ids.brands[change.brand]!
      if (brandId === null || db.table("brands").has(brandId)) db.table("projects").set(ids.project, { ...db.table("projects").get(ids.project)!, brand_id: brandId })
      return
    }
    case "redetect": {
      const responseId = ids.responses[change.response]!
      if (!db.table("responses").has(responseId)) return
      const detected = new Map(
        change.mentions.filter((m) => db.table("brands").has(ids.brands[m.brand]!)).map((m) => [ids.brands[m.brand]!, m])
      )
      for (const mention of [...db.table("brand_mentions").values()]) {
        if (mention.response_id !== responseId) continue
        const kept = detected.get(mention.brand_id)
        if (kept === undefined) db.table("brand_mentions").delete(mention.id)
        else db.table("brand_mentions").set(mention.id, { ...mention, position: kept.position, sentiment_score: kept.sentiment })
        detected.delete(mention.brand_id)
      }
      for (const [brandId, mention] of detected) {
        const id = db.nextId("brand_mentions")
        const now = db.now()
        db.table("brand_mentions").set(id, {
          id,
          project_id: ids.project,
          response_id: responseId,
          brand_id: brandId,
          position: mention.position,
          sentiment_score: mention.sentiment,
          created_at: now,
          updated_at: now
        })
      }
      return
    }
  }
}

const changeSql = (ids: DatasetIds, change: Change) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    switch (change.kind) {
      case "merge":
        return mergePending(ids.project, change.limit)
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
      case "setAnswerState":
        return sql`UPDATE responses SET answer_state = ${change.answerState} WHERE id = ${ids.responses[change.response]!}`
      case "classify":
        return sql`UPDATE brands SET classification = ${change.classification} WHERE id = ${ids.brands[change.brand]!}`
      case "deleteBrand":
        return sql`DELETE FROM brands WHERE id = ${ids.brands[change.brand]!}`
      case "setOwnBrand":
        return change.brand === null
          ? sql`UPDATE projects SET brand_id = NULL WHERE id = ${ids.project}`
          : sql`UPDATE projects SET brand_id = ${ids.brands[change.brand]!}
            WHERE id = ${ids.project} AND EXISTS (SELECT 1 FROM brands WHERE id = ${ids.brands[change.brand]!})`
      case "redetect": {
        // The statements of ResponsesRepo.replaceMentions: what is no longer detected goes, the rest is upserted.
        const responseId = ids.responses[change.response]!
        const brandIds = change.mentions.map((m) => ids.brands[m.brand]!)
        return Effect.zipRight(
          sql`DELETE FROM brand_mentions m WHERE m.response_id = ${responseId}
            AND NOT (m.brand_id = ANY (${brandIds}::bigint[]))`.pipe(Effect.asVoid),
          change.mentions.length === 0 ? Effect.void : sql`
            INSERT INTO brand_mentions (project_id, response_id, brand_id, position, sentiment_score)
            SELECT ${ids.project}, ${responseId}, x.brand_id, x.position, x.sentiment_score
            FROM unnest(${brandIds}::bigint[], ${change.mentions.map((m) => m.position)}::int[], ${change.mentions.map((m) => m.sentiment)}::int[])
              AS x (brand_id, position, sentiment_score)
            WHERE EXISTS (SELECT 1 FROM responses WHERE id = ${responseId}) AND EXISTS (SELECT 1 FROM brands WHERE id = x.brand_id)
            ON CONFLICT (response_id, brand_id) DO UPDATE
              SET position = EXCLUDED.position, sentiment_score = EXCLUDED.sentiment_score, updated_at = now()
              WHERE (brand_mentions.position, brand_mentions.sentiment_score)
                IS DISTINCT FROM (EXCLUDED.position, EXCLUDED.sentiment_score)`.pipe(Effect.asVoid)
        )
      }
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
    const brandIndex = new Map(ids.brands.map((id, index) => [id, index]))
    const brand = (ref: BrandRef) => ({ ...ref, id: brandIndex.get(ref.id) })
    const selection = (choice: SelectionChoice) => ({
      brands: choice.brands?.map((index) => ids.brands[index]!),
      segments: choice.segments?.map((index) => ids.segments[index]!)
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
      case "brands": {
        const window = { offset: (query.page - 1) * query.perPage, limit: query.perPage }
        const page = yield* analytics.brands(ids.project, {
          range,
          filters,
          selection: selection(query.selection),
          sortBy: query.sortBy,
          sortOrder: query.sortOrder,
          window
        })
        return { ...page, rows: page.rows.map((row) => ({ ...row, brand: brand(row.brand) })) }
      }
      case "brandSeries": {
        const series = yield* analytics.brandSeries(ids.project, {
          range,
          filters,
          selection: selection(query.selection),
          interval: query.interval,
          metric: query.metric,
          topN: query.topN
        })
        return { ...series, series: series.series.map((entry) => ({ ...entry, brand: brand(entry.brand) })) }
      }
      case "prompts": {
        const window = { offset: (query.page - 1) * query.perPage, limit: query.perPage }
        const page = yield* analytics.prompts(ids.project, { range, filters, sortBy: query.sortBy, sortOrder: query.sortOrder, window })
        const promptIndex = new Map(ids.prompts.map((id, index) => [id, index]))
        const monitorIndex = new Map(ids.monitors.map((id, index) => [id, index]))
        return {
          ...page,
          rows: page.rows.map((row) => ({
            ...row,
            prompt: { ...row.prompt, id: promptIndex.get(row.prompt.id), monitor_id: monitorIndex.get(row.prompt.monitor_id) },
            top_competitor: row.top_competitor === null ? null : { ...row.top_competitor, brand: brand(row.top_competitor.brand) }
          }))
        }
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

  it("an answer still pending that stops being an answer counts nowhere, its first and last seen dates included", async () => {
    const day = (n: number) => new Date(BASE + n * DAY_MS + DAY_MS / 2)
    const dataset: DatasetSpec = {
      monitors: [{ country: "US" }],
      tags: 0,
      prompts: [{ monitor: 0, tags: [] }],
      sources: ["a.com"],
      urls: [{ source: 0, url: "https://a.com/1" }],
      brands: [{ name: "Acme" }],
      responses: [3, 10].map((n) => ({
        prompt: 0,
        platform: "chatgpt" as const,
        status: "analyzed" as const,
        answer_state: "answered" as const,
        collected_at: day(n),
        citations: [0],
        mentions: [{ brand: 0, position: 1, sentiment: 50 }]
      }))
    }
    const db = new MemoryTables()
    const memoryIds = writeMemory(db, writeMemoryOrganization(db), dataset)
    const memory = AnalyticsMemory.layerMemory.pipe(Layer.provide(Layer.succeed(MemoryStore, db)))
    const sqlIds = await runtime.runPromise(writeSql(organization, dataset))
    // Both answers are pending (never merged); the later one becomes a refusal.
    const change: Change = { kind: "setAnswerState", response: 1, answerState: "refused" }
    changeMemory(db, memoryIds, change)
    await runtime.runPromise(changeSql(sqlIds, change))
    for (const query of [
      { kind: "brands" as const, sortBy: "name" as const, sortOrder: "asc" as const, page: 1, perPage: 5, selection: {} },
      { kind: "sources" as const, sortBy: "used_count" as const, sortOrder: "desc" as const, page: 1, perPage: 5 }
    ]) {
      const params: Params = { start: 0, days: 20, filters: {}, query }
      const expected = await Effect.runPromise(Effect.provide(ask(params, memoryIds), memory))
      const actual = await runtime.runPromise(ask(params, sqlIds))
      expect(actual).toEqual(expected)
      expect(JSON.stringify(actual)).toContain(formatDate(day(3).getTime()))
      expect(JSON.stringify(actual)).not.toContain(formatDate(day(10).getTime()))
    }
  }, 60_000)

  it("gives identical results on random datasets and queries", async () => {
    let compared = 0
    let runs = 0
    let nonEmpty = 0
    // Runs whose answers were read while some were pending, some merged, and both at once.
    let withPending = 0
    let withMerged = 0
    let mixed = 0
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
        const [state] = await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql<{ pending: number; merged: number }>`
            SELECT (SELECT count(*)::int FROM analytics_pending WHERE project_id = ${sqlIds.project}) AS pending,
              (SELECT coalesce(sum(responses), 0)::int FROM response_daily WHERE project_id = ${sqlIds.project}) AS merged`))
        if (state!.pending > 0) withPending += 1
        if (state!.merged > 0) withMerged += 1
        if (state!.pending > 0 && state!.merged > 0) mixed += 1
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
    expect(withPending).toBeGreaterThan(RUNS / 4)
    expect(withMerged).toBeGreaterThan(RUNS / 4)
    expect(mixed).toBeGreaterThan(0)
  }, 120_000)
})
