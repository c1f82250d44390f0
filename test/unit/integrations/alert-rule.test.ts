import { describe, expect, it } from "@effect/vitest"
import type { BrandCounts } from "../../../src/Analytics/Analytics.ts"
import { brandRowOf } from "../../../src/Analytics/BrandMeasures.ts"
import {
  type AlertRule,
  type AlertState,
  brandWindowCounts,
  defaultSignificantOnly,
  evaluate,
  type Evaluation,
  ruleProblems,
  ruleWindows,
  transition,
  type WindowCounts
} from "../../../src/Integrations/AlertRule.ts"

const proportion = (count: number, total: number): WindowCounts => ({ kind: "proportion", count, total })
const meanOf = (sum: number, count: number): WindowCounts => ({ kind: "mean", sum, count })

const rule = (overrides: Partial<AlertRule>): AlertRule => ({
  metric: "visibility",
  condition: "below",
  threshold: 30,
  windowDays: 7,
  significantOnly: false,
  ...overrides
})

describe("below and above", () => {
  it("compares the value strictly, as the API shows it (2 places)", () => {
    expect(evaluate(rule({ threshold: 30 }), proportion(50, 200), proportion(0, 10)).outcome).toBe("holds")
    expect(evaluate(rule({ threshold: 20 }), proportion(40, 200), proportion(0, 10)).outcome).toBe("clear")
    // 1 of 3 is 33.333…, shown 33.33: not above 33.33.
    expect(evaluate(rule({ condition: "above", threshold: 33.33 }), proportion(1, 3), proportion(0, 3)).outcome).toBe("clear")
    expect(evaluate(rule({ condition: "above", threshold: 33.32 }), proportion(1, 3), proportion(0, 3)).outcome).toBe("holds")
  })

  it("with significant_only, needs the whole interval beyond the threshold", () => {
    // 25% of 200: interval about 19.5–31.6, so not surely below 30.
    const small = evaluate(rule({ threshold: 30, significantOnly: true }), proportion(50, 200), proportion(0, 10))
    expect(small.outcome).toBe("clear")
    expect(small.interval!.high).toBeGreaterThan(30)
    // 20% of 2000: interval about 18.3–21.8, surely below 30.
    expect(evaluate(rule({ threshold: 30, significantOnly: true }), proportion(400, 2000), proportion(0, 10)).outcome).toBe("holds")
    expect(evaluate(rule({ condition: "above", threshold: 15, significantOnly: true }), proportion(400, 2000), proportion(0, 10)).outcome).toBe("holds")
    expect(evaluate(rule({ condition: "above", threshold: 19, significantOnly: true }), proportion(400, 2000), proportion(0, 10)).outcome).toBe("clear")
  })

  it("decides nothing without data in the window", () => {
    expect(evaluate(rule({}), proportion(0, 0), proportion(5, 10)).outcome).toBe("no_data")
    expect(evaluate(rule({ metric: "average_position", threshold: 2, condition: "above" }), meanOf(0, 0), meanOf(10, 5)).outcome).toBe("no_data")
  })
})

describe("drops_by and rises_by", () => {
  it("fires on a change of at least the threshold, in percentage points", () => {
    // 30% against 35%: −5.00 points.
    expect(evaluate(rule({ condition: "drops_by", threshold: 5 }), proportion(60, 200), proportion(70, 200)).outcome).toBe("holds")
    expect(evaluate(rule({ condition: "drops_by", threshold: 5.01 }), proportion(60, 200), proportion(70, 200)).outcome).toBe("clear")
    expect(evaluate(rule({ condition: "rises_by", threshold: 5 }), proportion(60, 200), proportion(70, 200)).outcome).toBe("clear")
    expect(evaluate(rule({ condition: "rises_by", threshold: 5 }), proportion(70, 200), proportion(60, 200)).outcome).toBe("holds")
  })

  it("with significant_only, also needs the two-proportion test to pass", () => {
    const onSmall = evaluate(rule({ condition: "drops_by", threshold: 5, significantOnly: true }), proportion(60, 200), proportion(70, 200))
    expect(onSmall).toMatchObject({ outcome: "clear", change: -5, significant: false })
    const onLarge = evaluate(rule({ condition: "drops_by", threshold: 5, significantOnly: true }), proportion(600, 2000), proportion(700, 2000))
    expect(onLarge).toMatchObject({ outcome: "holds", change: -5, significant: true })
    // Significant, but a rise: a drops_by rule stays clear.
    expect(evaluate(rule({ condition: "drops_by", threshold: 5, significantOnly: true }), proportion(700, 2000), proportion(600, 2000)).outcome).toBe("clear")
  })

  it("needs both windows", () => {
    expect(evaluate(rule({ condition: "drops_by", threshold: 1 }), proportion(10, 100), proportion(0, 0))).toMatchObject({ outcome: "no_data", value: 10, previousValue: null, significant: null })
  })

  it("measures position and sentiment in their own units; a smaller position is a drop", () => {
    const position = rule({ metric: "average_position", condition: "drops_by", threshold: 0.5 })
    expect(evaluate(position, meanOf(150, 100), meanOf(200, 100))).toMatchObject({ outcome: "holds", value: 1.5, previousValue: 2, change: -0.5, interval: null, significant: null })
    const sentiment = rule({ metric: "average_sentiment", condition: "above", threshold: 60 })
    expect(evaluate(sentiment, meanOf(6100, 100), meanOf(0, 0)).outcome).toBe("holds")
  })

  it("ignores significant_only where no test exists", () => {
    const sentiment = rule({ metric: "average_sentiment", condition: "rises_by", threshold: 1, significantOnly: true })
    expect(evaluate(sentiment, meanOf(5500, 100), meanOf(5000, 100)).outcome).toBe("holds")
  })
})

