import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect, Layer } from "effect"
import {
  Analytics,
  bucketsOf,
  compareText,
  type Filters,
  formatDate,
  hundredfold,
  type ListQuery,
  type Measures,
  periodsOf,
  type SeriesQuery
} from "./Analytics.ts"

/**
 * Analytics on PostgreSQL (or PGlite), set-based: one statement computes the counts of every row over
 * W and P, a second one the lifetime dates of the rows on the page. Nothing is queried per row.
 *
 * The counts come from the daily rollups of migration 0003 (kept exact by triggers) whenever the
 * filters allow: none, any of platforms / countries / monitors (the `group` cut), or one tag alone (the
 * `tag` cut). Other shapes (several tags, or tags with other filters) count the raw responses and
 * citations of both periods in one pass; the differential test holds both paths to the in-memory
 * reference. Lifetime dates (no filter, no window) always come from the daily rollup.
 *
 * The database only counts (exact integers). Rounding, the changes, sorting and paging happen here on
 * those counts: the rows of a window (the sources or URLs cited in it) are tens of thousands at most,
 * and the rounded values, which the order must follow (ties by name, then id), are computed once, by
 * the same integer arithmetic as the reference implementation, never by floating-point SQL.
 */

interface CountRow {
  readonly id: number
  readonly name: string
  /** The URL's source; null for sources. */
  readonly source_id: number | null
  readonly used_w: number
  readonly cited_w: number
  readonly used_p: number
  readonly cited_p: number
  readonly total_w: number
  readonly total_p: number
}

interface LifetimeRow {
  readonly id: number
  readonly first_seen_on: string
  readonly last_seen_on: string
}

type SeriesRow =
  | { readonly kind: "total"; readonly id: null; readonly source_id: null; readonly url: null; readonly bucket: string; readonly n: number }
  | { readonly kind: "top"; readonly id: number; readonly source_id: number; readonly url: string; readonly bucket: null; readonly n: number }
  | { readonly kind: "hit"; readonly id: number; readonly source_id: null; readonly url: null; readonly bucket: string; readonly n: number }

/** A boundary of a period: whole seconds, so `to_timestamp` is exact (and works before year 1). */
const seconds = (ms: number) => ms / 1000

/** Which rollup cut answers these filters, if one does (see the module comment). */
type Cut =
  | { readonly kind: "all" }
  | { readonly kind: "group"; readonly filters: Filters }
  | { readonly kind: "tag"; readonly tagId: number }

const cutOf = (filters: Filters): Cut | undefined => {
  const { countries, monitors, platforms, tags } = filters
  if (tags === undefined) {
    return platforms === undefined && countries === undefined && monitors === undefined
      ? { kind: "all" }
      : { kind: "group", filters }
  }
  return tags.length === 1 && platforms === undefined && countries === undefined && monitors === undefined
    ? { kind: "tag", tagId: tags[0]! }
    : undefined
}

