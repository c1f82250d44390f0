import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { bucketStart, DAY_MS, parseDate, periodsOf } from "../../../src/Analytics/Analytics.ts"
import { type Read, readsOf } from "../../../src/Analytics/Reads.ts"

/** How the two periods of a request are read from the daily and monthly rollups (src/Analytics/Reads.ts). */

const at = (date: string) => parseDate(date)!
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const show = (reads: ReadonlyArray<Read>) => reads.map((read) => `${read.grain} ${day(read.from)}..${day(read.to)} w${read.w} p${read.p}`)
const plan = (previousStart: string, windowStart: string, windowEnd: string, today: string) =>
  show(readsOf(at(previousStart), at(windowStart), at(windowEnd), at(today), 7))

describe("readsOf", () => {
  it("reads a 90-day window ending today with as few day rows as can be (a month costing 7 days)", () => {
    // W 2026-08-24..2026-11-21, P 2026-05-26..2026-08-23.
    expect(plan("2026-05-26", "2026-08-24", "2026-11-22", "2026-11-21")).toEqual([
      "daily 2026-05-26..2026-06-01 w0 p1", // 6 days: cheaper than May less its 25 others
      "monthly 2026-06-01..2026-09-01 w0 p1", // June, July, and August for P less its last 8 days, which are W's
      "daily 2026-08-24..2026-09-01 w1 p-1",
      "monthly 2026-09-01..2026-12-01 w1 p0", // September to November: the days after today hold nothing
      "daily 2026-11-22..2026-12-01 w-1 p0"
    ])
  })

  it("reads a past window's few days by day, and whole months as months, across a year end", () => {
    // A week in January 2026 (P the week before): by day.
    expect(plan("2025-12-29", "2026-01-05", "2026-01-12", "2026-11-21")).toEqual([
      "daily 2025-12-29..2026-01-05 w0 p1",
      "daily 2026-01-05..2026-01-12 w1 p0"
    ])
    // W December 2025 and January 2026 (62 days), P the 62 days before.
    expect(plan("2025-09-30", "2025-12-01", "2026-02-01", "2026-11-21")).toEqual([
      "daily 2025-09-30..2025-10-01 w0 p1",
      "monthly 2025-10-01..2025-12-01 w0 p1",
      "monthly 2025-12-01..2026-02-01 w1 p0"
    ])
  })

  it("reads a window of centuries in a few reads", () => {
    const { previousStart, windowEnd, windowStart } = periodsOf({ start: "0001-01-01", end: "2026-11-21" })
    const reads = readsOf(previousStart, windowStart, windowEnd, at("2026-11-21"), 7)
    expect(reads.length).toBeGreaterThan(0)
    expect(reads.length).toBeLessThan(8)
  })

  it("counts every day once for its period and never a day outside them, whatever the periods, today and month cost", () => {
    const start = at("2024-11-01")
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: -30, max: 400 }),
        fc.integer({ min: 0, max: 40 }),
        (offset, previousDays, windowDays, todayOffset, monthCostDays) => {
          const previousStart = start + offset * DAY_MS
          const windowStart = previousStart + previousDays * DAY_MS
          const windowEnd = windowStart + windowDays * DAY_MS
          const reads = readsOf(previousStart, windowStart, windowEnd, windowStart + todayOffset * DAY_MS, monthCostDays)
          for (const read of reads) {
            if (read.grain === "monthly") expect([bucketStart("month", read.from), bucketStart("month", read.to)]).toEqual([read.from, read.to])
            expect(read.from).toBeLessThan(read.to)
          }
          for (let d = previousStart - 40 * DAY_MS; d < windowEnd + 40 * DAY_MS; d += DAY_MS) {
            const covering = reads.filter((read) => read.from <= d && d < read.to)
            const sum = (key: "w" | "p") => covering.reduce((total, read) => total + read[key], 0)
            expect([day(d), sum("w"), sum("p")]).toEqual([
              day(d),
              windowStart <= d && d < windowEnd ? 1 : 0,
              previousStart <= d && d < windowStart ? 1 : 0
            ])
          }
        }
      ),
      { numRuns: 300 }
    )
  })
})
