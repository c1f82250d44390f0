import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { lockProject } from "../Database/ProjectLocks.ts"
import { decodeRows, IdRow, orDefect, rowOf } from "../Database/Rows.ts"
import { Id, Timestamp } from "../Domain/Common.ts"
import { Platform } from "../Domain/Platform.ts"
import { type RunTrigger, runTriggers } from "../Domain/Run.ts"
import type { NotFound } from "../Domain/Errors.ts"
import type { Response } from "../Domain/Response.ts"

/**
 * The worker's side of the collector tables: claiming jobs under a lease, and finishing them. Every
 * instant comes from the caller's clock (Effect's `Clock`), so leases and deadlines follow the same time
 * as the scheduler, and tests can move it.
 *
 * Exactly once (docs/collector.md): a claim sets the job `running` and bumps `attempts`; that attempt
 * number is the claim's fencing token. Finishing locks the job row and goes on only if it is still
 * `running` at that attempt, so a worker whose lease expired and whose job was claimed again stores
 * nothing. The response (written by `Ingestion.store`, which the worker hands over) and the job's
 * `succeeded` are written in one transaction.
 *
 * Each method is a span (`JobsRepo.claim`, ...) carrying the job's ids: `job.id`, `run.id`,
 * `project.id`, `prompt.id`, `platform`, `attempt`.
 */

export const SLOT_ENDED_REASON = "missed: the slot ended before a worker ran it"

/** How long a job without a deadline (manual runs, backfills) waits for a worker that can ask its platform. */
export const UNANSWERED_MS = 24 * 60 * 60 * 1000
export const UNANSWERED_REASON = "not asked: no worker answered this platform within 24 hours"

/** A claimed job with everything needed to ask its question. */
export interface ClaimedJob {
  readonly id: number
  readonly runId: number
  readonly projectId: number
  readonly monitorId: number
  readonly promptId: number
  readonly prompt: string
  readonly platform: Platform
  readonly country: string
  readonly slot: Date
  readonly trigger: RunTrigger
  /** This claim's attempt: the fencing token of `succeed` and `finish`. */
  readonly attempt: number
  /** The project's own brand (projects.brand_id). */
  readonly ownBrandId: number | null
  /** A job of a simulated monitor: answered by the simulated platform, and by nothing else. */
  readonly simulated: boolean
}

/** How an attempt ended without an answer to store. `pending` puts the job back for a later attempt. */
export type Outcome =
  | { readonly status: "failed" | "skipped"; readonly reason: string }
  | { readonly status: "pending"; readonly reason: string; readonly notBefore: Date }

export interface ClaimOptions {
  readonly now: Date
  readonly leaseMs: number
  readonly limit: number
  readonly maxAttempts: number
  /**
   * The platforms this worker asks with a provider key: it claims their jobs of monitors that are not
   * simulated. The others wait for another worker.
   */
  readonly platforms: ReadonlyArray<Platform>
  /** The platforms this worker answers with the simulated platform: it claims their jobs of simulated monitors only. */
  readonly simulatedPlatforms?: ReadonlyArray<Platform>
  /** Only this project's jobs (the demo's own worker); every project's when absent. */
  readonly projectId?: number
}

export class JobsRepo extends Context.Tag("JobsRepo")<JobsRepo, {
  /**
   * Closes what time has settled, then claims up to `limit` jobs, oldest first: pending ones due now, and
   * running ones whose lease expired (their worker is gone). Jobs of a slot that has ended are skipped
   * as missed; jobs whose lease expired on their last attempt are failed. `FOR UPDATE SKIP LOCKED`:
   * concurrent workers never claim the same job.
   */
  readonly claim: (options: ClaimOptions) => Effect.Effect<ReadonlyArray<ClaimedJob>>
  /**
   * Runs `store` (the answer's write: `Ingestion.store`) and marks the job succeeded with the response it
   * stored, in one transaction; false, and `store` never run, when this claim is no longer the job's.
   */
  readonly succeed: (
    job: ClaimedJob,
    store: Effect.Effect<ReadonlyArray<Response>, NotFound>,
    now: Date
  ) => Effect.Effect<boolean>
  /** Records an attempt that stored nothing; false when this claim is no longer the job's. */
  readonly finish: (job: ClaimedJob, outcome: Outcome, now: Date) => Effect.Effect<boolean>
}>() {}

