import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { ANALYZE_MIN_ANSWERS, analyzeAll, isMeaningful, makeMergeCounter } from "../../src/Database/PlannerStatistics.ts"
import { migratedSql } from "../support/Databases.ts"
import { sqlBackend } from "../support/TestServer.ts"

/**
 * The planner's statistics kept by the service (src/Database/PlannerStatistics.ts): when merges call for
 * new ones, and that an analysis leaves every table with a row estimate and its columns with statistics.
 */

describe("when merges call for new statistics", () => {
  it("takes 10% of the answers known at the last analysis, and never fewer than 500", () => {
    expect(ANALYZE_MIN_ANSWERS).toBe(500)
    expect([isMeaningful(499, 0), isMeaningful(500, 0)]).toEqual([false, true])
    expect([isMeaningful(2_999, 30_000), isMeaningful(3_000, 30_000)]).toEqual([false, true])
    expect([isMeaningful(99_999, 1_000_000), isMeaningful(100_000, 1_000_000)]).toEqual([false, true])
  })
})

describe(`planner statistics (${sqlBackend})`, () => {
  const runtime = ManagedRuntime.make(migratedSql.pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.None))))
  afterAll(() => runtime.dispose())

  const estimate = (table: string) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ n: number }>`SELECT reltuples::int AS n FROM pg_class WHERE oid = ${table}::regclass`.pipe(Effect.map((rows) => rows[0]!.n)))

  it("leaves no table without statistics after the migrations, and follows the rows after an analysis", async () => {
    const result = await runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const never = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
        WHERE ns.nspname = current_schema() AND c.relkind = 'r' AND c.reltuples < 0`
      yield* sql`CREATE TABLE planner_probe (id integer)`
      yield* sql`INSERT INTO planner_probe SELECT generate_series(1, 1234)`
      const before = yield* estimate("planner_probe")
      const counter = yield* makeMergeCounter
      // Fewer answers than the threshold: nothing analyzed; past it: every table.
      const early = yield* counter.merged(ANALYZE_MIN_ANSWERS - 1)
      const late = yield* counter.merged(1)
      const after = yield* estimate("planner_probe")
      yield* sql`INSERT INTO planner_probe SELECT generate_series(1, 766)`
      const tables = yield* analyzeAll
      const again = yield* estimate("planner_probe")
      yield* sql`DROP TABLE planner_probe`
      return { never: never[0]!.n, before, early, late, after, tables, again }
    }))
    expect(result).toMatchObject({ never: 0, before: -1, early: false, late: true, after: 1234, again: 2000 })
    expect(result.tables).toBeGreaterThan(20)
  }, 60_000)
})