describe("agreement with brand analytics", () => {
  it("gives the values, change, interval and significance of the brand row for the same counts", () => {
    const w: BrandCounts = { responses: 1200, totalMentions: 3680, mentioned: 372, positionSum: 748, sentimentSum: 22000 }
    const p: BrandCounts = { responses: 1150, totalMentions: 3900, mentioned: 402, positionSum: 828, sentimentSum: 23500 }
    const row = brandRowOf({ brand: { id: 1, name: "Acme", classification: "own", is_own: true } as never, w, p, firstSeenOn: null, lastSeenOn: null })
    const visibility = evaluate(rule({ condition: "drops_by", threshold: 0.01 }), brandWindowCounts("visibility", w), brandWindowCounts("visibility", p))
    expect([visibility.value, visibility.change, visibility.interval, visibility.significant]).toEqual([row.visibility, row.visibility_change, row.visibility_ci, row.visibility_change_significant])
    const share = evaluate(rule({ metric: "share_of_voice", condition: "drops_by", threshold: 0.01 }), brandWindowCounts("share_of_voice", w), brandWindowCounts("share_of_voice", p))
    expect([share.value, share.change, share.interval, share.significant]).toEqual([row.share_of_voice, row.share_of_voice_change, row.share_of_voice_ci, row.share_of_voice_change_significant])
    const position = evaluate(rule({ metric: "average_position", condition: "drops_by", threshold: 0.01 }), brandWindowCounts("average_position", w), brandWindowCounts("average_position", p))
    expect([position.value, position.change]).toEqual([row.average_position, row.average_position_change])
    const sentiment = evaluate(rule({ metric: "average_sentiment", condition: "drops_by", threshold: 0.01 }), brandWindowCounts("average_sentiment", w), brandWindowCounts("average_sentiment", p))
    expect([sentiment.value, sentiment.change]).toEqual([row.average_sentiment, row.average_sentiment_change])
  })
})

describe("rule states", () => {
  const holds = evaluate(rule({ threshold: 30 }), proportion(50, 200), proportion(0, 10))
  const clear = evaluate(rule({ threshold: 20 }), proportion(50, 200), proportion(0, 10))
  const noData = evaluate(rule({}), proportion(0, 0), proportion(0, 0))

  it("emits triggered once on entering firing and resolved once on leaving it", () => {
    const sequence: Array<Evaluation> = [clear, holds, holds, noData, holds, clear, clear, noData, holds]
    let state: AlertState = "ok"
    const events: Array<string | null> = []
    for (const evaluation of sequence) {
      const next = transition(state, evaluation)
      state = next.state
      events.push(next.event)
    }
    expect(events).toEqual([null, "alert.triggered", null, null, null, "alert.resolved", null, null, "alert.triggered"])
    expect(state).toBe("firing")
  })

  it("keeps either state without data", () => {
    expect(transition("ok", noData)).toEqual({ state: "ok", event: null })
    expect(transition("firing", noData)).toEqual({ state: "firing", event: null })
  })
})

describe("rule validation", () => {
  it("accepts sensible rules and defaults significant_only where a test exists", () => {
    expect(ruleProblems(rule({}))).toEqual([])
    expect(ruleProblems(rule({ metric: "average_position", condition: "above", threshold: 3 }))).toEqual([])
    expect(defaultSignificantOnly("visibility")).toBe(true)
    expect(defaultSignificantOnly("share_of_voice")).toBe(true)
    expect(defaultSignificantOnly("average_position")).toBe(false)
    expect(defaultSignificantOnly("source_used_percentage")).toBe(false)
  })

  it("lists every problem", () => {
    expect(ruleProblems(rule({ threshold: 120, windowDays: 0, metric: "url_used_percentage", significantOnly: true }))).toEqual([
      "The threshold must be between 0 and 100.",
      "The window must be a whole number of days from 1 to 90.",
      "significant_only applies to visibility and share of voice only."
    ])
    expect(ruleProblems(rule({ condition: "drops_by", threshold: 0 }))).toEqual(["The threshold of a change must be greater than 0."])
    expect(ruleProblems(rule({ metric: "average_position", threshold: 0.5 }))).toEqual(["The threshold of a position must be at least 1."])
    expect(ruleProblems(rule({ threshold: Number.NaN }))).toEqual(["The threshold must be a number."])
    expect(ruleProblems(rule({ windowDays: 1.5 }))).toEqual(["The window must be a whole number of days from 1 to 90."])
  })
})

describe("rule windows", () => {
  it("ends the window today (UTC) and compares it with as many days before", () => {
    expect(ruleWindows(new Date("2026-11-25T13:00:00Z"), 7)).toEqual({
      current: { startDate: "2026-11-19", endDate: "2026-11-25" },
      previous: { startDate: "2026-11-12", endDate: "2026-11-18" }
    })
    expect(ruleWindows(new Date("2026-03-01T00:00:00Z"), 1)).toEqual({
      current: { startDate: "2026-03-01", endDate: "2026-03-01" },
      previous: { startDate: "2026-02-28", endDate: "2026-02-28" }
    })
  })
})
