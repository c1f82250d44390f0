import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Clock, Effect, Layer, Schema } from "effect"
import {
  Analytics,
  bucketStart,
  bucketsOf,
  type Filters,
  formatDate,
  hundredfold,
  type ListQuery,
  type MeasureKey,
  type Measures,
  periodsOf,
  type References,
  type SeriesQuery
} from "./Analytics.ts"
import { type Cut as RollupCut, isPending } from "../../migrations/rollups.ts"
import { Count, decodeRows, orDefect } from "../Database/Rows.ts"
import { Id } from "../Domain/Common.ts"
import { makeBrandAnalyticsSql } from "./BrandAnalyticsSql.ts"
import * as HigherOrder from "./HigherOrder.ts"
import type { HigherOrderPrompt } from "./HigherOrder.ts"
import { type Read, readsOf } from "./Reads.ts"
import * as SqlFilters from "./SqlFilters.ts"

/**
 * Analytics on PostgreSQL (or PGlite), set-based: one statement per request. Nothing is queried per
 * row, and only a page of rows leaves the database.
 *
 * The counts come from the daily and monthly rollups of migrations 0003 and 0005 (kept exact by
 * triggers), in the cut the filters need: the whole project, per group (platforms / countries /
 * monitors), per tag, or per tag and group. Several tags subtract the rollups of their pairs, and add
 * back raw rows only for prompts carrying three or more of them.
 * Lifetime dates (no filter, no window) come from the whole-project daily rollup.
 *
 * Answers not merged into the rollups yet (pending, migration 0008) are added from their raw rows, in
 * the same statement: one snapshot sees every answer either in the rollups or pending, never both, so
 * every answer is exact whether or not the merger has run (`rawOf`).
 *
 * Everything is exact integer arithmetic: counts, then `hundredfold` (round(100 × part / whole), half
 * up on these non-negative integers) in SQL, the sort on those rounded integers with ties by name in
 * code point order (`COLLATE "C"`, as `compareText`), then id. The differential test holds every path
 * to the in-memory reference, which computes the same from the formulas.
 */

/** A row of a list page, counted and rounded by the database. */
const PageRow = Schema.Struct({
  /** The number of rows of the whole list (on every row; alone, with nulls, on an empty page). */
  total: Count.fields.total,
  id: Id,
  name: Schema.String,
  /** The URL's source; null for sources. */
  source_id: Schema.NullOr(Id),
  used_w: Schema.Int,
  used_p: Schema.Int,
  percentage_w: Schema.Int,
  percentage_p: Schema.Int,
  hundredths_w: Schema.Int,
  hundredths_p: Schema.Int,
  first_seen_on: Schema.NullOr(Schema.String),
  last_seen_on: Schema.NullOr(Schema.String)
})
type PageRow = typeof PageRow.Type

/** The row of an empty page: the number of rows of the whole list alone, its other columns null. */
const EmptyPageRow = Schema.Struct({ total: Count.fields.total, id: Schema.Null })

/** A page's rows, or the one row of an empty page (made once: Rows.ts keeps a decoder per schema). */
const PageRows = Schema.Union(PageRow, EmptyPageRow)

const SeriesRow = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("total"), id: Schema.Null, source_id: Schema.Null, url: Schema.Null, bucket: Schema.String, n: Schema.Int }),
  Schema.Struct({ kind: Schema.Literal("top"), id: Id, source_id: Id, url: Schema.String, bucket: Schema.Null, n: Schema.Int }),
  Schema.Struct({ kind: Schema.Literal("hit"), id: Id, source_id: Schema.Null, url: Schema.Null, bucket: Schema.String, n: Schema.Int })
)


/** Which rollup cut answers these filters (see the module comment). */
type Cut =
  | { readonly kind: "all" }
  | { readonly kind: "group"; readonly filters: Filters }
  | { readonly kind: "tag"; readonly tags: ReadonlyArray<number>; readonly filters: Filters }

const hasGroupFilter = ({ countries, monitors, platforms }: Filters) =>
  platforms !== undefined || countries !== undefined || monitors !== undefined

const cutOf = (filters: Filters): Cut =>
  filters.tags !== undefined
    ? { kind: "tag", tags: filters.tags, filters }
    : hasGroupFilter(filters)
    ? { kind: "group", filters }
    : { kind: "all" }

