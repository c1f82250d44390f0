import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Clock, Effect, Schema } from "effect"
import { Count, decodeRows, orDefect } from "../Database/Rows.ts"
import { Classification } from "../Domain/Brand.ts"
import { Id } from "../Domain/Common.ts"
import {
  type BrandCounts,
  type BrandListQuery,
  type BrandRef,
  type BrandSelection,
  type BrandSeriesQuery,
  bucketsOf,
  bucketStart,
  type Filters,
  formatDate,
  periodsOf,
  type PromptListQuery,
  type PromptSortBy
} from "./Analytics.ts"
import { brandRowOf, compareBrandRows, compareSeriesBrands, pointOf, promptRowOf } from "./BrandMeasures.ts"
import * as HigherOrder from "./HigherOrder.ts"
import type { HigherOrderPrompt } from "./HigherOrder.ts"
import { type Read, readsOf } from "./Reads.ts"
import * as SqlFilters from "./SqlFilters.ts"
import { isPending } from "../../migrations/rollups.ts"

/**
 * Brand analytics on PostgreSQL (or PGlite): the counts of BrandMeasures.ts read from the brand
 * rollups of migration 0007, one statement per request.
 *
 * Which rollups: the whole project's without a filter; per group with platform, country or monitor
 * filters only; per tag (and group) with tags, less the rows of their pairs and corrected from the raw
 * rows of prompts carrying three or more of them, as for sources (AnalyticsSql.ts). Responses come
 * from the response rollups of 0003 and 0005 of the same cut. The per-prompt list reads the per-prompt
 * (and group) rollups, by prompt or by group, the prompts of the tags being a condition; their whole
 * months from the monthly rows (Reads.ts).
 *
 * A brand list is at most the project's 1,000 brands: their counts are read whole, and the formulas,
 * the order and the page are applied here, as the reference does. A prompt list is sorted and paged in
 * SQL on exact integers (the own brand's visibility in hundredths), so that only its page leaves the
 * database; a series reads the points of its top brands only.
 */


/** Which rollups answer these filters (see the module comment). */
type Cut =
  | { readonly kind: "all" }
  | { readonly kind: "group" }
  | { readonly kind: "tag"; readonly tags: ReadonlyArray<number>; readonly grouped: boolean }
  | { readonly kind: "prompt"; readonly grouped: boolean }

const hasGroupFilter = ({ countries, monitors, platforms }: Filters) =>
  platforms !== undefined || countries !== undefined || monitors !== undefined

/** The per-prompt list reads per prompt; the others per tag with tags, per group with the other filters. */
const cutOf = (filters: Filters, perPrompt: boolean): Cut => {
  const grouped = hasGroupFilter(filters)
  if (perPrompt) return { kind: "prompt", grouped }
  if (filters.tags !== undefined) return { kind: "tag", tags: filters.tags, grouped }
  return grouped ? { kind: "group" } : { kind: "all" }
}

type Infix = "" | "group_" | "tag_" | "tag_group_" | "tag_pair_" | "tag_pair_group_" | "prompt_" | "prompt_group_"

/**
 * What a cut reads, with the sign its counts are summed with: a rollup, by the infix of its tables'
 * names (`brand_${infix}daily`, and its responses' `response_${infix}daily`) and the conditions on its
 * rows besides the days; or raw rows (the correction of three tags or more, `higherOrderOf`), the same
 * columns from a query of both periods.
 */
type Part =
  | { readonly kind: "rollup"; readonly infix: Infix; readonly conditions: ReadonlyArray<Fragment>; readonly sign: 1 | -1 }
  | { readonly kind: "raw"; readonly rows: (counts: "response" | "brand") => Fragment; readonly sign: 1 }

/** Only the prompt cuts have monthly rows. */
const hasMonthly = (part: Part): part is Part & { readonly infix: "prompt_" | "prompt_group_" } =>
  part.kind === "rollup" && (part.infix === "prompt_" || part.infix === "prompt_group_")

/**
 * What a month of a prompt cut's monthly rows costs to read, in days of its daily rows (`readsOf`): the
 * rows a month holds against those of a day on the bench dataset (docs/performance-history.md), where a prompt
 * is asked every day on every platform, so that most keys of a day recur all month. They choose between
 * reads of equal results, so they only ever change speed.
 */
