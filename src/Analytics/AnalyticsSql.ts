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
 * W and P in a single pass over the responses of both periods, a second one the lifetime dates of the
 * rows that need them. Nothing is queried per row.
 *
 * The database only counts (exact integers). Rounding, the changes, sorting and paging happen here on
 * those counts: the rows of a window (the sources or URLs cited in it) are a few thousand at most, and
 * the rounded values, which the order must follow (ties by name, then id), are then computed once, by
 * the same integer arithmetic as the reference implementation, never by floating-point SQL.
 *
 * Indexes used: `responses (project_id, collected_at)` for the periods, the unique
 * `citations (response_id, position)` for the citations of each response, `prompt_tags` primary key
 * for the tag filter, `citations (source_id, response_id)` / `(source_url_id, response_id)` and the
 * responses' primary key for the lifetime dates. No other index is needed.
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
  readonly first_seen_on: string | null
  readonly last_seen_on: string | null
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
        join: sql`JOIN sources s ON s.id = counts.id`,
        columns: sql`s.domain AS name, NULL::bigint AS source_id`
      },
      url: {
        key: sql.literal("c.source_url_id"),
        join: sql`JOIN source_urls s ON s.id = counts.id`,
        columns: sql`s.url AS name, s.source_id`
      }
    } as const
    type Dimension = (typeof dimensions)[keyof typeof dimensions]

    /**
     * The counts of every row over W and P in one pass: the responses of P ∪ W, each flagged with its
     * period, joined to their citations once. With `withLifetime`, the lifetime dates of every row too
     * (needed before sorting by them).
     */
    const counts = (projectId: number, query: ListQuery<string>, dimension: Dimension, withLifetime: boolean) => {
      const { previousStart, windowEnd, windowStart } = periodsOf(query.range)
      const lifetime = withLifetime
        ? sql`, lifetime AS (
            SELECT ${dimension.key} AS id,
              to_char(min(r.collected_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS first_seen_on,
              to_char(max(r.collected_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS last_seen_on
            FROM counts JOIN citations c ON ${dimension.key} = counts.id JOIN responses r ON r.id = c.response_id
            WHERE r.project_id = ${projectId} AND r.status = 'analyzed'
            GROUP BY ${dimension.key}
          )`
        : sql``
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
        )${lifetime}
        SELECT counts.id, ${dimension.columns}, counts.used_w, counts.cited_w, counts.used_p, counts.cited_p,
          totals.total_w, totals.total_p,
          ${withLifetime ? sql`lifetime.first_seen_on, lifetime.last_seen_on` : sql`NULL AS first_seen_on, NULL AS last_seen_on`}
        FROM counts ${dimension.join} CROSS JOIN totals
        ${withLifetime ? sql`LEFT JOIN lifetime ON lifetime.id = counts.id` : sql``}`
    }

    /** The lifetime dates of some rows (a page): no filter, no window. */
    const lifetimes = (projectId: number, dimension: Dimension, ids: ReadonlyArray<number>) =>
      ids.length === 0
        ? Effect.succeed<ReadonlyArray<LifetimeRow>>([])
        : sql<LifetimeRow>`
            SELECT ${dimension.key} AS id,
              to_char(min(r.collected_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS first_seen_on,
              to_char(max(r.collected_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS last_seen_on
            FROM citations c JOIN responses r ON r.id = c.response_id
            WHERE ${dimension.key} IN ${sql.in(ids)} AND r.project_id = ${projectId} AND r.status = 'analyzed'
            GROUP BY ${dimension.key}`

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
        const rows = (yield* counts(projectId, query, dimension, byLifetime)).map((row) => ({
          row,
          measures: { ...measuresOf(row), first_seen_on: row.first_seen_on ?? "", last_seen_on: row.last_seen_on ?? "" }
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

    const seriesOf = (projectId: number, query: SeriesQuery) =>
      Effect.gen(function*() {
        const { windowEnd, windowStart } = periodsOf(query.range)
        const rows = yield* sql<SeriesRow>`
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
