import { SqlClient } from "@effect/sql"
import { Duration, Effect, Option, Ref, Schema } from "effect"
import { Settings } from "../Config.ts"
import { decodeRows, orDefect } from "./Rows.ts"

/**
 * The planner's statistics (`ANALYZE`), kept by the service itself. Without them PostgreSQL guesses the
 * size of every table and a plan can go from milliseconds to minutes; the embedded database has no
 * autovacuum at all, and an operator's PostgreSQL may have it off. So the service analyzes:
 *
 * - after its migrations (every table when one was applied, else the tables never analyzed);
 * - after `cli import`;
 * - after merges (src/Analytics/Merger.ts) once the answers merged since the last analysis reach
 *   `ANALYZE_SHARE` of the answers stored then, and at least `ANALYZE_MIN_ANSWERS`;
 * - every hour from the background merger: every table on the embedded database (it keeps no count of
 *   changed rows), on PostgreSQL the tables its own counters say changed by as much as autovacuum's
 *   default rule would (50 rows and 10%).
 *
 * One `ANALYZE` statement per table: on the embedded database (one session, on the event loop) requests
 * get their turn between two tables rather than after the whole database (docs/performance.md,
 * "Planner statistics").
 */

/** The share of the answers whose merge calls for new statistics. */
export const ANALYZE_SHARE = 0.1
/** ...and never fewer answers than this (a young database is cheap to analyze, but not every second). */
export const ANALYZE_MIN_ANSWERS = 500
/** How often the background merger refreshes the statistics at the latest. */
export const ANALYZE_EVERY = Duration.hours(1)

const TableRow = Schema.Struct({ name: Schema.String })
const EstimateRow = Schema.Struct({ estimate: Schema.Number })

/** The service's tables (of the current schema), with a condition on their `pg_class` row `c`. */
const tablesWhere = (sql: SqlClient.SqlClient, condition: string) =>
  decodeRows(
    TableRow,
    sql.unsafe(`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND ${condition} ORDER BY c.relname`)
  )

/** `ANALYZE` of these tables, one statement each; how many. */
const analyzeTables = (sql: SqlClient.SqlClient, tables: ReadonlyArray<{ readonly name: string }>) =>
  Effect.as(Effect.forEach(tables, ({ name }) => sql`ANALYZE ${sql(name)}`, { discard: true }), tables.length)

/** Every table analyzed, one at a time; how many. */
export const analyzeAll: Effect.Effect<number, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const started = Date.now()
  const count = yield* analyzeTables(sql, yield* tablesWhere(sql, "true"))
  yield* Effect.logDebug("planner statistics refreshed").pipe(Effect.annotateLogs({ tables: count, ms: Date.now() - started }))
  return count
}).pipe(orDefect, Effect.withSpan("PlannerStatistics.analyzeAll"))

/** The tables never analyzed (`reltuples` is -1 until the first ANALYZE or VACUUM), analyzed; how many. */
export const analyzeNeverAnalyzed: Effect.Effect<number, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* analyzeTables(sql, yield* tablesWhere(sql, "c.reltuples < 0"))
}).pipe(orDefect)

/**
 * On PostgreSQL, the tables whose changes since their last analysis pass autovacuum's default rule (50
 * rows plus 10% of the table), or never analyzed, analyzed; how many. The embedded database keeps no
 * such counts (they stay 0): there, every table.
 */
const analyzeStale = (embedded: boolean): Effect.Effect<number, never, SqlClient.SqlClient> =>
  embedded ? analyzeAll : Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* analyzeTables(
      sql,
      yield* tablesWhere(
        sql,
        `(c.reltuples < 0 OR coalesce((SELECT s.n_mod_since_analyze FROM pg_stat_user_tables s WHERE s.relid = c.oid), 0)
          > 50 + 0.1 * c.reltuples)`
      )
    )
  }).pipe(orDefect)

/** The answers the statistics knew of at the last analysis of `responses` (0 if never analyzed). */
const answersAtLastAnalysis = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* decodeRows(EstimateRow, sql`SELECT greatest(reltuples, 0)::float8 AS estimate FROM pg_class WHERE oid = 'responses'::regclass`)
  return rows[0]?.estimate ?? 0
}).pipe(orDefect)

/** Whether this many merged answers call for new statistics (`ANALYZE_SHARE`, `ANALYZE_MIN_ANSWERS`). */
export const isMeaningful = (changed: number, answers: number): boolean =>
  changed >= Math.max(ANALYZE_MIN_ANSWERS, ANALYZE_SHARE * answers)

/**
 * A counter of the answers merged since the last analysis: `merged(n)` adds to it and analyzes every
 * table once the count is meaningful (`isMeaningful`); whether it did.
 */
export const makeMergeCounter = Effect.gen(function*() {
  const since = yield* Ref.make(0)
  const merged = (n: number): Effect.Effect<boolean, never, SqlClient.SqlClient> =>
    n <= 0 ? Effect.succeed(false) : Effect.gen(function*() {
      const changed = yield* Ref.updateAndGet(since, (count) => count + n)
      if (changed < ANALYZE_MIN_ANSWERS || !isMeaningful(changed, yield* answersAtLastAnalysis)) return false
      yield* Ref.set(since, 0)
      yield* analyzeAll
      return true
    })
  return { merged }
})

/** Every `ANALYZE_EVERY`, the stale tables analyzed (`analyzeStale`); a failure is logged, and retried next time. */
export const hourly: Effect.Effect<never, never, SqlClient.SqlClient | Settings> = Effect.gen(function*() {
  const embedded = Option.isNone((yield* Settings).databaseUrl)
  return yield* Effect.sleep(ANALYZE_EVERY).pipe(
    Effect.zipRight(analyzeStale(embedded)),
    Effect.catchAllCause((cause) => Effect.logWarning("refreshing the planner statistics failed; retrying in an hour", cause)),
    Effect.forever
  )
})
