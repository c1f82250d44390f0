import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, TestClock } from "effect"
import { RunsRepo } from "../../../src/Collector/Runs/Repo.ts"
import * as Scheduler from "../../../src/Collector/Scheduler.ts"
import { MonitorsRepo } from "../../../src/Monitors/Repo.ts"
import { PromptsRepo } from "../../../src/Prompts/Repo.ts"
import * as Repositories from "../../../src/Repositories.ts"
import { migratedSql } from "../../support/Databases.ts"
import { recordingSpans, spansNamed } from "../../support/Spans.ts"
import { sqlBackend } from "../../support/TestServer.ts"
import { monitorWithPrompts } from "./fixtures.ts"

const implementations = [
  ["memory", Repositories.layerMemory],
  [sqlBackend, Repositories.layerSql.pipe(Layer.provide(migratedSql))]
] as const

const DAY = 86_400_000
const lookbackDays = 7

/** The test clock at the real now (the repositories stamp monitors with the real clock), then `plusMs` on. */
const clockAt = (plusMs: number) => TestClock.setTime(Date.now() + plusMs)

const runsOf = (monitorId: number) => Effect.flatMap(RunsRepo, (runs) => runs.list(monitorId, { offset: 0, limit: 100 }))

const utcMidnight = (ms: number) => new Date(Math.floor(ms / DAY) * DAY)

/** Waits (in real time: the test clock stands still) until `check` holds, at most two seconds. */
const eventually = (check: Effect.Effect<boolean, unknown, RunsRepo>) =>
  Effect.gen(function*() {
    for (let i = 0; i < 200; i++) {
      if (yield* check) return
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))
    }
    expect.fail("the condition never held")
  })