export const layerSql = Layer.effect(
  Analytics,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Responses `r` of R([from, to)): the project, analyzed, collected in the range, every filter. */
    const inRange = (projectId: number, filters: Filters, from: number, to: number): Fragment =>
      sql.and([
        sql`r.project_id = ${projectId}`,
        sql`r.status = 'analyzed'`,
        sql`r.collected_at >= to_timestamp(${seconds(from)})`,
        sql`r.collected_at < to_timestamp(${seconds(to)})`,
        ...(filters.platforms === undefined ? [] : [sql`r.platform IN ${sql.in(filters.platforms)}`]),
        // The country the response was collected from (see docs/api.md, "Analytics").
        ...(filters.countries === undefined ? [] : [sql`upper(r.country) IN ${sql.in(filters.countries)}`]),
        ...(filters.monitors === undefined ? [] : [sql`r.monitor_id IN ${sql.in(filters.monitors)}`]),
        ...(filters.tags === undefined
          ? []
          : [sql`EXISTS (SELECT 1 FROM prompt_tags pt WHERE pt.prompt_id = r.prompt_id AND pt.tag_id IN ${sql.in(filters.tags)})`])
      ])

    /** How a row is keyed and named: by source (domain) or by exact URL. */
    const dimensions = {
      source: {
        key: sql.literal("c.source_id"),
        rollupKey: sql.literal("source_id"),
        rollup: "source",
        join: sql`JOIN sources s ON s.id = counts.id`,
        columns: sql`s.domain AS name, NULL::bigint AS source_id`
      },
      url: {
        key: sql.literal("c.source_url_id"),
        rollupKey: sql.literal("source_url_id"),
        rollup: "url",
        join: sql`JOIN source_urls s ON s.id = counts.id`,
        columns: sql`s.url AS name, s.source_id`
      }
    } as const
    type Dimension = (typeof dimensions)[keyof typeof dimensions]

    /** A UTC calendar date (of a period boundary) as a SQL `date`. */
    const dateOf = (ms: number) => sql`(to_timestamp(${seconds(ms)}) AT TIME ZONE 'UTC')::date`

    /** The rollup table of a cut (`prefix` response, source or url), and the condition on its rows. */
    const rollupOf = (prefix: "response" | "source" | "url", projectId: number, cut: Cut) => {
      switch (cut.kind) {
        case "all":
          return { table: sql.literal(`${prefix}_daily`), where: sql`t.project_id = ${projectId}` }
        case "tag":
          return { table: sql.literal(`${prefix}_tag_daily`), where: sql`t.project_id = ${projectId} AND t.tag_id = ${cut.tagId}` }
        case "group": {
          const { countries, monitors, platforms } = cut.filters
          const groups = sql.and([
            sql`g.project_id = ${projectId}`,
            ...(platforms === undefined ? [] : [sql`g.platform IN ${sql.in(platforms)}`]),
            ...(countries === undefined ? [] : [sql`upper(g.country) IN ${sql.in(countries)}`]),
            ...(monitors === undefined ? [] : [sql`g.monitor_id IN ${sql.in(monitors)}`])
          ])
          return {
            table: sql.literal(`${prefix}_group_daily`),
            where: sql`t.project_id = ${projectId} AND t.group_id IN (SELECT g.id FROM analytics_groups g WHERE ${groups})`
          }
        }
      }
    }

    /** The counts of every row over W and P, and the totals, from a rollup: sums of day rows. */
    const rollupCounts = (projectId: number, query: ListQuery<string>, dimension: Dimension, cut: Cut) => {
      const { previousStart, windowEnd, windowStart } = periodsOf(query.range)
      const responses = rollupOf("response", projectId, cut)
      const citations = rollupOf(dimension.rollup, projectId, cut)
      const inW = sql`t.day >= ${dateOf(windowStart)}`
      const inPeriods = sql`t.day >= ${dateOf(previousStart)} AND t.day < ${dateOf(windowEnd)}`
      return sql<CountRow>`
        WITH totals AS (
          SELECT coalesce(sum(t.responses) FILTER (WHERE ${inW}), 0) AS total_w,
            coalesce(sum(t.responses) FILTER (WHERE NOT ${inW}), 0) AS total_p
          FROM ${responses.table} t WHERE ${responses.where} AND ${inPeriods}
        ),
        counts AS (
          SELECT t.${dimension.rollupKey} AS id,
            coalesce(sum(t.used) FILTER (WHERE ${inW}), 0) AS used_w,
            coalesce(sum(t.cited) FILTER (WHERE ${inW}), 0) AS cited_w,
            coalesce(sum(t.used) FILTER (WHERE NOT ${inW}), 0) AS used_p,
            coalesce(sum(t.cited) FILTER (WHERE NOT ${inW}), 0) AS cited_p
          FROM ${citations.table} t WHERE ${citations.where} AND ${inPeriods}
          GROUP BY t.${dimension.rollupKey}
          HAVING sum(t.used) FILTER (WHERE ${inW}) > 0
        )
        SELECT counts.id, ${dimension.columns}, counts.used_w, counts.cited_w, counts.used_p, counts.cited_p,
          totals.total_w, totals.total_p
        FROM counts ${dimension.join} CROSS JOIN totals`
    }

    /**
     * The same counts from the raw tables (filter shapes no rollup cut answers): the responses of
     * P ∪ W, each flagged with its period, joined to their citations once.
     */
    const rawCounts = (projectId: number, query: ListQuery<string>, dimension: Dimension) => {
      const { previousStart, windowEnd, windowStart } = periodsOf(query.range)
      return sql<CountRow>`
        WITH r AS (
          SELECT r.id, r.collected_at >= to_timestamp(${seconds(windowStart)}) AS in_w
          FROM responses r
          WHERE ${inRange(projectId, query.filters, previousStart, windowEnd)}
        ),
        totals AS (
          SELECT count(*) FILTER (WHERE in_w) AS total_w, count(*) FILTER (WHERE NOT in_w) AS total_p FROM r
        ),
        counts AS (
          SELECT ${dimension.key} AS id,
            count(DISTINCT r.id) FILTER (WHERE r.in_w) AS used_w,
            count(*) FILTER (WHERE r.in_w) AS cited_w,
            count(DISTINCT r.id) FILTER (WHERE NOT r.in_w) AS used_p,
            count(*) FILTER (WHERE NOT r.in_w) AS cited_p
          FROM r JOIN citations c ON c.response_id = r.id
          GROUP BY ${dimension.key}
          HAVING bool_or(r.in_w)
        )
        SELECT counts.id, ${dimension.columns}, counts.used_w, counts.cited_w, counts.used_p, counts.cited_p,
          totals.total_w, totals.total_p
        FROM counts ${dimension.join} CROSS JOIN totals`
    }

    const counts = (projectId: number, query: ListQuery<string>, dimension: Dimension) => {
      const cut = cutOf(query.filters)
      return cut === undefined ? rawCounts(projectId, query, dimension) : rollupCounts(projectId, query, dimension, cut)
    }

    /**
     * The lifetime dates of some rows (a page), or of every row of the project (to sort by them): no
     * filter, no window, so the whole-project daily rollup (`ids` narrows it through its index).
     */
    const lifetimes = (projectId: number, dimension: Dimension, ids: ReadonlyArray<number> | "all") =>
      ids !== "all" && ids.length === 0
        ? Effect.succeed<ReadonlyArray<LifetimeRow>>([])
        : sql<LifetimeRow>`
            SELECT t.${dimension.rollupKey} AS id,
              to_char(min(t.day), 'YYYY-MM-DD') AS first_seen_on,
              to_char(max(t.day), 'YYYY-MM-DD') AS last_seen_on
            FROM ${sql.literal(`${dimension.rollup}_daily`)} t
            WHERE t.project_id = ${projectId} AND t.used > 0
              ${ids === "all" ? sql`` : sql`AND t.${dimension.rollupKey} IN ${sql.in(ids)}`}
            GROUP BY t.${dimension.rollupKey}`

    /** The measures of a row from its exact counts: decisions.md §6, rounded on integers. */
    const measuresOf = (row: CountRow): Omit<Measures, "first_seen_on" | "last_seen_on"> => {
      const percentageW = hundredfold(row.used_w, row.total_w)
      const percentageP = hundredfold(row.used_p, row.total_p)
      const hundredthsW = hundredfold(row.cited_w, row.total_w)
      const hundredthsP = hundredfold(row.cited_p, row.total_p)
      return {
        used_count: row.used_w,
        used_count_change: row.used_w - row.used_p,
        used_percentage: percentageW,
        used_percentage_change: percentageW - percentageP,
        average_citations: hundredthsW / 100,
        average_citations_change: (hundredthsW - hundredthsP) / 100
      }
    }

    /** Every row computed, sorted (ties: name ascending, then id), then one page of it. */
    const list = <SortBy extends string, Row>(
      projectId: number,
      query: ListQuery<SortBy>,
      dimension: Dimension,
      nameKey: SortBy,
      view: (row: CountRow, measures: Measures) => Row
    ) =>
      Effect.gen(function*() {
        const byLifetime = query.sortBy === "first_seen_on" || query.sortBy === "last_seen_on"
        const [counted, allDates] = yield* Effect.all([
          counts(projectId, query, dimension),
          byLifetime ? lifetimes(projectId, dimension, "all") : Effect.succeed<ReadonlyArray<LifetimeRow>>([])
        ])
        const datesOfAll = new Map(allDates.map((row) => [row.id, row]))
        const rows = counted.map((row) => ({
          row,
          measures: {
            ...measuresOf(row),
            first_seen_on: datesOfAll.get(row.id)?.first_seen_on ?? "",
            last_seen_on: datesOfAll.get(row.id)?.last_seen_on ?? ""
          }
        }))
        const sortValue = (entry: (typeof rows)[number]): string | number =>
          query.sortBy === nameKey ? entry.row.name : entry.measures[query.sortBy as string as keyof Measures]
        const direction = query.sortOrder === "asc" ? 1 : -1
        rows.sort((a, b) => {
          const x = sortValue(a)
          const y = sortValue(b)
          const primary = typeof x === "number" && typeof y === "number" ? Math.sign(x - y) : compareText(String(x), String(y))
          return primary * direction || compareText(a.row.name, b.row.name) || a.row.id - b.row.id
        })
        const page = rows.slice(query.window.offset, query.window.offset + query.window.limit)
        const dates = byLifetime
          ? new Map<number, LifetimeRow>()
          : new Map((yield* lifetimes(projectId, dimension, page.map((entry) => entry.row.id))).map((row) => [row.id, row]))
        return {
          rows: page.map(({ measures, row }) => {
            const lifetime = dates.get(row.id)
            return view(
              row,
              lifetime === undefined
                ? measures
                : { ...measures, first_seen_on: lifetime.first_seen_on, last_seen_on: lifetime.last_seen_on }
            )
          }),
          total: rows.length
        }
      })

    /** The series' counts from a rollup: totals per bucket, the top URLs, and their uses per bucket. */
    const rollupSeries = (projectId: number, query: SeriesQuery, cut: Cut) => {
      const { windowEnd, windowStart } = periodsOf(query.range)
      const responses = rollupOf("response", projectId, cut)
      const urls = rollupOf("url", projectId, cut)
      const inW = sql`t.day >= ${dateOf(windowStart)} AND t.day < ${dateOf(windowEnd)}`
      const bucket = sql`to_char(date_trunc(${query.interval}, t.day::timestamp), 'YYYY-MM-DD')`
      return sql<SeriesRow>`
        WITH top AS (
          SELECT u.id, u.source_id, u.url, row_number() OVER (ORDER BY cited.n DESC, u.url COLLATE "C", u.id) AS rank
          FROM (
            SELECT t.source_url_id, sum(t.cited) AS n FROM ${urls.table} t WHERE ${urls.where} AND ${inW}
            GROUP BY t.source_url_id HAVING sum(t.cited) > 0
          ) cited JOIN source_urls u ON u.id = cited.source_url_id
          ORDER BY rank
          LIMIT ${query.topN}
        )
        SELECT 'total' AS kind, NULL::bigint AS id, NULL::bigint AS source_id, NULL::text AS url, ${bucket} AS bucket,
          sum(t.responses) AS n
        FROM ${responses.table} t WHERE ${responses.where} AND ${inW} GROUP BY 5
        UNION ALL
        SELECT 'top', top.id, top.source_id, top.url, NULL, top.rank FROM top
        UNION ALL
        SELECT 'hit', t.source_url_id, NULL, NULL, ${bucket}, sum(t.used)
        FROM ${urls.table} t WHERE ${urls.where} AND ${inW} AND t.source_url_id IN (SELECT id FROM top)
        GROUP BY t.source_url_id, 5`
    }

    /** The same from the raw tables (filter shapes no rollup cut answers). */
    const rawSeries = (projectId: number, query: SeriesQuery) => {
      const { windowEnd, windowStart } = periodsOf(query.range)
      return sql<SeriesRow>`
          WITH r AS (
            SELECT r.id, to_char(date_trunc(${query.interval}, r.collected_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS bucket
            FROM responses r
            WHERE ${inRange(projectId, query.filters, windowStart, windowEnd)}
          ),
          cited AS (
            SELECT c.source_url_id, c.response_id, r.bucket FROM r JOIN citations c ON c.response_id = r.id
          ),
          top AS (
            SELECT u.id, u.source_id, u.url, count(*) AS citations,
              row_number() OVER (ORDER BY count(*) DESC, u.url COLLATE "C", u.id) AS rank
            FROM cited JOIN source_urls u ON u.id = cited.source_url_id
            GROUP BY u.id, u.source_id, u.url
            ORDER BY rank
            LIMIT ${query.topN}
          )
          SELECT 'total' AS kind, NULL::bigint AS id, NULL::bigint AS source_id, NULL::text AS url, r.bucket, count(*) AS n
          FROM r GROUP BY r.bucket
          UNION ALL
          SELECT 'top', top.id, top.source_id, top.url, NULL, top.rank FROM top
          UNION ALL
          SELECT 'hit', cited.source_url_id, NULL, NULL, cited.bucket, count(DISTINCT cited.response_id)
          FROM cited WHERE cited.source_url_id IN (SELECT id FROM top)
          GROUP BY cited.source_url_id, cited.bucket`
    }

    const seriesOf = (projectId: number, query: SeriesQuery) =>
      Effect.gen(function*() {
        const cut = cutOf(query.filters)
        const rows = yield* (cut === undefined ? rawSeries(projectId, query) : rollupSeries(projectId, query, cut))

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

    return Analytics.of({
      sources: (projectId, query) =>
        list(projectId, query, dimensions.source, "domain", (row, measures) => ({
          source: { id: row.id, domain: row.name },
          ...measures
        })),
      sourceUrls: (projectId, query) =>
        list(projectId, query, dimensions.url, "url", (row, measures) => ({
          source_url: { id: row.id, source_id: row.source_id!, url: row.name },
          ...measures
        })),
      sourceUrlUsage: seriesOf,
      knownReferences: (projectId, references) =>
        Effect.all({
          monitors: references.monitors.length === 0
            ? Effect.succeed([])
            : sql<{ id: number }>`SELECT id FROM monitors WHERE project_id = ${projectId} AND id IN ${sql.in(references.monitors)}`.pipe(
              Effect.map((rows) => rows.map((row) => row.id))
            ),
          tags: references.tags.length === 0
            ? Effect.succeed([])
            : sql<{ id: number }>`SELECT id FROM tags WHERE project_id = ${projectId} AND id IN ${sql.in(references.tags)}`.pipe(
              Effect.map((rows) => rows.map((row) => row.id))
            )
        })
    })
  })
)