/** A claimed job with what asking it needs, as the claim's query gives it. */
const ClaimedRow = rowOf(Schema.Struct({
  id: Id,
  run_id: Id,
  project_id: Id,
  monitor_id: Id,
  prompt_id: Id,
  prompt: Schema.String,
  platform: Platform,
  country: Schema.String,
  slot: Timestamp,
  trigger: Schema.Literal(...runTriggers),
  attempts: Schema.Int,
  brand_id: Schema.NullOr(Id),
  simulated: Schema.Boolean
}))

export const layerSql = Layer.effect(
  JobsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Completes the runs of these ids that have no job left to do. */
    const completeRuns = (runIds: ReadonlyArray<number>, now: Date) =>
      runIds.length === 0 ? Effect.void : sql`
        UPDATE collector_runs r SET status = 'completed', completed_at = ${now}, updated_at = ${now}
        WHERE r.id = ANY(${runIds}::bigint[]) AND r.status = 'running'
          AND NOT EXISTS (SELECT 1 FROM collector_jobs j WHERE j.run_id = r.id AND j.status IN ('pending', 'running'))`.pipe(Effect.asVoid)

    /**
     * Runs `body` on the job if this claim still holds it: the run row is locked first (so two workers
     * finishing the last two jobs of a run see each other's result), then the job row. Before them, the
     * locks every write of the project takes first (Database/ProjectLocks.ts), the job's monitor and
     * prompt among them: their deletion, which takes the run and the job along, waits for this or came
     * first.
     */
    const whileClaimed = <A, E>(job: ClaimedJob, now: Date, body: Effect.Effect<A, E>) =>
      Effect.gen(function*() {
        yield* lockProject(sql, job.projectId)
        yield* sql`SELECT id FROM monitors WHERE id = ${job.monitorId} FOR KEY SHARE`
        yield* sql`SELECT id FROM prompts WHERE id = ${job.promptId} FOR KEY SHARE`
        yield* sql`SELECT id FROM collector_runs WHERE id = ${job.runId} FOR UPDATE`
        const held = yield* sql`
          SELECT id FROM collector_jobs WHERE id = ${job.id} AND status = 'running' AND attempts = ${job.attempt}
          FOR UPDATE`
        if (held.length === 0) return false
        yield* body
        yield* completeRuns([job.runId], now)
        return true
      }).pipe(sql.withTransaction, orDefect)

    const claimJobs = ({ leaseMs, limit, maxAttempts, now, platforms, projectId, simulatedPlatforms = [] }: ClaimOptions) =>
      Effect.gen(function*() {
        // Runs first, in id order, then their jobs: the same order as `whileClaimed`, so no deadlock.
        const missed = sql`(j.status = 'pending' AND j.deadline < ${now})`
        // A job without a deadline (a manual run's, a backfill's) that no worker could ask (its platform
        // configured nowhere) for a day since it was made.
        const unanswered = sql`(j.status = 'pending' AND j.deadline IS NULL AND j.attempts = 0
          AND j.created_at < ${new Date(now.getTime() - UNANSWERED_MS)})`
        // A pending job out of attempts only exists when COLLECTOR_MAX_ATTEMPTS was lowered meanwhile.
        const settled = sql`
          ${missed}
          OR ${unanswered}
          OR (j.status = 'pending' AND j.attempts >= ${maxAttempts})
          OR (j.status = 'running' AND j.lease_expires_at < ${now} AND j.attempts >= ${maxAttempts})`
        const runs = yield* decodeRows(
          IdRow,
          sql`
            SELECT id FROM collector_runs
            WHERE id IN (SELECT j.run_id FROM collector_jobs j WHERE ${settled})
            ORDER BY id FOR UPDATE`
        )
        if (runs.length > 0) {
          yield* sql`
            UPDATE collector_jobs j SET
              status = CASE WHEN ${missed} OR ${unanswered} THEN 'skipped' ELSE 'failed' END,
              reason = CASE
                WHEN ${missed} THEN ${SLOT_ENDED_REASON}
                WHEN ${unanswered} THEN ${UNANSWERED_REASON}
                WHEN j.status = 'pending' THEN coalesce(j.reason, 'no attempts left')
                ELSE 'abandoned: the worker stopped answering on attempt ' || j.attempts || ' of ' || ${maxAttempts} END,
              lease_expires_at = NULL, finished_at = ${now}, updated_at = ${now}
            WHERE j.run_id = ANY(${runs.map((run) => run.id)}::bigint[]) AND (${settled})`
          yield* completeRuns(runs.map((run) => run.id), now)
        }
        // A simulated answer only for a simulated monitor's job, a provider's only for another's.
        const answerable = [
          ...(platforms.length === 0 ? [] : [sql`(simulated IS NOT TRUE AND platform IN ${sql.in(platforms)})`]),
          ...(simulatedPlatforms.length === 0 ? [] : [sql`(simulated IS TRUE AND platform IN ${sql.in(simulatedPlatforms)})`])
        ]
        if (answerable.length === 0) return []
        const rows = yield* decodeRows(
          ClaimedRow,
          sql`
          WITH claimed AS (
            UPDATE collector_jobs SET
              status = 'running', attempts = attempts + 1, lease_expires_at = ${new Date(now.getTime() + leaseMs)},
              started_at = ${now}, not_before = NULL, updated_at = ${now}
            WHERE id IN (
              SELECT id FROM collector_jobs
              WHERE status IN ('pending', 'running') AND attempts < ${maxAttempts}
                AND ${sql.or(answerable)}
                ${projectId === undefined ? sql`` : sql`AND project_id = ${projectId}`}
                AND (status = 'pending' OR lease_expires_at < ${now})
                AND (not_before IS NULL OR not_before <= ${now})
                AND (deadline IS NULL OR deadline >= ${now})
              ORDER BY id LIMIT ${limit}
              FOR UPDATE SKIP LOCKED
            )
            RETURNING id, run_id, project_id, prompt_id, platform, slot, attempts, simulated IS TRUE AS simulated
          )
          SELECT c.id, c.run_id, c.project_id, r.monitor_id, c.prompt_id, p.text AS prompt, c.platform, m.country,
            c.slot, r.trigger, c.attempts, pr.brand_id, c.simulated
          FROM claimed c
          JOIN collector_runs r ON r.id = c.run_id
          JOIN prompts p ON p.id = c.prompt_id
          JOIN monitors m ON m.id = r.monitor_id
          JOIN projects pr ON pr.id = c.project_id
          ORDER BY c.id`
        )
        return rows.map((row): ClaimedJob => ({
          id: row.id,
          runId: row.run_id,
          projectId: row.project_id,
          monitorId: row.monitor_id,
          promptId: row.prompt_id,
          prompt: row.prompt,
          platform: row.platform,
          country: row.country,
          slot: row.slot,
          trigger: row.trigger,
          attempt: row.attempts,
          ownBrandId: row.brand_id,
          simulated: row.simulated
        }))
      }).pipe(sql.withTransaction, orDefect)

    const claim = Effect.fn("JobsRepo.claim")(function*(options: ClaimOptions) {
      yield* Effect.annotateCurrentSpan({ ...(options.projectId === undefined ? {} : { "project.id": options.projectId }), "jobs.limit": options.limit })
      const claimed = yield* claimJobs(options)
      yield* Effect.annotateCurrentSpan("job.ids", claimed.map((job) => job.id))
      return claimed
    })

    const succeed = Effect.fn("JobsRepo.succeed")(
      function*(job: ClaimedJob, store: Effect.Effect<ReadonlyArray<Response>, NotFound>, now: Date) {
        yield* Effect.annotateCurrentSpan(spanOfJob(job))
        return yield* whileClaimed(
          job,
          now,
          Effect.gen(function*() {
            // A project deleted meanwhile takes its jobs with it: nothing to store.
            const [stored] = yield* store.pipe(Effect.catchTag("NotFound", () => Effect.succeed([])))
            if (stored === undefined) return
            yield* sql`
              UPDATE collector_jobs SET status = 'succeeded', reason = NULL, response_id = ${stored.id}, simulated = ${job.simulated},
                lease_expires_at = NULL, finished_at = ${now}, updated_at = ${now}
              WHERE id = ${job.id}`
          })
        )
      }
    )

    const finish = Effect.fn("JobsRepo.finish")(
      function*(job: ClaimedJob, outcome: Outcome, now: Date) {
        yield* Effect.annotateCurrentSpan({ ...spanOfJob(job), "job.outcome": outcome.status })
        return yield* whileClaimed(
          job,
          now,
          sql`
            UPDATE collector_jobs SET status = ${outcome.status}, reason = ${outcome.reason.slice(0, 1000)},
              not_before = ${outcome.status === "pending" ? outcome.notBefore : null},
              lease_expires_at = NULL, finished_at = ${outcome.status === "pending" ? null : now}, updated_at = ${now}
            WHERE id = ${job.id}`
        )
      }
    )

    return JobsRepo.of({ claim, succeed, finish })
  })
)

/** The attributes of a job's spans: the ids that find it, its run, its project and its question. */
export const spanOfJob = (job: ClaimedJob): Record<string, unknown> => ({
  "job.id": job.id,
  "run.id": job.runId,
  "project.id": job.projectId,
  "prompt.id": job.promptId,
  "platform": job.platform,
  "attempt": job.attempt
})
