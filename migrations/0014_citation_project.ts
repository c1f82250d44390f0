import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Citations carry their project (docs/performance.md, "Large lists"), as brand mentions always have: the list of
 * a project's citations and its exact total are read from `citations` alone, on `(project_id, id)`,
 * instead of joining every citation to its response to learn whose it is.
 *
 * - `citations.project_id`: the project of the citation's response, filled in for every citation there is.
 * - Its response is now referred to by `(response_id, project_id)`, so a citation can only name the
 *   project of its response: the database refuses any other (a `UNIQUE (id, project_id)` on responses,
 *   which the reference needs). Deleting a response still deletes its citations.
 * - `citations_project_id_index (project_id, id)`: the list in id order, its keyset pages and its count.
 *
 * Every statement must end within the statement timeout (30 s by default), on millions of citations too:
 * the project is filled in by ranges of ids, and the new reference is added `NOT VALID`, which enforces it
 * on every row written from now on without one statement reading every row there is (the rows there are
 * were just given their response's project; `VALIDATE CONSTRAINT` checks them, when an operator wants it).
 */
/** Citations filled in by one statement: a few seconds each on a busy machine. */
const FILL_RANGE = 50_000

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE citations ADD COLUMN project_id bigint`
  const [range] = yield* sql<{ low: number | null; high: number | null }>`SELECT min(id) AS low, max(id) AS high FROM citations`
  for (let low = range?.low ?? 1; low <= (range?.high ?? 0); low += FILL_RANGE) {
    yield* sql`
      UPDATE citations c SET project_id = r.project_id FROM responses r
      WHERE r.id = c.response_id AND c.id >= ${low} AND c.id < ${low + FILL_RANGE}`
  }
  yield* sql`ALTER TABLE citations ALTER COLUMN project_id SET NOT NULL`
  yield* sql`ALTER TABLE responses ADD CONSTRAINT responses_id_project_id_key UNIQUE (id, project_id)`
  yield* sql`ALTER TABLE citations DROP CONSTRAINT citations_response_id_fkey`
  yield* sql`
    ALTER TABLE citations ADD CONSTRAINT citations_response_id_project_id_fkey
      FOREIGN KEY (response_id, project_id) REFERENCES responses (id, project_id) ON DELETE CASCADE NOT VALID`
  yield* sql`CREATE INDEX citations_project_id_index ON citations (project_id, id)`
  yield* sql`ANALYZE citations`
})
