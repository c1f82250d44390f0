import { describe, expect, it } from "vitest"
import { parseDate } from "../../../src/Analytics/Analytics.ts"
import { splitByMonths } from "../../../src/Analytics/AnalyticsSql.ts"

/** How a period is read from the rollups: whole calendar months from monthly rows, the rest by day. */

const at = (date: string) => parseDate(date)!
const show = (ranges: ReadonlyArray<readonly [number, number]>) =>
  ranges.map(([from, to]) => `${new Date(from).toISOString().slice(0, 10)}..${new Date(to).toISOString().slice(0, 10)}`)
const split = (from: string, to: string) => {
  const { days, months } = splitByMonths(at(from), at(to))
  return { months: show(months), days: show(days) }
}

describe("splitByMonths", () => {
  it("takes the whole months inside a period and leaves the days around them", () => {
    expect(split("2026-05-26", "2026-08-24")).toEqual({
      months: ["2026-06-01..2026-08-01"],
      days: ["2026-05-26..2026-06-01", "2026-08-01..2026-08-24"]
    })
  })

  it("takes a period of exactly whole months as months only, across a year end", () => {
    expect(split("2025-12-01", "2026-02-01")).toEqual({ months: ["2025-12-01..2026-02-01"], days: [] })
  })

  it("reads a period without a whole month by day, and an empty one not at all", () => {
    expect(split("2026-01-05", "2026-02-04")).toEqual({ months: [], days: ["2026-01-05..2026-02-04"] })
    expect(split("2026-02-01", "2026-02-28")).toEqual({ months: [], days: ["2026-02-01..2026-02-28"] })
    expect(split("2026-03-01", "2026-03-01")).toEqual({ months: [], days: [] })
  })
})
