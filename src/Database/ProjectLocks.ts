import type { SqlClient, SqlError, Statement } from "@effect/sql"
import { Duration, Effect, Schedule } from "effect"
import { NotFound } from "../Domain/Errors.ts"
import { isTransientConflict } from "./SqlErrors.ts"

/**
 * The one order in which every transaction that writes a project's data takes its locks, so that no
 * two of them (an answer stored, a tag attached, a prompt, monitor, tag, brand or the project deleted,
 * a merge of the analytics) can wait for each other in a cycle (docs/security.md, "Concurrent writes"):
 *
 * 1. The project's **lifecycle lock**: shared by every write of the project's rows, exclusive for the
 *    project's deletion. The deletion waits for the writes under way, and a write after it finds the
 *    project gone (`404 Project not found`).
 * 2. The project's **rollup lock** (`analytics_lock`, migration 0006): by every write that changes what
 *    the analytics rollups count (a deletion, a tag attached to or detached from a prompt, mentions
 *    detected again, a merge), *before any row*. The rollup triggers take it too, but only once the
 *    statement holds its row: a write that waited there holding a row deadlocked with a deletion
 *    holding the lock and waiting for that row. Storing answers never takes it (migration 0008: they
 *    are pending), so answers of one project never wait for each other.
 * 3. The project's **brand cap lock**, by a brand's creation only: the count and the insert are one step.
 * 4. **Rows, parents first**: the rows a write refers to, locked `FOR KEY SHARE` and checked there
 *    (monitors, then prompts, then brands or tags: a deletion cascades from the monitor to its prompts,
 *    so a writer holding a prompt and waiting for its monitor would deadlock with it); a row found gone
 *    means its deletion came first. Then the rows it writes.
 *
 * All are transaction-level (released at commit or rollback) and advisory locks are queued fairly: a
 * deletion waiting for the exclusive lifecycle lock is not starved by new writers. The keys are 64-bit
 * hashes of names in namespaces of their own, so no other advisory lock can collide with them.
 */

/** The hash key of a project's lock in `namespace`; `project` an SQL expression (a parameter or a column). */
const key = (sql: SqlClient.SqlClient, namespace: string, project: Statement.Fragment | number) =>
  sql`hashtextextended(${`bvm:${namespace}:`} || (${project})::text, 0)`

/**
 * 1 and 2 for a write of the project's rows, first thing in its transaction: the lifecycle lock shared,
 * and the rollup lock when `rollups`. The project may be gone by then: see `lockForWriting`.
 */
export const lockProject = (sql: SqlClient.SqlClient, projectId: number, options: { readonly rollups: boolean } = { rollups: false }) =>
  (options.rollups
    ? sql`SELECT pg_advisory_xact_lock_shared(${key(sql, "project_lifecycle", projectId)}), analytics_lock(${projectId})`
    : sql`SELECT pg_advisory_xact_lock_shared(${key(sql, "project_lifecycle", projectId)})`).pipe(Effect.asVoid)

/** `lockProject`, then the project checked: `NotFound` (Project) when its deletion came first. */
export const lockForWriting = (sql: SqlClient.SqlClient, projectId: number, options: { readonly rollups: boolean } = { rollups: false }) =>
  Effect.gen(function*() {
    yield* lockProject(sql, projectId, options)
    // A statement of its own: its snapshot is taken once the locks are held.
    const rows = yield* sql`SELECT 1 FROM projects WHERE id = ${projectId}`
    if (rows.length === 0) return yield* new NotFound({ resource: "Project" })
  })

/**
 * For a write of one row of a project's table (`prompts`, `tags`, ...) known by its id, first thing in
 * its transaction: the locks of the row's project (the lifecycle lock shared; the rollup lock when
 * `rollups`). No lock when the row is gone: the write then finds nothing to change.
 */
export const lockForRow = (sql: SqlClient.SqlClient, table: string, id: number, options: { readonly rollups: boolean }) => {
  const project = sql.literal("project_id")
  return (options.rollups
    ? sql`SELECT pg_advisory_xact_lock_shared(${key(sql, "project_lifecycle", project)}), analytics_lock(project_id) FROM ${sql(table)} WHERE id = ${id}`
    : sql`SELECT pg_advisory_xact_lock_shared(${key(sql, "project_lifecycle", project)}) FROM ${sql(table)} WHERE id = ${id}`).pipe(Effect.asVoid)
}

/** For the project's deletion: alone, with no writer and no rollup upkeep of the project under way. */
export const lockForDeletion = (sql: SqlClient.SqlClient, projectId: number) =>
  sql`SELECT pg_advisory_xact_lock(${key(sql, "project_lifecycle", projectId)}), analytics_lock(${projectId})`.pipe(Effect.asVoid)

/** For a brand's creation, after `lockForWriting`: creations of the project's brands one at a time, so the cap holds. */
export const lockBrandCap = (sql: SqlClient.SqlClient, projectId: number) =>
  sql`SELECT pg_advisory_xact_lock(${key(sql, "project_brands", projectId)})`.pipe(Effect.asVoid)

/**
 * A transaction run again (up to 3 times, after a short random pause) when PostgreSQL aborted it to
 * break a deadlock with another: what the service's own writes never meet with each other (the order
 * above), but a statement run by hand beside them can.
 */
export const retryConflicts = <A, E, R>(transaction: Effect.Effect<A, E | SqlError.SqlError, R>) =>
  Effect.retry(transaction, {
    times: 3,
    schedule: Schedule.jittered(Schedule.exponential(Duration.millis(20))),
    while: (error) => typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "SqlError" &&
      isTransientConflict(error as SqlError.SqlError)
  })