const MONTH_COST_DAYS = {
  response: { prompt_: 1, prompt_group_: 1 },
  brand: { prompt_: 1, prompt_group_: 4 }
} as const

const BrandTotalsRow = Schema.Struct({
  id: Id,
  name: Schema.String,
  classification: Classification,
  is_own: Schema.Boolean,
  responses_w: Schema.Int,
  responses_p: Schema.Int,
  total_w: Schema.Int,
  total_p: Schema.Int,
  mentioned_w: Schema.Int,
  position_w: Schema.Int,
  sentiment_w: Schema.Int,
  mentioned_p: Schema.Int,
  position_p: Schema.Int,
  sentiment_p: Schema.Int,
  first_seen_on: Schema.NullOr(Schema.String),
  last_seen_on: Schema.NullOr(Schema.String)
})

const SeriesRow = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("responses"), bucket: Schema.String, n: Schema.Int }),
  Schema.Struct({ kind: Schema.Literal("mentions"), bucket: Schema.String, n: Schema.Int }),
  Schema.Struct({
    kind: Schema.Literal("top"),
    id: Id,
    name: Schema.String,
    classification: Classification,
    is_own: Schema.Boolean,
    n: Schema.Int
  }),
  Schema.Struct({
    kind: Schema.Literal("point"),
    id: Id,
    bucket: Schema.String,
    n: Schema.Int,
    position_sum: Schema.Int,
    sentiment_sum: Schema.Int
  })
)

/**
 * A row of a prompt page: the number of rows of the whole list (on every row), the prompt's counts, and
 * the counted brand other than the own one most mentioned on it (`top_*`, all null when there is none).
 */
const PromptPageRow = Schema.extend(
  Schema.Struct({
    total: Count.fields.total,
    id: Id,
    text: Schema.String,
    monitor_id: Id,
    responses: Schema.Int,
    brands_mentioned: Schema.Int,
    own_mentioned: Schema.NullOr(Schema.Int),
    own_position: Schema.Int
  }),
  Schema.Union(
    Schema.Struct({
      top_id: Id,
      top_name: Schema.String,
      top_classification: Classification,
      top_is_own: Schema.Boolean,
      top_mentioned: Schema.Int
    }),
    Schema.Struct({ top_id: Schema.Null })
  )
)

/** The row of an empty prompt page: the number of rows of the whole list alone, its other columns null. */
const EmptyPromptPageRow = Schema.Struct({ total: Count.fields.total, id: Schema.Null })

/** A page's rows, or the one row of an empty page (made once: Rows.ts keeps a decoder per schema). */
const PromptPageRows = Schema.Union(PromptPageRow, EmptyPromptPageRow)

