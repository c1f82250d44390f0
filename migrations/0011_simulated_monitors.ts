import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Simulated answers only where they were asked for (docs/simulated.md), and what the collector's workers
 * can answer (docs/collector.md, "Workers and their heartbeats").
 *
 * - `monitors.simulated`: the monitor's opt-in to the simulated platform; false for every monitor there is.
 * - `collector_jobs.simulated` is now fixed when the run is made, from its monitor: a job of a simulated
 *   monitor is answered by the simulated platform only, any other by its provider only. Jobs made before
 *   hold NULL until they end, which counts as false: no job made before this migration is simulated.
 * - `collector_workers`: one row per collector process, its heartbeat and the platforms it answers, so
 *   that an API process can tell which platforms no worker can answer, and why.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE monitors ADD COLUMN simulated boolean NOT NULL DEFAULT false`
  yield* sql`ALTER TABLE collector_jobs ALTER COLUMN simulated SET DEFAULT false`
  yield* sql`
    CREATE TABLE collector_workers (
      id varchar(64) PRIMARY KEY,
      providers varchar(32)[] NOT NULL,
      simulated varchar(32)[] NOT NULL,
      started_at timestamptz(3) NOT NULL,
      last_seen_at timestamptz(3) NOT NULL
    )`
})