/** An id among those a query names that is a row of the project, with the table it names a row of. */
const KnownReference = Schema.Struct({ kind: Schema.Literal("monitors", "tags", "brands", "segments"), id: Id })

/** The infix of a rollup table's name: its cut, as the migrations name the tables (migrations/rollups.ts). */
type Infix = "" | `${Exclude<RollupCut, "all">}_`

/**
 * What a month of a rollup's monthly rows costs to read, in days of its daily rows (`readsOf`): the
 * more keys a cut has, the fewer of its rows a month merges. Measured on the bench dataset
 * (docs/performance-history.md, "Analytics: from joins of the raw rows to rollups"); they choose
 * between reads of equal results, so they only ever change speed.
 */
const MONTH_COST_DAYS: Record<"source" | "url", Record<Infix, number>> = {
  source: { "": 2, group_: 6, tag_: 3, tag_group_: 8, tag_pair_: 4, tag_pair_group_: 11 },
  url: { "": 5, group_: 16, tag_: 9, tag_group_: 18, tag_pair_: 12, tag_pair_group_: 20 }
}

/**
 * How many analytics requests of the process query the database at once: one on the embedded database
 * (one session, whose statements run on the event loop), and on PostgreSQL two fewer than the pool's 10
 * connections (src/Database/Database.ts), so that light requests always find one. The others wait their
 * turn before their first statement.
 */
export const ANALYTICS_AT_ONCE = { embedded: 1, server: 8 } as const

