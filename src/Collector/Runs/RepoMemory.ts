import { Clock, Effect, Layer } from "effect"
import { jobStatuses, type Run } from "../../Domain/Run.ts"
import { type JobRow, MemoryStore, pageOf, type RunRow } from "../../Memory/Store.ts"
import { blockedPlatforms, type Coverage, coverageOf, WorkersRepo } from "../Workers.ts"
import { MISSED_REASON, RunsRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  RunsRepo,
  Effect.gen(function*() {
    const db = yield* MemoryStore
    const workers = yield* WorkersRepo
    const coverage = Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.map(workers.status(new Date(now)), (status) => coverageOf(status.alive)))
    const view = (row: RunRow, coverage: Coverage): Run => {
      const jobs = [...db.table("collector_jobs").values()].filter((job) => job.run_id === row.id)
      const counts = Object.fromEntries(jobStatuses.map((status) => [status, jobs.filter((job) => job.status === status).length]))
      const pending = jobs.filter((job) => job.status === "pending")
      return {
        id: row.id,
        monitor_id: row.monitor_id,
        slot: row.slot,
        trigger: row.trigger,
        status: row.status,
        jobs: { total: jobs.length, ...counts } as Run["jobs"],
        blocked_platforms: blockedPlatforms({
          real: pending.filter((job) => !job.simulated).map((job) => job.platform),
          simulated: pending.filter((job) => job.simulated).map((job) => job.platform)
        }, coverage),
        completed_at: row.completed_at,
        created_at: row.created_at,
        updated_at: row.updated_at
      }
    }
    const newestFirst = (a: RunRow, b: RunRow) => b.slot.getTime() - a.slot.getTime() || b.id - a.id
    const ofMonitor = (monitorId: number) => [...db.table("collector_runs").values()].filter((run) => run.monitor_id === monitorId)

    return RunsRepo.of({
      list: (monitorId, window) =>
        Effect.map(coverage, (coverage) => {
          const page = pageOf(ofMonitor(monitorId).sort(newestFirst), window)
          return { rows: page.rows.map((row) => view(row, coverage)), total: page.total }
        }),
      create: (monitor, input) =>
        Effect.map(coverage, (coverage) => {
          const existing = ofMonitor(monitor.id).find((run) => run.slot.getTime() === input.slot.getTime())
          if (existing) return { run: view(existing, coverage), created: false }
          const now = db.now()
          const missed = input.trigger === "missed"
          const run: RunRow = {
            id: db.nextId("collector_runs"),
            project_id: monitor.project_id,
            monitor_id: monitor.id,
            slot: input.slot,
            trigger: input.trigger,
            status: "running",
            completed_at: null,
            created_at: now,
            updated_at: now
          }
          db.table("collector_runs").set(run.id, run)
          const current = db.table("monitors").get(monitor.id)!
          const prompts = [...db.table("prompts").values()].filter((prompt) => prompt.monitor_id === monitor.id).sort((a, b) => a.id - b.id)
          for (const prompt of prompts) {
            for (const platform of current.platforms) {
              const taken = [...db.table("collector_jobs").values()].some((job) =>
                job.prompt_id === prompt.id && job.platform === platform && job.slot.getTime() === input.slot.getTime()
              )
              if (taken) continue
              const job: JobRow = {
                id: db.nextId("collector_jobs"),
                run_id: run.id,
                prompt_id: prompt.id,
                platform,
                slot: input.slot,
                status: missed ? "skipped" : "pending",
                reason: missed ? MISSED_REASON : null,
                simulated: current.simulated
              }
              db.table("collector_jobs").set(job.id, job)
            }
          }
          const open = [...db.table("collector_jobs").values()].some((job) => job.run_id === run.id && (job.status === "pending" || job.status === "running"))
          if (!open) db.table("collector_runs").set(run.id, { ...run, status: "completed", completed_at: now })
          return { run: view(db.table("collector_runs").get(run.id)!, coverage), created: true }
        }),
      scheduled: () =>
        Effect.sync(() =>
          [...db.table("monitors").values()]
            .filter((monitor) => monitor.active && monitor.schedule !== "manual")
            .sort((a, b) => a.id - b.id)
            .map((monitor) => {
              const slots = ofMonitor(monitor.id).filter((run) => run.trigger !== "manual").map((run) => run.slot.getTime())
              return { monitor, lastSlot: slots.length === 0 ? null : new Date(Math.max(...slots)) }
            })
        )
    })
  })
)