export const makeBrandAnalyticsSql = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  /** The current UTC day: `readsOf` knows the days after it are empty. */
  const today = Effect.map(Clock.currentTimeMillis, (now) => bucketStart("day", now))

  const dateOf = (ms: number) => SqlFilters.dateOf(sql, ms)

  /** The ids of the project's groups (monitor, platform, country) that pass the filters, as an array. */
  const groupsOf = (projectId: number, filters: Filters) => sql`ARRAY(${SqlFilters.groupsPassing(sql, projectId, filters)})`

  /** The project's prompts, or those carrying any of the tags now: a query of their ids. */
  const promptsOf = (projectId: number, tags: ReadonlyArray<number> | undefined) =>
    tags === undefined
      ? sql`SELECT p.id FROM prompts p WHERE p.project_id = ${projectId}`
      : sql`SELECT pt.prompt_id FROM prompt_tags pt JOIN prompts p ON p.id = pt.prompt_id
          WHERE p.project_id = ${projectId} AND pt.tag_id IN ${sql.in(tags)}`

  /** The prompts whose responses a tag cut adds from their raw rows (HigherOrder.ts). */
  const higherOrderPrompts = (projectId: number, cut: Cut) =>
    HigherOrder.higherOrderPrompts(sql, projectId, cut.kind === "tag" ? cut.tags : undefined)

  /** Responses `r` in [from, to) passing the filters but tags: SqlFilters.ts. */
  const inRange = (projectId: number, filters: Filters, from: number, to: number) =>
    SqlFilters.answersInRange(sql, projectId, filters, from, to)

  /**
   * A part read from raw rows: the responses `r` of `from` (a FROM clause giving `r` and `o.w`, its
   * weight) that pass `where`, as responses (`day`, `prompt_id`, `responses`) or their mentions (`day`,
   * `prompt_id`, `brand_id`, `mentioned`, `position_sum`, `sentiment_sum`), the columns of the rollups.
   */
  const rawPart = (from: Fragment, where: Fragment): Part => {
    const day = sql`(r.collected_at AT TIME ZONE 'UTC')::date`
    return {
      kind: "raw",
      sign: 1,
      rows: (counts) =>
        counts === "response"
          ? sql`(SELECT ${day} AS day, r.prompt_id, o.w AS responses ${from} WHERE ${where})`
          : sql`(SELECT ${day} AS day, r.prompt_id, m.brand_id, o.w AS mentioned, o.w * m.position AS position_sum,
              o.w * m.sentiment_score AS sentiment_sum
              ${from} JOIN brand_mentions m ON m.response_id = r.id WHERE ${where})`
    }
  }

  /**
   * The raw rows of those prompts' analyzed responses collected in [from, to) that pass the other filters,
   * weighted by their `w`: those counted in the rollups only (a pending one is counted once, by `pendingOf`).
   */
  const higherOrderOf = (projectId: number, filters: Filters, prompts: ReadonlyArray<HigherOrderPrompt>, from: number, to: number): Part =>
    rawPart(
      sql`
        FROM responses r
        JOIN (VALUES ${sql.join(", ", false)(prompts.map((prompt) => sql`(${prompt.prompt_id}::bigint, ${prompt.w}::integer)`))})
          AS o (prompt_id, w) ON o.prompt_id = r.prompt_id`,
      sql.and([
        sql`r.prompt_id IN ${sql.in(prompts.map((prompt) => prompt.prompt_id))}`,
        inRange(projectId, filters, from, to),
        sql`NOT ${sql.literal(isPending("r"))}`
      ])
    )

  /**
   * The project's pending responses of [from, to) (stored, not merged into the rollups yet) passing every
   * filter, the tags included (the prompt carries any of them now), each counted once: their raw rows, in
   * the same statement as the rollups, so that one snapshot counts every response once (migration 0008).
   */
  const pendingOf = (projectId: number, filters: Filters, from: number, to: number): Part =>
    rawPart(
      sql`FROM analytics_pending q JOIN responses r ON r.id = q.response_id CROSS JOIN (SELECT 1 AS w) o`,
      sql.and([
        sql`q.project_id = ${projectId}`,
        inRange(projectId, filters, from, to),
        ...(filters.tags === undefined ? [] : [sql`r.prompt_id IN (SELECT pt.prompt_id FROM prompt_tags pt WHERE pt.tag_id IN ${sql.in(filters.tags)})`])
      ])
    )

  /**
   * The rollups of a cut, with their conditions, and the pending responses of [from, to) (`pendingOf`).
   * Several tags are an inclusion–exclusion: the tags' rows count a response once per given tag its
   * prompt carries, so the rows of each pair of them are subtracted, and prompts carrying three or more
   * are corrected from their raw rows (`higherOrderOf`). The per-prompt rows lead with the prompt, so
   * they are read prompt by prompt (an array of all the project's prompts without a tag filter: each a
   * range of the key); the per-prompt and group rows lead with the group and the day, so they are read
   * group by group, their prompts kept by a hash of the tagged ones when tags are given.
   */
  const partsOf = (
    projectId: number,
    cut: Cut,
    filters: Filters,
    range: { readonly higherOrder: ReadonlyArray<HigherOrderPrompt>; readonly from: number; readonly to: number }
  ): Array<Part> => [...rollupPartsOf(projectId, cut, filters, range), pendingOf(projectId, filters, range.from, range.to)]

  const rollupPartsOf = (
    projectId: number,
    cut: Cut,
    filters: Filters,
    range: { readonly higherOrder: ReadonlyArray<HigherOrderPrompt>; readonly from: number; readonly to: number }
  ): Array<Part> => {
    const project = sql`t.project_id = ${projectId}`
    const groups = sql`t.group_id = ANY (${groupsOf(projectId, filters)})`
    const rollup = (infix: Infix, conditions: ReadonlyArray<Fragment>, sign: 1 | -1 = 1): Part => ({ kind: "rollup", infix, conditions, sign })
    switch (cut.kind) {
      case "all":
        return [rollup("", [project])]
      case "group":
        return [rollup("group_", [project, groups])]
      case "tag": {
        const inGroups = cut.grouped ? [groups] : []
        const tags = sql.in(cut.tags)
        return [
          rollup(cut.grouped ? "tag_group_" : "tag_", [project, sql`t.tag_id IN ${tags}`, ...inGroups]),
          ...(cut.tags.length < 2 ? [] : [
            rollup(cut.grouped ? "tag_pair_group_" : "tag_pair_", [project, sql`t.tag_id IN ${tags}`, sql`t.other_tag_id IN ${tags}`, ...inGroups], -1)
          ]),
          ...(range.higherOrder.length === 0 ? [] : [higherOrderOf(projectId, filters, range.higherOrder, range.from, range.to)])
        ]
      }
      case "prompt":
        return cut.grouped
          ? [rollup("prompt_group_", [project, groups, ...(filters.tags === undefined ? [] : [sql`t.prompt_id IN (${promptsOf(projectId, filters.tags)})`])])]
          : [rollup("prompt_", [project, sql`t.prompt_id = ANY (ARRAY(${promptsOf(projectId, filters.tags)}))`])]
    }
  }

  /**
   * The reads of P = [from, windowStart) and W = [windowStart, windowEnd) (P empty when from =
   * windowStart): by day and month for the prompt cuts (Reads.ts), by day for the others.
   */
  const readsFor = (counts: "response" | "brand", part: Part, from: number, windowStart: number, windowEnd: number, now: number): ReadonlyArray<Read> =>
    hasMonthly(part)
      ? readsOf(from, windowStart, windowEnd, now, MONTH_COST_DAYS[counts][part.infix])
      : [
        ...(from < windowStart ? [{ grain: "daily" as const, from, to: windowStart, w: 0 as const, p: 1 as const }] : []),
        { grain: "daily" as const, from: windowStart, to: windowEnd, w: 1 as const, p: 0 as const }
      ]

  /** A column of `t` times -1, 0 or 1, as a read counts it for a period. */
  const times = (column: string, factor: number) => sql.literal(factor === 0 ? "0" : factor > 0 ? `t.${column}` : `-t.${column}`)

  /** Row sources stacked into one: `UNION ALL`, never an empty list (W has a day at least). */
  const unionAll = sql.join(" UNION ALL ", false)

  /**
   * Every read of a cut's rollups of responses or brands over some periods, stacked: `columns` chooses
   * what each row gives, with the factors (-1, 0 or 1) its counts take for W and for P.
   */
  const readCut = (
    counts: "response" | "brand",
    parts: ReadonlyArray<Part>,
    readsOfPart: (part: Part) => ReadonlyArray<Read>,
    columns: (factor: { readonly w: number; readonly p: number }) => Fragment
  ) =>
    unionAll(parts.flatMap((part) =>
      readsOfPart(part).map((read) => {
        const source = part.kind === "rollup" ? sql.literal(`${counts}_${part.infix}${read.grain}`) : part.rows(counts)
        const conditions = part.kind === "rollup" ? part.conditions : []
        return sql`SELECT ${columns({ w: read.w * part.sign, p: read.p * part.sign })} FROM ${source} t
          WHERE ${sql.and([...conditions, sql`t.day >= ${dateOf(read.from)}`, sql`t.day < ${dateOf(read.to)}`])}`
      })
    ))

  /** Whether a brand `b` is shown: in `brands`, and in one of `segments`, when given. */
  const selected = (selection: BrandSelection) =>
    sql.and([
      ...(selection.brands === undefined ? [] : [sql`b.id IN ${sql.in(selection.brands)}`]),
      ...(selection.segments === undefined
        ? []
        : [sql`EXISTS (SELECT 1 FROM brand_segments bs WHERE bs.brand_id = b.id AND bs.segment_id IN ${sql.in(selection.segments)})`])
    ])

  /** The condition on the brands `b` of the project that are counted (not `ignored`, now). */
  const isCounted = (projectId: number) => sql`b.project_id = ${projectId} AND b.classification <> 'ignored'`

  /** The counted brands `b` of the project, with `pr` their project (for `is_own`). */
  const countedBrands = (projectId: number) =>
    sql`brands b JOIN projects pr ON pr.id = b.project_id WHERE ${isCounted(projectId)}`

  /** The first and last days of the project's pending responses mentioning each brand (`least` and `greatest` skip nulls). */
  const pendingLifetime = (projectId: number) =>
    sql`SELECT m.brand_id, min((r.collected_at AT TIME ZONE 'UTC')::date) AS first_seen_on,
        max((r.collected_at AT TIME ZONE 'UTC')::date) AS last_seen_on
      FROM analytics_pending q JOIN responses r ON r.id = q.response_id AND r.status = 'analyzed' AND r.answer_state = 'answered'
      JOIN brand_mentions m ON m.response_id = r.id
      WHERE q.project_id = ${projectId}
      GROUP BY m.brand_id`

  // ---------------------------------------------------------------------------
  // GET /analytics/brands
  // ---------------------------------------------------------------------------

  const brands = (projectId: number, query: BrandListQuery) =>
    Effect.gen(function*() {
      const now = yield* today
      const { previousStart, windowEnd, windowStart } = periodsOf(query.range)
      const cut = cutOf(query.filters, false)
      const parts = partsOf(projectId, cut, query.filters, { higherOrder: yield* higherOrderPrompts(projectId, cut), from: previousStart, to: windowEnd })
      const responses = readCut(
        "response",
        parts,
        (part) => readsFor("response", part, previousStart, windowStart, windowEnd, now),
        (f) => sql`${times("responses", f.w)} AS w, ${times("responses", f.p)} AS p`
      )
      const mentions = readCut(
        "brand",
        parts,
        (part) => readsFor("brand", part, previousStart, windowStart, windowEnd, now),
        (f) =>
          sql`t.brand_id, ${times("mentioned", f.w)} AS mentioned_w, ${times("position_sum", f.w)} AS position_w,
            ${times("sentiment_sum", f.w)} AS sentiment_w, ${times("mentioned", f.p)} AS mentioned_p,
            ${times("position_sum", f.p)} AS position_p, ${times("sentiment_sum", f.p)} AS sentiment_p`
      )
      // Each part computed once (MATERIALIZED): inlined, a one-row aggregate joined to every brand can be
      // planned as a nested loop that computes it again per brand, a plan a planner without statistics
      // chooses (300 brands × the whole aggregate; docs/performance-history.md, "Planner statistics").
      const rows = yield* decodeRows(
        BrandTotalsRow,
        sql`
        WITH answered AS MATERIALIZED (
          SELECT coalesce(sum(t.w), 0) AS responses_w, coalesce(sum(t.p), 0) AS responses_p FROM (${responses}) t
        ),
        mentions AS MATERIALIZED (
          SELECT t.brand_id, sum(t.mentioned_w) AS mentioned_w, sum(t.position_w) AS position_w, sum(t.sentiment_w) AS sentiment_w,
            sum(t.mentioned_p) AS mentioned_p, sum(t.position_p) AS position_p, sum(t.sentiment_p) AS sentiment_p
          FROM (${mentions}) t
          WHERE t.brand_id IN (SELECT b.id FROM ${countedBrands(projectId)})
          GROUP BY t.brand_id
        ),
        totals AS MATERIALIZED (
          SELECT coalesce(sum(mentioned_w), 0) AS total_w, coalesce(sum(mentioned_p), 0) AS total_p FROM mentions
        ),
        pending AS MATERIALIZED (${pendingLifetime(projectId)})
        SELECT b.id, b.name, b.classification, coalesce(b.id = pr.brand_id, false) AS is_own,
          a.responses_w, a.responses_p, totals.total_w, totals.total_p,
          coalesce(m.mentioned_w, 0) AS mentioned_w, coalesce(m.position_w, 0) AS position_w, coalesce(m.sentiment_w, 0) AS sentiment_w,
          coalesce(m.mentioned_p, 0) AS mentioned_p, coalesce(m.position_p, 0) AS position_p, coalesce(m.sentiment_p, 0) AS sentiment_p,
          to_char(least(
            (SELECT min(d.day) FROM brand_daily d WHERE d.project_id = ${projectId} AND d.brand_id = b.id AND d.mentioned > 0),
            pending.first_seen_on), 'YYYY-MM-DD') AS first_seen_on,
          to_char(greatest(
            (SELECT max(d.day) FROM brand_daily d WHERE d.project_id = ${projectId} AND d.brand_id = b.id AND d.mentioned > 0),
            pending.last_seen_on), 'YYYY-MM-DD') AS last_seen_on
        FROM brands b JOIN projects pr ON pr.id = b.project_id
        CROSS JOIN answered a CROSS JOIN totals LEFT JOIN mentions m ON m.brand_id = b.id
        LEFT JOIN pending ON pending.brand_id = b.id
        WHERE ${isCounted(projectId)} AND ${selected(query.selection)}`
      ).pipe(orDefect)
      const list = rows.map((row) =>
        brandRowOf({
          brand: { id: row.id, name: row.name, classification: row.classification, is_own: row.is_own },
          w: {
            responses: row.responses_w,
            totalMentions: row.total_w,
            mentioned: row.mentioned_w,
            positionSum: row.position_w,
            sentimentSum: row.sentiment_w
          },
          p: {
            responses: row.responses_p,
            totalMentions: row.total_p,
            mentioned: row.mentioned_p,
            positionSum: row.position_p,
            sentimentSum: row.sentiment_p
          },
          firstSeenOn: row.first_seen_on,
          lastSeenOn: row.last_seen_on
        })
      ).sort(compareBrandRows(query.sortBy, query.sortOrder))
      return { rows: list.slice(query.window.offset, query.window.offset + query.window.limit), total: list.length }
    })

  // ---------------------------------------------------------------------------
  // GET /analytics/brands/time-series
  // ---------------------------------------------------------------------------

  const brandSeries = (projectId: number, query: BrandSeriesQuery) =>
    Effect.gen(function*() {
      const { windowEnd, windowStart } = periodsOf(query.range)
      const cut = cutOf(query.filters, false)
      const parts = partsOf(projectId, cut, query.filters, { higherOrder: yield* higherOrderPrompts(projectId, cut), from: windowStart, to: windowEnd })
      // Points need days: the daily rows of W alone.
      const days = (): ReadonlyArray<Read> => [{ grain: "daily", from: windowStart, to: windowEnd, w: 1, p: 0 }]
      const bucket = sql`to_char(date_trunc(${query.interval}, t.day::timestamp), 'YYYY-MM-DD')`
      const responses = readCut("response", parts, days, (f) => sql`${bucket} AS bucket, ${times("responses", f.w)} AS responses`)
      const mentions = readCut(
        "brand",
        parts,
        days,
        (f) =>
          sql`${bucket} AS bucket, t.brand_id, ${times("mentioned", f.w)} AS mentioned, ${times("position_sum", f.w)} AS position_sum,
            ${times("sentiment_sum", f.w)} AS sentiment_sum`
      )
      const rows = yield* decodeRows(
        SeriesRow,
        sql`
        WITH counted AS (SELECT b.id FROM ${countedBrands(projectId)}),
        points AS (
          SELECT t.brand_id, t.bucket, sum(t.mentioned) AS n, sum(t.position_sum) AS position_sum, sum(t.sentiment_sum) AS sentiment_sum
          FROM (${mentions}) t WHERE t.brand_id IN (SELECT id FROM counted)
          GROUP BY t.brand_id, t.bucket
        ),
        mentioned AS (SELECT brand_id, sum(n) AS n FROM points GROUP BY brand_id),
        top AS (
          SELECT b.id, b.name, b.classification, coalesce(b.id = pr.brand_id, false) AS is_own, coalesce(m.n, 0) AS n
          FROM brands b JOIN projects pr ON pr.id = b.project_id LEFT JOIN mentioned m ON m.brand_id = b.id
          WHERE ${isCounted(projectId)} AND ${selected(query.selection)}
          ORDER BY 5 DESC, b.name COLLATE "C", b.id
          LIMIT ${query.topN}
        )
        SELECT 'responses' AS kind, NULL::bigint AS id, NULL AS name, NULL AS classification, NULL::boolean AS is_own,
          t.bucket, sum(t.responses) AS n, NULL::bigint AS position_sum, NULL::bigint AS sentiment_sum
        FROM (${responses}) t GROUP BY t.bucket
        UNION ALL
        SELECT 'mentions', NULL, NULL, NULL, NULL, bucket, sum(n), NULL, NULL FROM points GROUP BY bucket
        UNION ALL
        SELECT 'top', id, name, classification, is_own, NULL, n, NULL, NULL FROM top
        UNION ALL
        SELECT 'point', brand_id, NULL, NULL, NULL, bucket, n, position_sum, sentiment_sum
        FROM points WHERE brand_id IN (SELECT id FROM top)`
      ).pipe(orDefect)

      const starts = bucketsOf(query.interval, query.range)
      const index = new Map(starts.map((start, position) => [formatDate(start), position]))
      const responsesIn = starts.map(() => 0)
      const mentionsIn = starts.map(() => 0)
      const top: Array<{ brand: BrandRef; mentioned: number }> = []
      const points = new Map<number, Array<{ n: number; position_sum: number; sentiment_sum: number }>>()
      for (const row of rows) {
        if (row.kind === "responses") responsesIn[index.get(row.bucket)!] = row.n
        else if (row.kind === "mentions") mentionsIn[index.get(row.bucket)!] = row.n
        else if (row.kind === "top") {
          top.push({ brand: { id: row.id, name: row.name, classification: row.classification, is_own: row.is_own }, mentioned: row.n })
        } else {
          const list = points.get(row.id) ?? starts.map(() => ({ n: 0, position_sum: 0, sentiment_sum: 0 }))
          list[index.get(row.bucket)!] = row
          points.set(row.id, list)
        }
      }
      // The statement's order of `top` is lost in the union: the same ranking, applied again.
      top.sort(compareSeriesBrands)
      return {
        interval: query.interval,
        metric: query.metric,
        series: top.map(({ brand }) => ({
          brand,
          data: starts.map((start, position) => {
            const point = points.get(brand.id)?.[position]
            const counts: BrandCounts = {
              responses: responsesIn[position]!,
              totalMentions: mentionsIn[position]!,
              mentioned: point?.n ?? 0,
              positionSum: point?.position_sum ?? 0,
              sentimentSum: point?.sentiment_sum ?? 0
            }
            return pointOf(query.metric, new Date(start), counts)
          })
        }))
      }
    })

  // ---------------------------------------------------------------------------
  // GET /analytics/prompts
  // ---------------------------------------------------------------------------

  /** What a prompt list orders by, over the columns of `rows` (r); nulls last in either direction, ties by prompt id. */
  const promptOrder = (sortBy: PromptSortBy, direction: "ASC" | "DESC") => {
    const key = {
      // The own brand's visibility in hundredths, round(10000 × m / n) half up, exactly (n > 0).
      own_visibility: "(20000 * r.own_mentioned + r.responses) / (2 * r.responses)",
      responses_count: "r.responses",
      brands_mentioned: "r.brands_mentioned",
      text: `r.text COLLATE "C"`
    }[sortBy]
    return sql.literal(`(${key}) IS NULL, ${key} ${direction}, r.id ASC`)
  }

  const prompts = (projectId: number, query: PromptListQuery) =>
    Effect.gen(function*() {
      const now = yield* today
      const { windowEnd, windowStart } = periodsOf(query.range)
      const parts = partsOf(projectId, cutOf(query.filters, true), query.filters, { higherOrder: [], from: windowStart, to: windowEnd })
      const responses = readCut(
        "response",
        parts,
        (part) => readsFor("response", part, windowStart, windowStart, windowEnd, now),
        (f) => sql`t.prompt_id, ${times("responses", f.w)} AS n`
      )
      const mentions = readCut(
        "brand",
        parts,
        (part) => readsFor("brand", part, windowStart, windowStart, windowEnd, now),
        (f) => sql`t.prompt_id, t.brand_id, ${times("mentioned", f.w)} AS m, ${times("position_sum", f.w)} AS position_sum`
      )
      const order = promptOrder(query.sortBy, query.sortOrder === "asc" ? "ASC" : "DESC")
      const rows = yield* decodeRows(
        PromptPageRows,
        sql`
        WITH counted AS (SELECT b.id, b.name, b.classification, coalesce(b.id = pr.brand_id, false) AS is_own FROM ${countedBrands(projectId)}),
        own AS (SELECT id FROM counted WHERE is_own),
        answered AS MATERIALIZED (
          SELECT t.prompt_id, sum(t.n) AS n FROM (${responses}) t GROUP BY t.prompt_id HAVING sum(t.n) > 0
        ),
        mentioned AS MATERIALIZED (
          SELECT t.prompt_id, t.brand_id, sum(t.m) AS m, sum(t.position_sum) AS position_sum
          FROM (${mentions}) t WHERE t.brand_id IN (SELECT id FROM counted)
          GROUP BY t.prompt_id, t.brand_id HAVING sum(t.m) > 0
        ),
        per_prompt AS (
          SELECT x.prompt_id, count(*) AS brands_mentioned,
            sum(x.m) FILTER (WHERE x.brand_id IN (SELECT id FROM own)) AS own_mentioned,
            sum(x.position_sum) FILTER (WHERE x.brand_id IN (SELECT id FROM own)) AS own_position
          FROM mentioned x GROUP BY x.prompt_id
        ),
        rows AS (
          SELECT a.prompt_id AS id, p.text, p.monitor_id, a.n AS responses, coalesce(pp.brands_mentioned, 0) AS brands_mentioned,
            CASE WHEN EXISTS (SELECT 1 FROM own) THEN coalesce(pp.own_mentioned, 0) END AS own_mentioned,
            coalesce(pp.own_position, 0) AS own_position
          FROM answered a JOIN prompts p ON p.id = a.prompt_id
          LEFT JOIN per_prompt pp ON pp.prompt_id = a.prompt_id
        ),
        page AS (
          SELECT r.* FROM rows r ORDER BY ${order} LIMIT ${query.window.limit} OFFSET ${query.window.offset}
        ),
        -- The counted brand other than the own one most mentioned per prompt of the page (ties by name, then id).
        top AS (
          SELECT DISTINCT ON (x.prompt_id) x.prompt_id, c.id, c.name, c.classification, c.is_own, x.m
          FROM mentioned x JOIN counted c ON c.id = x.brand_id
          WHERE x.prompt_id IN (SELECT id FROM page) AND NOT c.is_own
          ORDER BY x.prompt_id, x.m DESC, c.name COLLATE "C", c.id
        )
        SELECT (SELECT count(*) FROM rows) AS total, r.*,
          top.id AS top_id, top.name AS top_name, top.classification AS top_classification, top.is_own AS top_is_own,
          top.m AS top_mentioned
        FROM (SELECT 1) AS one
        LEFT JOIN page r ON true
        LEFT JOIN top ON top.prompt_id = r.id
        ORDER BY ${order}`
      ).pipe(orDefect)
      return {
        rows: rows.filter((row) => row.id !== null).map((row) =>
          promptRowOf({
            prompt: { id: row.id, text: row.text, monitor_id: row.monitor_id },
            responses: row.responses,
            own: row.own_mentioned === null ? null : { mentioned: row.own_mentioned, positionSum: row.own_position },
            top: row.top_id === null
              ? null
              : {
                brand: { id: row.top_id, name: row.top_name, classification: row.top_classification, is_own: row.top_is_own },
                mentioned: row.top_mentioned
              },
            brandsMentioned: row.brands_mentioned
          })
        ),
        total: rows[0]?.total ?? 0
      }
    })

  return { brands, brandSeries, prompts }
})