export const layerSql = Layer.effect(
  Analytics,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /** The current UTC day: `readsOf` knows the days after it are empty. */
    const today = Effect.map(Clock.currentTimeMillis, (now) => bucketStart("day", now))

    /** Responses `r` in [from, to) passing the filters but tags (see `higherOrderOf` for those): SqlFilters.ts. */
    const inRange = (projectId: number, filters: Filters, from: number, to: number): Fragment =>
      SqlFilters.answersInRange(sql, projectId, filters, from, to)

    /** How a row is keyed and named: by source (domain) or by exact URL. */
    const dimensions = {
      source: {
        key: sql.literal("c.source_id"),
        rollupKey: sql.literal("source_id"),
        rollup: "source",
        names: sql.literal("(SELECT id, domain AS name, NULL::bigint AS source_id FROM sources)")
      },
      url: {
        key: sql.literal("c.source_url_id"),
        rollupKey: sql.literal("source_url_id"),
        rollup: "url",
        names: sql.literal("(SELECT id, url AS name, source_id FROM source_urls)")
      }
    } as const
    type Dimension = (typeof dimensions)[keyof typeof dimensions]

    const dateOf = (ms: number) => SqlFilters.dateOf(sql, ms)

    /** The ids of the project's groups (monitor, platform, country) that pass the filters. */
    const groupsOf = (projectId: number, filters: Filters) => SqlFilters.groupsPassing(sql, projectId, filters)

    /**
     * The rollups of a cut, by the infix of their tables' names (`url_${infix}daily`), each with the
     * conditions of the cut on its rows besides the project's, and the sign its counts are summed with.
     * Several tags are an inclusion–exclusion: the tags' rows count a response once per tag its prompt
     * carries, so the rows of each pair of them are subtracted (see `higherOrderOf` for prompts carrying
     * three or more).
     */
    const rollupsOf = (
      projectId: number,
      cut: Cut
    ): Array<{ readonly infix: Infix; readonly conditions: ReadonlyArray<Fragment>; readonly sign: 1 | -1 }> => {
      switch (cut.kind) {
        case "all":
          return [{ infix: "", conditions: [], sign: 1 }]
        case "group":
          return [{ infix: "group_", conditions: [sql`t.group_id IN (${groupsOf(projectId, cut.filters)})`], sign: 1 }]
        case "tag": {
          const grouped = hasGroupFilter(cut.filters)
          const inGroups = grouped ? [sql`t.group_id IN (${groupsOf(projectId, cut.filters)})`] : []
          const tags = sql.in(cut.tags)
          return [
            { infix: grouped ? "tag_group_" : "tag_", conditions: [sql`t.tag_id IN ${tags}`, ...inGroups], sign: 1 },
            ...(cut.tags.length < 2 ? [] : [{
              infix: grouped ? "tag_pair_group_" as const : "tag_pair_" as const,
              conditions: [sql`t.tag_id IN ${tags}`, sql`t.other_tag_id IN ${tags}`, ...inGroups],
              sign: -1 as const
            }])
          ]
        }
      }
    }

    /** The rows `t` of a rollup of the days of [from, to), passing its cut's conditions. */
    const ofDays = (rollup: { readonly conditions: ReadonlyArray<Fragment> }, from: number, to: number) => [
      ...rollup.conditions,
      sql`t.day >= ${dateOf(from)}`,
      sql`t.day < ${dateOf(to)}`
    ]

    /** `ofDays` among the project's rows: every read of a rollup but the series' read by URL (`rollupSeries`). */
    const whereOf = (projectId: number, rollup: { readonly conditions: ReadonlyArray<Fragment> }, from: number, to: number) =>
      sql.and([sql`t.project_id = ${projectId}`, ...ofDays(rollup, from, to)])

    /** A rollup table: `prefix` response, source or url. */
    const tableOf = (prefix: "response" | "source" | "url", infix: Infix, grain: "daily" | "monthly") =>
      sql.literal(`${prefix}_${infix}${grain}`)

    /** A count column (of `t`) times -1, 0 or 1: as summed, negated for a subtracted rollup. */
    const times = (column: string, factor: number) => sql.literal(factor === 0 ? "0" : factor > 0 ? `t.${column}` : `-t.${column}`)

    /** The prompts whose responses a tag cut adds from their raw rows (HigherOrder.ts). */
    const higherOrderPrompts = (projectId: number, cut: Cut) =>
      HigherOrder.higherOrderPrompts(sql, projectId, cut.kind === "tag" ? cut.tags : undefined)

    /**
     * The responses of [from, to) of those prompts passing the other filters, with their weight `w`:
     * those counted in the rollups only (a pending one is counted once, by `pendingOf`).
     */
    const higherOrderOf = (projectId: number, filters: Filters, prompts: ReadonlyArray<HigherOrderPrompt>, from: number, to: number) =>
      sql`
        SELECT r.id, (r.collected_at AT TIME ZONE 'UTC')::date AS day, o.w
        FROM responses r
        JOIN (VALUES ${sql.join(", ", false)(prompts.map((prompt) => sql`(${prompt.prompt_id}::bigint, ${prompt.w}::integer)`))})
          AS o (prompt_id, w) ON o.prompt_id = r.prompt_id
        WHERE r.prompt_id IN ${sql.in(prompts.map((prompt) => prompt.prompt_id))} AND ${inRange(projectId, filters, from, to)}
          AND NOT ${sql.literal(isPending("r"))}`

    /**
     * The project's pending responses of [from, to) (stored, not merged into the rollups yet) passing
     * every filter, the tags included (the prompt carries any of them now), each counted once (`w` 1).
     */
    const pendingOf = (projectId: number, filters: Filters, from: number, to: number) =>
      sql`
        SELECT r.id, (r.collected_at AT TIME ZONE 'UTC')::date AS day, 1 AS w
        FROM analytics_pending q JOIN responses r ON r.id = q.response_id
        WHERE q.project_id = ${projectId} AND ${inRange(projectId, filters, from, to)}${
        filters.tags === undefined
          ? sql``
          : sql` AND r.prompt_id IN (SELECT pt.prompt_id FROM prompt_tags pt WHERE pt.tag_id IN ${sql.in(filters.tags)})`
      }`

    /**
     * The responses of [from, to) counted from their raw rows, with their weight `w`: the pending ones,
     * and the higher orders of several tags (`higherOrderOf`) when there are some.
     */
    const rawOf = (projectId: number, filters: Filters, prompts: ReadonlyArray<HigherOrderPrompt>, from: number, to: number) =>
      prompts.length === 0
        ? pendingOf(projectId, filters, from, to)
        : sql`${higherOrderOf(projectId, filters, prompts, from, to)} UNION ALL ${pendingOf(projectId, filters, from, to)}`

    /**
     * The response totals of [from, to) as (day, responses) rows: the cut's rollups, and the raw rows of
     * `rawOf`. Integers like the rollups' columns, so that sums stay bigint (a numeric sum would make the
     * rounding divide exactly).
     */
    const responseRows = (projectId: number, cut: Cut, from: number, to: number, raw: Fragment) => [
      ...rollupsOf(projectId, cut).map((rollup) =>
        sql`SELECT t.day, ${times("responses", rollup.sign)} AS responses FROM ${tableOf("response", rollup.infix, "daily")} t
          WHERE ${whereOf(projectId, rollup, from, to)}`
      ),
      sql`SELECT o.day, o.w::integer AS responses FROM (${raw}) o`
    ]

    /**
     * The rows of a cut's rollups of sources or URLs for some reads (src/Analytics/Reads.ts), as (id, day,
     * used_w, cited_w, used_p, cited_p): one branch per rollup and read, so that each is a range of the
     * primary key (an OR of ranges would scan the cut's whole history).
     */
    const rowsOf = (
      dimension: Dimension,
      projectId: number,
      cut: Cut,
      readsOf: (monthCostDays: number) => ReadonlyArray<Read>,
      ids?: Fragment
    ) =>
      rollupsOf(projectId, cut).flatMap((rollup) =>
        readsOf(MONTH_COST_DAYS[dimension.rollup][rollup.infix]).map((read) => {
          const [w, p] = [read.w * rollup.sign, read.p * rollup.sign]
          return sql`SELECT t.${dimension.rollupKey} AS id, t.day, ${times("used", w)} AS used_w, ${times("cited", w)} AS cited_w,
              ${times("used", p)} AS used_p, ${times("cited", p)} AS cited_p
            FROM ${tableOf(dimension.rollup, rollup.infix, read.grain)} t
            WHERE ${whereOf(projectId, rollup, read.from, read.to)}${ids === undefined ? sql`` : sql` AND t.${dimension.rollupKey} IN (${ids})`}`
        })
      )

    /** The raw rows of `rawOf` for sources or URLs (those of `ids`, when given), in the shape of `rowsOf`. */
    const rawRows = (raw: Fragment, dimension: Dimension, windowStart: number, ids?: Fragment) => {
      const inW = sql`o.day >= ${dateOf(windowStart)}`
      return sql`
        SELECT ${dimension.key} AS id, o.day,
          (CASE WHEN ${inW} THEN o.w ELSE 0 END)::integer AS used_w,
          (CASE WHEN ${inW} THEN o.w * count(*) ELSE 0 END)::integer AS cited_w,
          (CASE WHEN ${inW} THEN 0 ELSE o.w END)::integer AS used_p,
          (CASE WHEN ${inW} THEN 0 ELSE o.w * count(*) END)::integer AS cited_p
        FROM (${raw}) o JOIN citations c ON c.response_id = o.id${ids === undefined ? sql`` : sql` WHERE ${dimension.key} IN (${ids})`}
        GROUP BY ${dimension.key}, o.id, o.day, o.w`
    }

    /** Row sources stacked into one: `UNION ALL`, never an empty list (W has a day at least). */
    const unionAll = sql.join(" UNION ALL ", false)

    /** What a list of sources or URLs reads: its query, its cut, and the prompts it adds from raw rows. */
    interface ListReads {
      readonly projectId: number
      readonly query: ListQuery<string>
      readonly dimension: Dimension
      readonly cut: Cut
      readonly today: number
      readonly prompts: ReadonlyArray<HigherOrderPrompt>
    }

    /**
     * The CTEs `totals (total_w, total_p)` and `counts (id, used_w, cited_w, used_p, cited_p)` of every
     * row cited in W, from the cut's rollups: daily response totals, and the reads of `readsOf` for the
     * sources or URLs. With `windowOnly`, `counts` reads W alone (its P columns are 0): enough to rank
     * by W's measures, and P is then read for the page's rows only (`previousCounts`).
     */
    const rollupCounts = ({ cut, dimension, projectId, prompts, query, today }: ListReads, windowOnly: boolean) => {
      const { previousStart, windowEnd, windowStart } = periodsOf(query.range)
      const raw = rawOf(projectId, query.filters, prompts, previousStart, windowEnd)
      const inW = sql`t.day >= ${dateOf(windowStart)}`
      const from = windowOnly ? windowStart : previousStart
      const branches = [
        ...rowsOf(dimension, projectId, cut, (monthCostDays) => readsOf(from, windowStart, windowEnd, today, monthCostDays)),
        rawRows(windowOnly ? rawOf(projectId, query.filters, prompts, windowStart, windowEnd) : raw, dimension, windowStart)
      ]
      return sql`
        totals AS (
          SELECT coalesce(sum(t.responses) FILTER (WHERE ${inW}), 0) AS total_w,
            coalesce(sum(t.responses) FILTER (WHERE NOT ${inW}), 0) AS total_p
          FROM (${unionAll(responseRows(projectId, cut, previousStart, windowEnd, raw))}) t
        ),
        counts AS (
          SELECT t.id, sum(t.used_w) AS used_w, sum(t.cited_w) AS cited_w, sum(t.used_p) AS used_p, sum(t.cited_p) AS cited_p
          FROM (${unionAll(branches)}) t
          GROUP BY t.id
          HAVING sum(t.used_w) > 0
        )`
    }

    /**
     * The CTE `previous (id, used_p, cited_p)`: P's counts of the rows of `ids` (a subquery), from the
     * reads of `readsOf` that count P and the raw rows of P. A row with none has no row here (0).
     */
    const previousCounts = ({ cut, dimension, projectId, prompts, query, today }: ListReads, ids: Fragment) => {
      const { previousStart, windowEnd, windowStart } = periodsOf(query.range)
      const reads = (monthCostDays: number) =>
        readsOf(previousStart, windowStart, windowEnd, today, monthCostDays).filter((read) => read.p !== 0)
      const branches = [
        ...rowsOf(dimension, projectId, cut, reads, ids),
        rawRows(rawOf(projectId, query.filters, prompts, previousStart, windowStart), dimension, windowStart, ids)
      ]
      return sql`
        previous AS (
          SELECT t.id, sum(t.used_p) AS used_p, sum(t.cited_p) AS cited_p FROM (${unionAll(branches)}) t GROUP BY t.id
        )`
    }

    /** `round(100 × part / whole)`, 0 when whole is 0: `hundredfold`, exact on non-negative integers. */
    const hundredfoldSql = (part: string, whole: string) =>
      sql.literal(`CASE WHEN ${whole} = 0 THEN 0 ELSE (200 * ${part} + ${whole}) / (2 * ${whole}) END`)

    /** What each measure orders by, over the columns of `measured` (m) and the lifetime dates (l). */
    const sortColumns: Record<MeasureKey, string> = {
      used_count: "m.used_w",
      used_count_change: "m.used_w - m.used_p",
      used_percentage: "m.percentage_w",
      used_percentage_change: "m.percentage_w - m.percentage_p",
      average_citations: "m.hundredths_w",
      average_citations_change: "m.hundredths_w - m.hundredths_p",
      first_seen_on: "l.first_seen_on",
      last_seen_on: "l.last_seen_on"
    }

    /**
     * The lifetime dates of some rows (`ids`: a subquery of the project's rows): no filter, no window, so
     * the daily rollup and the days of the pending responses citing them. `few` ids (a page's) are read
     * row by row through the rollup's index on (row, day), which has no project column and needs none:
     * a source's or URL's rows are its project's (a URL page's dates: 3.6 ms with the project checked
     * on every row, 0.7 without); many (a list sorted by the dates) through the project's range.
     */
    const lifetimeOf = (projectId: number, dimension: Dimension, ids: string, few: boolean) =>
      sql`SELECT x.id, min(x.day) AS first_seen_on, max(x.day) AS last_seen_on FROM (
          SELECT d.${dimension.rollupKey} AS id, d.day
          FROM ${sql.literal(`${dimension.rollup}_daily`)} d
          WHERE ${few ? sql`` : sql`d.project_id = ${projectId} AND `}d.used > 0 AND d.${dimension.rollupKey} IN (${sql.literal(ids)})
          UNION ALL
          SELECT ${dimension.key}, (r.collected_at AT TIME ZONE 'UTC')::date
          FROM analytics_pending q JOIN responses r ON r.id = q.response_id AND r.status = 'analyzed' AND r.answer_state = 'answered'
          JOIN citations c ON c.response_id = r.id
          WHERE q.project_id = ${projectId} AND ${dimension.key} IN (${sql.literal(ids)})
        ) x
        GROUP BY x.id`

    /**
     * One page of the rows cited in W, sorted (ties: name ascending by code point, then id), and the
     * number of rows, in one statement: only the page leaves the database. Lifetime dates are read for
     * every row when the order needs them, else for the page's rows only.
     */
    const list = <SortBy extends string, Row>(
      projectId: number,
      query: ListQuery<SortBy>,
      dimension: Dimension,
      nameKey: SortBy,
      view: (row: PageRow, measures: Measures) => Row
    ) =>
      Effect.gen(function*() {
        const cut = cutOf(query.filters)
        const reads: ListReads = { projectId, query, dimension, cut, today: yield* today, prompts: yield* higherOrderPrompts(projectId, cut) }
        const byLifetime = query.sortBy === "first_seen_on" || query.sortBy === "last_seen_on"
        // Ranked by W's measures (or the name), the list needs P for its page only: P's rows are read for
        // those 25 rows instead of for every row (a third to half of the statement on a 90-day URL list).
        const windowOnly = !byLifetime && !query.sortBy.endsWith("_change")
        const ctes = rollupCounts(reads, windowOnly)
        const direction = query.sortOrder === "asc" ? "ASC" : "DESC"
        const primary = query.sortBy === nameKey ? `m.name COLLATE "C"` : sortColumns[query.sortBy as string as MeasureKey]
        const order = sql.literal(`${primary} ${direction}, m.name COLLATE "C" ASC, m.id ASC`)
        // Sorted by a measure, only the rows up to the page's last one and those tied with it need their
        // names (for the ties): `>= ALL` / `<= ALL` of no row (a shorter list) keeps them all.
        const ranked = query.sortBy === nameKey || byLifetime
          ? sql`measured`
          : sql`(SELECT * FROM measured m WHERE ${sql.literal(`${primary} ${direction === "DESC" ? ">=" : "<="}`)} ALL (
              SELECT ${sql.literal(primary)} FROM measured m ORDER BY ${sql.literal(`${primary} ${direction}`)}
              OFFSET ${Math.max(0, query.window.offset + query.window.limit - 1)} LIMIT 1))`
        const rows = yield* decodeRows(
          PageRows,
          sql`
          WITH ${ctes},
          measured AS (
            SELECT counts.*,
              ${hundredfoldSql("counts.used_w", "totals.total_w")} AS percentage_w,
              ${hundredfoldSql("counts.used_p", "totals.total_p")} AS percentage_p,
              ${hundredfoldSql("counts.cited_w", "totals.total_w")} AS hundredths_w,
              ${hundredfoldSql("counts.cited_p", "totals.total_p")} AS hundredths_p
            FROM counts CROSS JOIN totals
          ),
          page AS (
            SELECT m.* FROM (SELECT r.*, n.name, n.source_id FROM ${ranked} r JOIN ${dimension.names} n ON n.id = r.id) m
            ${byLifetime ? sql`LEFT JOIN (${lifetimeOf(projectId, dimension, "SELECT id FROM counts", false)}) l ON l.id = m.id` : sql``}
            ORDER BY ${order}
            LIMIT ${query.window.limit} OFFSET ${query.window.offset}
          )${windowOnly ? sql`,
          ${previousCounts(reads, sql`SELECT id FROM page`)},
          shown AS (
            SELECT page.id, page.name, page.source_id, page.used_w, page.percentage_w, page.hundredths_w,
              coalesce(previous.used_p, 0) AS used_p,
              ${hundredfoldSql("coalesce(previous.used_p, 0)", "totals.total_p")} AS percentage_p,
              ${hundredfoldSql("coalesce(previous.cited_p, 0)", "totals.total_p")} AS hundredths_p
            FROM page LEFT JOIN previous ON previous.id = page.id CROSS JOIN totals
          )` : sql``}
          SELECT (SELECT count(*) FROM counts) AS total, m.id, m.name, m.source_id,
            m.used_w, m.used_p, m.percentage_w, m.percentage_p, m.hundredths_w, m.hundredths_p,
            to_char(l.first_seen_on, 'YYYY-MM-DD') AS first_seen_on, to_char(l.last_seen_on, 'YYYY-MM-DD') AS last_seen_on
          FROM (SELECT 1) AS one
          LEFT JOIN ${windowOnly ? sql`shown` : sql`page`} m ON true
          LEFT JOIN (${lifetimeOf(projectId, dimension, "SELECT id FROM page", true)}) l ON l.id = m.id
          ORDER BY ${order}`
        ).pipe(orDefect)
        return {
          rows: rows.filter((row) => row.id !== null).map((row) =>
            view(row, {
              used_count: row.used_w,
              used_count_change: row.used_w - row.used_p,
              used_percentage: row.percentage_w,
              used_percentage_change: row.percentage_w - row.percentage_p,
              average_citations: row.hundredths_w / 100,
              average_citations_change: (row.hundredths_w - row.hundredths_p) / 100,
              first_seen_on: row.first_seen_on ?? "",
              last_seen_on: row.last_seen_on ?? ""
            })
          ),
          total: rows[0]?.total ?? 0
        }
      })

    /** The series' counts from a rollup: totals per bucket, the top URLs, and their uses per bucket. */
    const rollupSeries = (projectId: number, query: SeriesQuery, cut: Cut, today: number, prompts: ReadonlyArray<HigherOrderPrompt>) => {
      const { windowEnd, windowStart } = periodsOf(query.range)
      const raw = rawOf(projectId, query.filters, prompts, windowStart, windowEnd)
      const bucket = sql`to_char(date_trunc(${query.interval}, t.day::timestamp), 'YYYY-MM-DD')`
      const rawUrlRows = rawRows(raw, dimensions.url, windowStart)
      // The ranking needs W's citations per URL only (no P); the uses per bucket need W's days.
      const ranking = [
        ...rowsOf(dimensions.url, projectId, cut, (monthCostDays) => readsOf(windowStart, windowStart, windowEnd, today, monthCostDays)),
        rawUrlRows
      ]
      // The top URLs' days, read URL by URL through the daily URL rollups' index on (URL, day), which
      // carries the cut's columns and `used` but not the project: a URL's rows are its project's anyway.
      const days = [
        ...rollupsOf(projectId, cut).map((rollup) =>
          sql`SELECT t.source_url_id AS id, t.day, ${times("used", rollup.sign)} AS used_w
            FROM top JOIN ${tableOf("url", rollup.infix, "daily")} t ON t.source_url_id = top.id
            WHERE ${sql.and(ofDays(rollup, windowStart, windowEnd))}`
        ),
        sql`SELECT h.id, h.day, h.used_w FROM (${rawUrlRows}) h WHERE h.id IN (SELECT id FROM top)`
      ]
      return decodeRows(
        SeriesRow,
        sql`
        WITH cited AS (
          SELECT t.id AS source_url_id, sum(t.cited_w) AS n FROM (${unionAll(ranking)}) t
          GROUP BY t.id HAVING sum(t.cited_w) > 0
        ),
        -- Only URLs cited at least as often as the N-th need their names (for the ties).
        contenders AS (
          SELECT * FROM cited
          WHERE n >= coalesce((SELECT n FROM cited ORDER BY n DESC OFFSET ${query.topN - 1} LIMIT 1), 0)
        ),
        top AS (
          SELECT u.id, u.source_id, u.url, row_number() OVER (ORDER BY contenders.n DESC, u.url COLLATE "C", u.id) AS rank
          FROM contenders JOIN source_urls u ON u.id = contenders.source_url_id
          ORDER BY rank
          LIMIT ${query.topN}
        )
        SELECT 'total' AS kind, NULL::bigint AS id, NULL::bigint AS source_id, NULL::text AS url, ${bucket} AS bucket,
          sum(t.responses) AS n
        FROM (${unionAll(responseRows(projectId, cut, windowStart, windowEnd, raw))}) t GROUP BY 5
        UNION ALL
        SELECT 'top', top.id, top.source_id, top.url, NULL, top.rank FROM top
        UNION ALL
        SELECT 'hit', t.id, NULL, NULL, ${bucket}, sum(t.used_w)
        FROM (${unionAll(days)}) t
        GROUP BY t.id, 5`
      ).pipe(orDefect)
    }

    const seriesOf = (projectId: number, query: SeriesQuery) =>
      Effect.gen(function*() {
        const cut = cutOf(query.filters)
        const rows = yield* rollupSeries(projectId, query, cut, yield* today, yield* higherOrderPrompts(projectId, cut))

        const starts = bucketsOf(query.interval, query.range)
        const index = new Map(starts.map((start, position) => [formatDate(start), position]))
        const totals = starts.map(() => 0)
        const hits = new Map<number, Array<number>>()
        const top: Array<{ id: number; source_id: number; url: string; rank: number }> = []
        for (const row of rows) {
          if (row.kind === "total") totals[index.get(row.bucket)!] = row.n
          else if (row.kind === "top") top.push({ id: row.id, source_id: row.source_id, url: row.url, rank: row.n })
          else {
            const counts = hits.get(row.id) ?? starts.map(() => 0)
            counts[index.get(row.bucket)!] = row.n
            hits.set(row.id, counts)
          }
        }
        top.sort((a, b) => a.rank - b.rank)
        return {
          interval: query.interval,
          series: top.map((url) => {
            const counts = hits.get(url.id) ?? starts.map(() => 0)
            return {
              source_url: { id: url.id, source_id: url.source_id, url: url.url },
              data: starts.map((start, position) => ({
                timestamp: new Date(start),
                value: hundredfold(counts[position]!, totals[position]!)
              }))
            }
          })
        }
      })

    const brandAnalytics = yield* makeBrandAnalyticsSql

    /** The ids among the given ones that name rows of the project, by table, in one statement. */
    const knownReferences = (projectId: number, references: References) => {
      const tables = (["monitors", "tags", "brands", "segments"] as const).filter((table) => references[table].length > 0)
      const none: References = { monitors: [], tags: [], brands: [], segments: [] }
      if (tables.length === 0) return Effect.succeed(none)
      return decodeRows(
        KnownReference,
        sql`${
          sql.join(" UNION ALL ", false)(tables.map((table) =>
            sql`SELECT ${sql.literal(`'${table}'::text`)} AS kind, id FROM ${sql(table)} WHERE project_id = ${projectId} AND id IN ${sql.in(references[table])}`
          ))
        }`
      ).pipe(orDefect, Effect.map((rows) => {
        const known = { monitors: [] as Array<number>, tags: [] as Array<number>, brands: [] as Array<number>, segments: [] as Array<number> }
        for (const row of rows) known[row.kind].push(row.id)
        return known
      }))
    }

    // Analytics take turns (docs/performance.md, "Analytics beside light requests"): on the embedded
    // database one at a time, so that a light request of any tenant waits behind one analytics statement
    // at most, never behind a queue of them; on PostgreSQL a few connections stay free for light requests.
    const [{ embedded }] = yield* sql<{ embedded: boolean }>`SELECT version() LIKE '%PGlite%' AS embedded`.pipe(orDefect)
    const turns = yield* Effect.makeSemaphore(embedded ? ANALYTICS_AT_ONCE.embedded : ANALYTICS_AT_ONCE.server)
    const inTurn = <A>(effect: Effect.Effect<A>) => turns.withPermits(1)(effect)

    return Analytics.of({
      sources: (projectId, query) =>
        inTurn(list(projectId, query, dimensions.source, "domain", (row, measures) => ({
          source: { id: row.id, domain: row.name },
          ...measures
        }))),
      sourceUrls: (projectId, query) =>
        inTurn(list(projectId, query, dimensions.url, "url", (row, measures) => ({
          source_url: { id: row.id, source_id: row.source_id!, url: row.name },
          ...measures
        }))),
      sourceUrlUsage: (projectId, query) => inTurn(seriesOf(projectId, query)),
      brands: (projectId, query) => inTurn(brandAnalytics.brands(projectId, query)),
      brandSeries: (projectId, query) => inTurn(brandAnalytics.brandSeries(projectId, query)),
      prompts: (projectId, query) => inTurn(brandAnalytics.prompts(projectId, query)),
      knownReferences
    })
  })
)
