import { describe, expect, it } from "@effect/vitest"
import { isoWeekOf, lastFullWeeks } from "../../../src/Integrations/IsoWeek.ts"
import { weeklyDigest } from "../../../src/Integrations/WeeklyDigest.ts"
import { digestInput } from "./fixtures.ts"

describe("ISO weeks", () => {
  it("runs Monday to Sunday and numbers weeks by their Thursday's year", () => {
    expect(isoWeekOf(new Date("2026-11-25T12:00:00Z"))).toEqual({ label: "2026-W48", startDate: "2026-11-23", endDate: "2026-11-29" })
    expect(isoWeekOf(new Date("2026-11-29T23:59:59Z"))).toEqual({ label: "2026-W48", startDate: "2026-11-23", endDate: "2026-11-29" })
    expect(isoWeekOf(new Date("2026-11-30T00:00:00Z")).label).toBe("2026-W49")
    // Years whose first days belong to the previous year's last week, and the other way round.
    expect(isoWeekOf(new Date("2027-01-01T00:00:00Z")).label).toBe("2026-W53")
    expect(isoWeekOf(new Date("2021-01-03T00:00:00Z")).label).toBe("2020-W53")
    expect(isoWeekOf(new Date("2024-12-30T00:00:00Z")).label).toBe("2025-W01")
    expect(isoWeekOf(new Date("2026-01-01T00:00:00Z")).label).toBe("2026-W01")
  })

  it("takes the last week that has ended and the one before, from any day of the week", () => {
    const monday = lastFullWeeks(new Date("2026-11-30T06:00:00Z"))
    expect(monday.week).toEqual({ label: "2026-W48", startDate: "2026-11-23", endDate: "2026-11-29" })
    expect(monday.previous).toEqual({ label: "2026-W47", startDate: "2026-11-16", endDate: "2026-11-22" })
    expect(lastFullWeeks(new Date("2026-11-29T23:00:00Z")).week.label).toBe("2026-W47")
    expect(lastFullWeeks(new Date("2027-01-04T00:00:00Z")).week).toEqual({ label: "2026-W53", startDate: "2026-12-28", endDate: "2027-01-03" })
  })
})

describe("the weekly digest", () => {
  const digest = weeklyDigest(digestInput)

  it("covers the last full week against the one before", () => {
    expect(digest.week).toEqual({ label: "2026-W48", start_date: "2026-11-23", end_date: "2026-11-29" })
    expect(digest.previous_week).toEqual({ label: "2026-W47", start_date: "2026-11-16", end_date: "2026-11-22" })
    expect(digest.runs).toEqual(digestInput.runs)
  })

  it("lists brands most visible first (no data last), with intervals and significance from the analytics formulas", () => {
    expect(digest.brands.map((row) => row.brand.name)).toEqual(["Globex", "Acme", "Initech", "Hooli"])
    const acme = digest.brands[1]!
    expect(acme).toMatchObject({ responses_count: 2000, mentioned_count: 600, visibility: 30, visibility_change: -5, visibility_change_significant: true, share_of_voice: 20 })
    expect(acme.visibility_ci!.low).toBeLessThan(30)
    expect(acme.visibility_ci!.high).toBeGreaterThan(30)
    expect(digest.brands[3]).toMatchObject({ visibility: null, visibility_ci: null, visibility_change: null, visibility_change_significant: false })
  })

  it("names the significant changes only", () => {
    expect(digest.significant_changes.map((change) => [change.brand.name, change.metric, change.change])).toEqual([
      ["Globex", "visibility", 5],
      ["Globex", "share_of_voice", 2.64],
      ["Acme", "visibility", -5],
      ["Acme", "share_of_voice", -4.14]
    ])
  })

  it("ranks prompts by the size of their move, with both weeks' counts, leaving out the unmoved and the new", () => {
    expect(digest.prompt_movers.map((mover) => [mover.prompt.text, mover.change, mover.significant])).toEqual([
      ["crm for agencies", 50, false],
      ["best crm", -20, true],
      ["small move", 1, false]
    ])
    expect(digest.prompt_movers[0]).toMatchObject({ mentioned_count: 3, responses_count: 4, previous_mentioned_count: 1, previous_responses_count: 4 })
  })

  it("keeps at most 5 movers", () => {
    const many = weeklyDigest({
      ...digestInput,
      prompts: Array.from({ length: 9 }, (_, i) => ({ prompt: { id: i, text: `p${i}` }, w: { count: i + 1, total: 10 }, p: { count: 0, total: 10 } }))
    })
    expect(many.prompt_movers.map((mover) => mover.prompt.text)).toEqual(["p8", "p7", "p6", "p5", "p4"])
  })

  it("finds the sources new to the top 10, with their rank", () => {
    // rising.example is first this week; tied.example (43) ties old7.example and comes after it by domain, 10th.
    expect(digest.new_top_sources.map((source) => [source.source.domain, source.rank, source.used_count, source.used_percentage])).toEqual([
      ["rising.example", 1, 55, 2.75],
      ["tied.example", 10, 43, 2.15]
    ])
  })

  it("has no new top source when the top 10 did not change", () => {
    expect(weeklyDigest({ ...digestInput, sources: digestInput.sources.slice(0, 10) }).new_top_sources).toEqual([])
  })
})