for (const [name, implementation] of implementations) {
  layer(implementation, { timeout: 60_000 })(`collector scheduler (${name})`, (it) => {
    const tick = Effect.flatMap(Scheduler.make({ lookbackMs: lookbackDays * DAY }), (scheduler) => scheduler.tick)

    it.effect("a daily monitor gets one run for the UTC day, with a pending job per prompt × platform, however often it ticks", () =>
      Effect.gen(function*() {
        const { monitor } = yield* monitorWithPrompts({ schedule: "daily", prompts: 3, platforms: ["chatgpt", "claude"] })
        yield* clockAt(0)
        yield* tick
        yield* tick
        const page = yield* runsOf(monitor.id)
        expect(page.total).toBe(1)
        const [run] = page.rows
        expect(run!.slot).toEqual(utcMidnight(Date.now()))
        expect(run!.trigger).toBe("schedule")
        expect(run!.status).toBe("running")
        expect(run!.jobs).toEqual({ total: 6, pending: 6, running: 0, succeeded: 0, failed: 0, skipped: 0 })
      }))

    it.effect("a tick's spans: the tick, the runs made for a monitor within it, each run's creation with its ids", () =>
      Effect.gen(function*() {
        const { monitor, project } = yield* monitorWithPrompts({ schedule: "daily", prompts: 1, platforms: ["chatgpt"] })
        yield* clockAt(0)
        const { spans } = yield* recordingSpans(tick)
        expect(spansNamed(spans, "CollectorScheduler.tick").map((span) => span.ancestors)).toEqual([[]])
        // The tick covers every scheduled monitor of the shared database: this one's spans.
        const made = spansNamed(spans, "CollectorScheduler.createRuns").filter((span) => span.attributes["monitor.id"] === monitor.id)
        expect(made).toEqual([{
          name: "CollectorScheduler.createRuns",
          attributes: expect.objectContaining({ "project.id": project.id, "monitor.id": monitor.id, "slots": 1 }),
          ancestors: ["CollectorScheduler.tick"]
        }])
        const [run] = (yield* runsOf(monitor.id)).rows
        const creations = spansNamed(spans, "RunsRepo.create").filter((span) => span.attributes["monitor.id"] === monitor.id)
        // The SQL repository sets the run's ids on its span; the in-memory one, a reference for results, does not.
        if (name !== "memory") {
          expect(creations).toEqual([{
            name: "RunsRepo.create",
            attributes: expect.objectContaining({
              "project.id": project.id,
              "monitor.id": monitor.id,
              "run.id": run!.id,
              "run.trigger": "schedule",
              "run.slot": run!.slot.toISOString(),
              "run.created": true,
              "jobs": 1
            }),
            ancestors: ["CollectorScheduler.createRuns", "CollectorScheduler.tick"]
          }])
        }
      }))

    it.effect("a tick the next day creates the next day's run, and ticks in between create nothing", () =>
      Effect.gen(function*() {
        const { monitor } = yield* monitorWithPrompts({ schedule: "daily" })
        yield* clockAt(0)
        yield* tick
        yield* TestClock.adjust(Duration.minutes(1))
        yield* tick
        expect((yield* runsOf(monitor.id)).total).toBe(1)
        yield* clockAt(DAY)
        yield* tick
        const page = yield* runsOf(monitor.id)
        expect(page.rows.map((run) => [run.slot.getTime(), run.trigger])).toEqual([
          [utcMidnight(Date.now() + DAY).getTime(), "schedule"],
          [utcMidnight(Date.now()).getTime(), "schedule"]
        ])
      }))

    it.effect("a weekly monitor's run stands for the ISO week's Monday", () =>
      Effect.gen(function*() {
        const { monitor } = yield* monitorWithPrompts({ schedule: "weekly" })
        yield* clockAt(0)
        yield* tick
        yield* clockAt(DAY)
        yield* tick
        const page = yield* runsOf(monitor.id)
        const slot = page.rows.at(-1)!.slot
        expect(slot.getUTCDay()).toBe(1)
        expect(slot.getUTCHours()).toBe(0)
        expect(Date.now() - slot.getTime()).toBeLessThan(7 * DAY)
        // Tomorrow is in the same week unless today is Sunday.
        expect(page.total).toBe(new Date().getUTCDay() === 0 ? 2 : 1)
      }))

    it.effect("the loop ticks at once, then every interval: past midnight the new day's run appears", () =>
      Effect.gen(function*() {
        const { monitor } = yield* monitorWithPrompts({ schedule: "daily", prompts: 1 })
        // Ten seconds before the next UTC midnight: the first tick is today's, the one 30 s later tomorrow's.
        const midnight = utcMidnight(Date.now()).getTime() + DAY
        yield* TestClock.setTime(midnight - 10_000)
        const scheduler = yield* Scheduler.make({ lookbackMs: lookbackDays * DAY })
        const fiber = yield* Effect.fork(scheduler.loop(Duration.seconds(30)))
        yield* eventually(Effect.map(runsOf(monitor.id), (page) => page.total === 1))
        yield* TestClock.adjust(Duration.seconds(5))
        expect((yield* runsOf(monitor.id)).total).toBe(1)
        yield* TestClock.adjust(Duration.seconds(25))
        yield* eventually(Effect.map(runsOf(monitor.id), (page) => page.total === 2))
        yield* Fiber.interrupt(fiber)
        expect((yield* runsOf(monitor.id)).rows.map((run) => [run.slot.getTime(), run.trigger])).toEqual([
          [midnight, "schedule"],
          [midnight - DAY, "schedule"]
        ])
      }))

    it.effect("manual and inactive monitors get no scheduled run", () =>
      Effect.gen(function*() {
        const manual = yield* monitorWithPrompts({ schedule: "manual" })
        const inactive = yield* monitorWithPrompts({ schedule: "daily", active: false })
        yield* clockAt(3 * DAY)
        yield* tick
        expect((yield* runsOf(manual.monitor.id)).total).toBe(0)
        expect((yield* runsOf(inactive.monitor.id)).total).toBe(0)
      }))

    it.effect("slots that passed without a tick are recorded as missed runs with every job skipped, back to the lookback", () =>
      Effect.gen(function*() {
        const { monitor } = yield* monitorWithPrompts({ schedule: "daily", prompts: 1, platforms: ["gemini"] })
        yield* clockAt(0)
        yield* tick
        // No scheduler for three days: the two whole days in between are missed.
        yield* clockAt(3 * DAY)
        yield* tick
        const page = yield* runsOf(monitor.id)
        expect(page.rows.map((run) => run.trigger)).toEqual(["schedule", "missed", "missed", "schedule"])
        const missed = page.rows[1]!
        expect(missed.status).toBe("completed")
        expect(missed.jobs).toEqual({ total: 1, pending: 0, running: 0, succeeded: 0, failed: 0, skipped: 1 })
        expect(missed.slot).toEqual(utcMidnight(Date.now() + 2 * DAY))

        // Down for a month: only the lookback's days are recorded.
        const long = yield* monitorWithPrompts({ schedule: "daily", prompts: 1 })
        yield* clockAt(30 * DAY)
        yield* tick
        const longPage = yield* runsOf(long.monitor.id)
        expect(longPage.rows.filter((run) => run.trigger === "missed")).toHaveLength(lookbackDays)
        expect(longPage.rows[0]!.trigger).toBe("schedule")
      }))

    it.effect("reactivating a monitor does not record its inactive days as missed", () =>
      Effect.gen(function*() {
        const { monitor } = yield* monitorWithPrompts({ schedule: "daily", active: false })
        yield* clockAt(0)
        yield* tick
        // Reactivated now (real clock), ticking three days later: the days between are missed, not before.
        yield* Effect.flatMap(MonitorsRepo, (monitors) => monitors.update(monitor.id, { active: true }))
        yield* clockAt(3 * DAY)
        yield* tick
        const page = yield* runsOf(monitor.id)
        expect(page.rows.map((run) => run.trigger)).toEqual(["schedule", "missed", "missed", "missed"])
      }))

    it.effect("a monitor without prompts gets a completed run with no job", () =>
      Effect.gen(function*() {
        const { monitor } = yield* monitorWithPrompts({ schedule: "daily", prompts: 0 })
        yield* clockAt(0)
        yield* tick
        const [run] = (yield* runsOf(monitor.id)).rows
        expect(run!.status).toBe("completed")
        expect(run!.completed_at).not.toBeNull()
        expect(run!.jobs.total).toBe(0)
      }))

    it.effect("a prompt is asked once per platform and slot, even after moving to another monitor", () =>
      Effect.gen(function*() {
        const runs = yield* RunsRepo
        const { monitor, project, prompts } = yield* monitorWithPrompts({ schedule: "daily", prompts: 1, platforms: ["chatgpt"] })
        const slot = utcMidnight(Date.now())
        yield* runs.create(monitor, { slot, trigger: "schedule", deadline: null })
        const second = yield* (yield* MonitorsRepo).create(project.id, { name: "Other", country: "GB", platforms: ["chatgpt", "claude"], schedule: "daily", active: true })
        yield* Effect.flatMap(PromptsRepo, (repo) => repo.update(prompts[0]!.id, { monitor_id: second.id }))
        const { run } = yield* runs.create(second, { slot, trigger: "schedule", deadline: null })
        // Only claude: the prompt was asked on chatgpt for this slot under its first monitor.
        expect(run.jobs.total).toBe(1)
      }))
  })
}
