import { SqlClient, SqlSchema, type Statement } from "@effect/sql"
import { Array as Arr, Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { Count, decodeRows, orDefect, rowOf } from "../../Database/Rows.ts"
import { Id, Timestamp } from "../../Domain/Common.ts"
import { Monitor } from "../../Domain/Monitor.ts"
import type { Page, Window } from "../../Domain/Page.ts"
import { Platform } from "../../Domain/Platform.ts"
import { JobCounts, type JobStatus, jobStatuses, Run, type RunTrigger } from "../../Domain/Run.ts"
import { blockedPlatforms, type Coverage, coverageOf, WorkersRepo } from "../Workers.ts"

/** The reason of every job of a slot no scheduler covered while it lasted. */
export const MISSED_REASON = "missed: no worker ran during this slot"

export interface NewRun {
  readonly slot: Date
  readonly trigger: RunTrigger
  /** After it, the run's unfinished jobs are not asked any more (skipped as missed); null: never. */
  readonly deadline: Date | null
}

/** An active daily or weekly monitor, with the slot of its latest run other than a manual one. */
export interface ScheduledMonitor {
  readonly monitor: Monitor
  readonly lastSlot: Date | null
}

export class RunsRepo extends Context.Tag("RunsRepo")<RunsRepo, {
  /**
   * The monitor's runs, newest slot first (then id descending), with their job counts and the platforms
   * of their pending jobs that no live worker answers (Workers.ts).
   */
  readonly list: (monitorId: number, window: Window) => Effect.Effect<Page<Run>>
  /**
   * The run of the monitor for the slot, created with one job per prompt × platform of the monitor as it
   * is now, in one transaction; or the run already there (`created: false`). A `missed` run's jobs are
   * all skipped, and a run without a job to do is completed at once.
   */
  readonly create: (monitor: Monitor, run: NewRun) => Effect.Effect<{ readonly run: Run; readonly created: boolean }>
  /** Every active monitor on a daily or weekly schedule, across projects: what the scheduler covers. */
  readonly scheduled: () => Effect.Effect<ReadonlyArray<ScheduledMonitor>>
}>() {}

/**
 * A run with the counts of its jobs side by side, as the query gives it, and the platforms of its pending
 * jobs, those of the real providers and those of the simulated platform apart.
 */
const RunRow = rowOf(Schema.Struct({
  ...Run.omit("jobs", "blocked_platforms").fields,
  ...JobCounts.fields,
  pending_real: Schema.Array(Platform),
  pending_simulated: Schema.Array(Platform)
}))
type RunRow = typeof RunRow.Type

const ScheduledRow = rowOf(Schema.Struct({ ...Monitor.fields, last_slot: Schema.NullOr(Timestamp) }))

export const runOfRow = (
  { failed, pending, pending_real, pending_simulated, running, skipped, succeeded, total, ...run }: RunRow,
  coverage: Coverage
): Run => ({
  id: run.id,
  monitor_id: run.monitor_id,
  slot: run.slot,
  trigger: run.trigger,
  status: run.status,
  jobs: { total, pending, running, succeeded, failed, skipped },
  blocked_platforms: blockedPlatforms({ real: pending_real, simulated: pending_simulated }, coverage),
  completed_at: run.completed_at,
  created_at: run.created_at,
  updated_at: run.updated_at
})

const statusCount = (status: JobStatus) => `count(j.id) FILTER (WHERE j.status = '${status}') AS ${status}`

export const layerSql = Layer.effect(
  RunsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const workers = yield* WorkersRepo
    /** What the live workers answer now, read only when some run has a pending job. */
    const coverageFor = (rows: ReadonlyArray<RunRow>) =>
      rows.some((row) => row.pending > 0)
        ? Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.map(workers.status(new Date(now)), (status) => coverageOf(status.alive)))
        : Effect.succeed(coverageOf([]))
    const pendingOn = (simulated: boolean) =>
      sql.literal(
        `coalesce(array_agg(DISTINCT j.platform ORDER BY j.platform) FILTER (WHERE j.status = 'pending' AND j.simulated IS ${simulated ? "" : "NOT "}TRUE), '{}')`
      )
    /** The runs `runs` selects (a query of collector_runs rows), with their job counts, newest slot first. */
    const withCounts = (runs: Statement.Fragment) =>
      decodeRows(
        RunRow,
        sql`
          SELECT r.id, r.monitor_id, r.slot, r.trigger, r.status, r.completed_at, r.created_at, r.updated_at,
            count(j.id) AS total, ${sql.literal(jobStatuses.map(statusCount).join(", "))},
            ${pendingOn(false)} AS pending_real, ${pendingOn(true)} AS pending_simulated
          FROM (${runs}) r LEFT JOIN collector_jobs j ON j.run_id = r.id
          GROUP BY r.id, r.monitor_id, r.slot, r.trigger, r.status, r.completed_at, r.created_at, r.updated_at
          ORDER BY r.slot DESC, r.id DESC`
      ).pipe(Effect.flatMap((rows) => Effect.map(coverageFor(rows), (coverage) => rows.map((row) => runOfRow(row, coverage)))))

    /** The run of a slot, which exists (created or found in this transaction). */
    const findRun = (monitorId: number, slot: Date) =>
      withCounts(sql`SELECT * FROM collector_runs WHERE monitor_id = ${monitorId} AND slot = ${slot}`).pipe(Effect.flatMap(Arr.head))

    const count = SqlSchema.single({
      Request: Schema.Number,
      Result: Count,
      execute: (monitorId) => sql`SELECT count(*) AS total FROM collector_runs WHERE monitor_id = ${monitorId}`
    })
    const insertRun = SqlSchema.findOne({
      Request: Schema.Struct({ projectId: Id, monitorId: Id, slot: Schema.DateFromSelf, trigger: Schema.String }),
      Result: Schema.Struct({ id: Id }),
      execute: ({ monitorId, projectId, slot, trigger }) =>
        sql`
          INSERT INTO collector_runs (project_id, monitor_id, slot, trigger)
          VALUES (${projectId}, ${monitorId}, ${slot}, ${trigger})
          ON CONFLICT (monitor_id, slot) DO NOTHING
          RETURNING id`
    })

    /** The run of a slot made with its jobs, or the one there, in one transaction. */
    const createRun = (monitor: Monitor, run: NewRun) =>
      Effect.gen(function*() {
        const inserted = yield* insertRun({ projectId: monitor.project_id, monitorId: monitor.id, slot: run.slot, trigger: run.trigger })
        // Already there (the slot's run exists): that one, as it is.
        if (Option.isNone(inserted)) return { run: yield* findRun(monitor.id, run.slot), created: false }
        const runId = inserted.value.id
        const missed = run.trigger === "missed"
        // The prompts and platforms of the monitor as they are in the database now, in one statement.
        // A prompt already asked on a platform for this slot (under another monitor) is not asked again.
        yield* sql`
          INSERT INTO collector_jobs (project_id, run_id, prompt_id, platform, slot, status, reason, deadline, finished_at, simulated)
          SELECT p.project_id, ${runId}, p.id, pl.platform, ${run.slot},
            ${missed ? "skipped" : "pending"}, ${missed ? MISSED_REASON : null}, ${run.deadline},
            ${missed ? sql`now()` : sql`NULL`}, m.simulated
          FROM prompts p
          JOIN monitors m ON m.id = p.monitor_id
          CROSS JOIN LATERAL unnest(m.platforms) WITH ORDINALITY AS pl (platform, position)
          WHERE p.monitor_id = ${monitor.id}
          ORDER BY p.id, pl.position
          ON CONFLICT (prompt_id, platform, slot) DO NOTHING`
        yield* sql`
          UPDATE collector_runs SET status = 'completed', completed_at = now(), updated_at = now()
          WHERE id = ${runId}
            AND NOT EXISTS (SELECT 1 FROM collector_jobs WHERE run_id = ${runId} AND status IN ('pending', 'running'))`
        return { run: yield* findRun(monitor.id, run.slot), created: true }
      }).pipe(sql.withTransaction, orDefect)

    return RunsRepo.of({
      list: (monitorId, window) =>
        Effect.all({
          // The page of runs first, then the counts of its jobs only.
          rows: withCounts(sql`
            SELECT * FROM collector_runs WHERE monitor_id = ${monitorId}
            ORDER BY slot DESC, id DESC LIMIT ${window.limit} OFFSET ${window.offset}`),
          total: Effect.map(count(monitorId), (row) => row.total)
        }).pipe(orDefect),
      // The span is the repository's (`RunsRepo.create`, Repositories.ts); the ids are set on it here.
      create: (monitor, run) =>
        Effect.gen(function*() {
          yield* Effect.annotateCurrentSpan({
            "project.id": monitor.project_id,
            "monitor.id": monitor.id,
            "run.slot": run.slot.toISOString(),
            "run.trigger": run.trigger
          })
          const made = yield* createRun(monitor, run)
          yield* Effect.annotateCurrentSpan({ "run.id": made.run.id, "run.created": made.created, "jobs": made.run.jobs.total })
          return made
        }),
      scheduled: () =>
        decodeRows(
          ScheduledRow,
          sql`
            SELECT m.id, m.project_id, m.name, m.country, m.platforms, m.schedule, m.active, m.simulated, m.created_at, m.updated_at,
              (SELECT max(r.slot) FROM collector_runs r WHERE r.monitor_id = m.id AND r.trigger <> 'manual') AS last_slot
            FROM monitors m
            WHERE m.active AND m.schedule IN ('daily', 'weekly')
            ORDER BY m.id`
        ).pipe(
          Effect.map((rows) => rows.map(({ last_slot, ...monitor }) => ({ monitor, lastSlot: last_slot }))),
          orDefect
        )
    })
  })
)

