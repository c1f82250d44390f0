import { SqlClient, type SqlError } from "@effect/sql"
import { Duration, Effect, Schedule } from "effect"
import { isTransientConflict } from "./SqlErrors.ts"

/**
 * The locks that keep writes of one project from deadlocking with the project's deletion
 * (docs/security.md, "Concurrent writes"). Transaction-level advisory locks, so they are released at
 * commit or rollback, and queued fairly: a deleter waiting for the exclusive lock is not starved by
 * new writers, as it would be on a row lock.
 *
 * - Writers of a project's answers (the API, the import, the collector) take the project's lifecycle
 *   lock shared, first thing in their transaction, then check that the project still exists.
 * - Deleting a project takes it exclusive, then the project's rollup lock (migration 0006), before
 *   any row: it waits for the writers under way, and the ones that come after it find the project gone.
 */

const lifecycleKey = (projectId: number) => `bvm:project_lifecycle:${projectId}`

/** For a writer of the project's data: shared with other writers, excluded by a deletion. */
export const lockForWriting = (sql: SqlClient.SqlClient, projectId: number) =>
  sql`SELECT pg_advisory_xact_lock_shared(hashtextextended(${lifecycleKey(projectId)}, 0))`.pipe(Effect.asVoid)

/** For the project's deletion: alone, with no writer and no rollup upkeep of the project under way. */
export const lockForDeletion = (sql: SqlClient.SqlClient, projectId: number) =>
  sql`SELECT pg_advisory_xact_lock(hashtextextended(${lifecycleKey(projectId)}, 0)), analytics_lock(${projectId})`.pipe(Effect.asVoid)

/**
 * A transaction run again (up to 3 times, after a short random pause) when PostgreSQL aborted it to
 * break a deadlock with another: what one write can still meet with a write that takes its row locks
 * in another order (a tag attached while its project is deleted).
 */
export const retryConflicts = <A, E, R>(transaction: Effect.Effect<A, E | SqlError.SqlError, R>) =>
  Effect.retry(transaction, {
    times: 3,
    schedule: Schedule.jittered(Schedule.exponential(Duration.millis(20))),
    while: (error) => typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "SqlError" &&
      isTransientConflict(error as SqlError.SqlError)
  })
