import type { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import type { Filters } from "./Analytics.ts"

/**
 * The SQL the source and the brand analytics (AnalyticsSql.ts, BrandAnalyticsSql.ts) both select
 * with: a window's boundaries, and the filters on responses and on the rollups' groups.
 */

/** A boundary of a period: whole seconds, so `to_timestamp` is exact (and works before year 1). */
export const seconds = (ms: number) => ms / 1000

/** A UTC calendar date (of a period boundary) as a SQL `date`. */
export const dateOf = (sql: SqlClient.SqlClient, ms: number): Fragment => sql`(to_timestamp(${seconds(ms)}) AT TIME ZONE 'UTC')::date`

/**
 * Responses `r` of the project, analyzed, collected in [from, to), passing the platform, country and
 * monitor filters (the tag filter is the caller's).
 */
export const answersInRange = (sql: SqlClient.SqlClient, projectId: number, filters: Filters, from: number, to: number): Fragment =>
  sql.and([
    sql`r.project_id = ${projectId}`,
    sql`r.status = 'analyzed'`,
    // Answers only: a refusal, an empty answer or no AI answer is no analyzed response (docs/metrics.md).
    sql`r.answer_state = 'answered'`,
    sql`r.collected_at >= to_timestamp(${seconds(from)})`,
    sql`r.collected_at < to_timestamp(${seconds(to)})`,
    ...(filters.platforms === undefined ? [] : [sql`r.platform IN ${sql.in(filters.platforms)}`]),
    // The country the response was collected from (see docs/api.md, "Analytics").
    ...(filters.countries === undefined ? [] : [sql`upper(r.country) IN ${sql.in(filters.countries)}`]),
    ...(filters.monitors === undefined ? [] : [sql`r.monitor_id IN ${sql.in(filters.monitors)}`])
  ])

/** The ids of the project's groups (monitor, platform, country) that pass the filters: a query. */
export const groupsPassing = (sql: SqlClient.SqlClient, projectId: number, { countries, monitors, platforms }: Filters): Fragment =>
  sql`SELECT g.id FROM analytics_groups g WHERE ${
    sql.and([
      sql`g.project_id = ${projectId}`,
      ...(platforms === undefined ? [] : [sql`g.platform IN ${sql.in(platforms)}`]),
      ...(countries === undefined ? [] : [sql`upper(g.country) IN ${sql.in(countries)}`]),
      ...(monitors === undefined ? [] : [sql`g.monitor_id IN ${sql.in(monitors)}`])
    ])
  }`
