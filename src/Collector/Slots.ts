import type { Schedule } from "../Domain/Monitor.ts"

/**
 * Slots: the instants runs stand for (docs/collector.md). A daily monitor's slot is the UTC day's
 * 00:00Z, a weekly one's the ISO week's Monday 00:00Z. Pure, so the scheduler and its tests agree.
 */

const DAY_MS = 86_400_000

export type ScheduledSchedule = Exclude<Schedule, "manual">

export const periodMs = (schedule: ScheduledSchedule): number => schedule === "daily" ? DAY_MS : 7 * DAY_MS

/** The slot holding `at`. */
export const slotOf = (schedule: ScheduledSchedule, at: Date): Date => {
  const day = Math.floor(at.getTime() / DAY_MS) * DAY_MS
  if (schedule === "daily") return new Date(day)
  // 1970-01-01 was a Thursday: days since a Monday are (weekday + 6) % 7 with Sunday = 0.
  const weekday = new Date(day).getUTCDay()
  return new Date(day - ((weekday + 6) % 7) * DAY_MS)
}

/** When the slot starting at `slot` ends: its jobs are not asked after that (they are "missed"). */
export const slotEnd = (schedule: ScheduledSchedule, slot: Date): Date => new Date(slot.getTime() + periodMs(schedule))

/**
 * The slots a tick at `now` should have runs for, oldest first: the current one, and the past ones not
 * older than `lookbackMs` and not before the slot holding `since` (the monitor's last change). Every one
 * but the current is a missed slot, unless it has a run already.
 */
export const dueSlots = (
  schedule: ScheduledSchedule,
  now: Date,
  options: { readonly since: Date; readonly lookbackMs: number }
): ReadonlyArray<Date> => {
  const current = slotOf(schedule, now)
  const floor = Math.max(
    slotOf(schedule, new Date(now.getTime() - options.lookbackMs)).getTime(),
    slotOf(schedule, options.since).getTime()
  )
  const slots: Array<Date> = []
  for (let at = current.getTime(); at >= floor; at -= periodMs(schedule)) slots.push(new Date(at))
  return slots.reverse()
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10)
