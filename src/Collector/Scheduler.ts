import { Clock, type Duration, Effect } from "effect"
import type { Monitor } from "../Domain/Monitor.ts"
import { RunsRepo } from "./Runs/Repo.ts"
import { dueSlots, type ScheduledSchedule, slotEnd, slotOf } from "./Slots.ts"

/**
 * The scheduler: on each tick, every active daily or weekly monitor gets the run of its current slot,
 * and a `missed` run (every job skipped) for each past slot, within `lookbackMs`, that has none. Runs are
 * created with `ON CONFLICT DO NOTHING`, so any number of schedulers (one per process) may tick at once.
 */

export interface SchedulerOptions {
  /** How far back a slot without a run is recorded as missed. */
  readonly lookbackMs: number
}

export const make = (options: SchedulerOptions) =>
  Effect.gen(function*() {
    const runs = yield* RunsRepo

    const cover = (monitor: Monitor, lastSlot: Date | null, now: Date) => {
      const schedule = monitor.schedule as ScheduledSchedule
      const current = slotOf(schedule, now).getTime()
      // The usual tick: the current slot has its run, and so has every slot before it.
      if (lastSlot !== null && lastSlot.getTime() >= current) return Effect.void
      // Slots before the monitor's last change are not claimed as missed: it may have been inactive or
      // on another schedule then.
      const slots = dueSlots(schedule, now, { since: monitor.updated_at, lookbackMs: options.lookbackMs })
      return createRuns(monitor, slots, current)
    }

    /** The runs of these slots of the monitor: the current one scheduled, any earlier one missed. */
    const createRuns = Effect.fn("CollectorScheduler.createRuns")(function*(monitor: Monitor, slots: ReadonlyArray<Date>, current: number) {
      yield* Effect.annotateCurrentSpan({ "project.id": monitor.project_id, "monitor.id": monitor.id, "slots": slots.length })
      const schedule = monitor.schedule as ScheduledSchedule
      yield* Effect.forEach(slots, (slot) =>
        runs.create(monitor, {
          slot,
          trigger: slot.getTime() === current ? "schedule" : "missed",
          deadline: slotEnd(schedule, slot)
        }).pipe(
          Effect.tap(({ created, run }) =>
            !created ? Effect.void : Effect.logInfo(run.trigger === "missed" ? "recorded a missed run" : "created a run").pipe(
              Effect.annotateLogs({ monitor_id: monitor.id, run_id: run.id, slot: run.slot.toISOString(), jobs: run.jobs.total })
            )
          )
        ), { discard: true })
    })

    /** One tick: the runs every scheduled monitor is due. */
    const tick = Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      const monitors = yield* runs.scheduled()
      yield* Effect.forEach(monitors, ({ lastSlot, monitor }) => cover(monitor, lastSlot, now), { discard: true })
    }).pipe(Effect.withSpan("CollectorScheduler.tick", { captureStackTrace: false }))

    /** Ticks now and every `every`, forever; a failed tick is logged and the next one tries again. */
    const loop = (every: Duration.DurationInput) =>
      tick.pipe(
        Effect.catchAllCause((cause) => Effect.logError("the collector scheduler tick failed", cause)),
        Effect.zipRight(Effect.sleep(every)),
        Effect.forever
      )

    return { tick, loop } as const
  })
