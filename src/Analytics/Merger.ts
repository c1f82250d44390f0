import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Duration, Effect, Layer, Option, Schema } from "effect"
import { Settings } from "../Config.ts"
import * as PlannerStatistics from "../Database/PlannerStatistics.ts"
import { orDefect } from "../Database/Rows.ts"
import { Id } from "../Domain/Common.ts"

/**
 * The merger (migration 0008): folds pending answers into the analytics rollups. Answers are stored
 * pending, with no rollup work on the write path; reads add the pending ones from their raw rows, so
 * they are exact whether or not the merger has run, and the merger only keeps them fast by keeping the
 * pending set small (docs/performance.md, "How analytics stay fast").
 *
 * A merge is one call of `analytics_merge_pending`: one transaction under the project's rollup lock,
 * set-based over a batch of answers. The larger the batch, the cheaper an answer (the answers of a
 * batch share rollup rows: 2,000 imported answers merge at ~0.4 ms each on PostgreSQL here, 100 at
 * ~1.8 ms), and the longer the project's structural writes (a tag attached, a prompt deleted) wait
 * for the lock.
 *
 * - `background`, in the server and worker processes: every second, each project with pending answers
 *   is merged in batches, unless another process is merging it (the lock is tried, not waited for).
 *   Answers written by `cli import` are merged there too: reads only ever go through a server, which
 *   always runs one.
 * - `mergeProject`: everything pending of one project, waiting for its lock (tests, benchmarks).
 *
 * On the embedded database there is one connection: a merge takes at most 1,000 answers there, so that
 * it never holds the connection for more than a second or two (requests wait for it meanwhile).
 *
 * Merges change the rollups the analytics read: once the answers merged since the planner's statistics
 * were last refreshed are a meaningful share of all (src/Database/PlannerStatistics.ts), the merger
 * refreshes them; the background merger also refreshes them every hour.
 */

/** Answers of a project merged per transaction, on PostgreSQL and on the embedded database. */
export const MERGE_BATCH = { server: 5_000, embedded: 1_000 } as const

/** How often the background merger looks for pending answers. */
const PASS_EVERY = Duration.seconds(1)

const ProjectRow = Schema.Struct({ project_id: Id })
const MergedRow = Schema.Struct({ merged: Schema.Int })

const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const settings = yield* Settings
  const embedded = Option.isNone(settings.databaseUrl)
  const batchSize = embedded ? MERGE_BATCH.embedded : MERGE_BATCH.server
  const counter = yield* PlannerStatistics.makeMergeCounter
  const statisticsAfter = (merged: number) => Effect.asVoid(Effect.provideService(counter.merged(merged), SqlClient.SqlClient, sql))

  /** One merge of up to `batch` answers: how many, or -1 when the lock was busy and `wait` is false. */
  const mergeOnce = SqlSchema.single({
    Request: Schema.Struct({ projectId: Schema.Number, batch: Schema.Number, wait: Schema.Boolean }),
    Result: MergedRow,
    execute: ({ batch, projectId, wait }) => sql`SELECT analytics_merge_pending(${projectId}, ${batch}, ${wait}) AS merged`
  })
  const projectsWithPending = SqlSchema.findAll({
    Request: Schema.Void,
    Result: ProjectRow,
    execute: () => sql`SELECT DISTINCT project_id FROM analytics_pending ORDER BY project_id`
  })

  const merge = (projectId: number, batch: number, wait: boolean) =>
    Effect.map(mergeOnce({ projectId, batch, wait }), (row) => row.merged)

  /** Every pending answer of the project merged, waiting for its lock; how many. */
  const mergeProject = (projectId: number) =>
    Effect.gen(function*() {
      let total = 0
      while (true) {
        const merged = yield* merge(projectId, batchSize, true)
        total += merged
        if (merged < batchSize) break
      }
      yield* statisticsAfter(total)
      return total
    }).pipe(orDefect)

  /** One pass over the projects with pending answers; how many were merged. */
  const pass = Effect.gen(function*() {
    let total = 0
    for (const { project_id } of yield* projectsWithPending()) {
      while (true) {
        const merged = yield* merge(project_id, batchSize, false)
        if (merged > 0) total += merged
        if (merged < batchSize) break
      }
    }
    yield* statisticsAfter(total)
    return total
  })

  /** The background merger: a pass every second; a failure (the database away) is logged, and retried. */
  const loop = pass.pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("analytics merge failed; retrying", cause)),
    Effect.zipRight(Effect.sleep(PASS_EVERY)),
    Effect.forever
  )

  /** The planner's statistics refreshed every hour at the latest, whatever was merged. */
  const statistics = PlannerStatistics.hourly.pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.provideService(Settings, settings))

  return Merger.of({ mergeProject, loop: Effect.zipRight(Effect.fork(statistics), loop) })
})

export class Merger extends Context.Tag("AnalyticsMerger")<Merger, {
  /** Every pending answer of the project merged, waiting for the project's rollup lock; how many. */
  readonly mergeProject: (projectId: number) => Effect.Effect<number>
  /**
   * A pass over every project with pending answers (skipping those another process is merging) every
   * second, forever, and the planner's statistics refreshed every hour; failures logged.
   */
  readonly loop: Effect.Effect<never>
}>() {}

/** The merger on the SQL database (needs a `SqlClient`, and the `Settings` saying which database it is). */
export const layerSql = Layer.effect(Merger, make)

/** The background merger of a process: a fiber of the layer's scope, interrupted at shutdown. */
export const background = Layer.scopedDiscard(Effect.flatMap(Merger, (merger) => Effect.forkScoped(merger.loop))).pipe(
  Layer.provide(layerSql)
)
