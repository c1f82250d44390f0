import type { BrandCounts } from "../Analytics/Analytics.ts"
import { mean, meanChange, percentage, percentageChange, significantChange, wilson, type ConfidenceInterval } from "../Analytics/Statistics.ts"

/**
 * Alert rules: a metric of a brand, source or URL over a window of days, compared with the window
 * before it, against a threshold. Evaluation starts from the counts both windows are made of and
 * uses the formulas of analytics (Statistics.ts), so an alert's numbers are the numbers the API
 * shows for the same windows and filters.
 *
 * - `below` / `above`: the window's value is strictly below / above the threshold.
 * - `drops_by` / `rises_by`: the value fell / rose by at least the threshold from the window before
 *   (in percentage points for percentages, in the metric's own unit for position and sentiment;
 *   a smaller position is a better one, so "drops_by" on position means moving up the answers).
 * - `significant_only` (visibility and share of voice only, where it is the default): a change must
 *   also pass the two-proportion test of brand analytics; `below` / `above` need the whole 95%
 *   interval beyond the threshold, not only the value.
 * - The values compared are the ones the API shows (rounded to 2 places), so that an event never
 *   says a value of 20.00 is below 20.
 * - A window without data (no response, no mention for a mean) decides nothing: the rule keeps its
 *   state. Silence is not recovery, nor a drop.
 */
export const alertMetrics = ["visibility", "share_of_voice", "average_position", "average_sentiment", "source_used_percentage", "url_used_percentage"] as const
export type AlertMetric = (typeof alertMetrics)[number]

export const alertConditions = ["below", "above", "drops_by", "rises_by"] as const
export type AlertCondition = (typeof alertConditions)[number]

/** The metrics for which `significant_only` exists (a proportion with its test). */
export const testedMetrics: ReadonlyArray<AlertMetric> = ["visibility", "share_of_voice"]

export interface AlertRule {
  readonly metric: AlertMetric
  readonly condition: AlertCondition
  readonly threshold: number
  readonly windowDays: number
  readonly significantOnly: boolean
}

/** The counts of one window: a proportion (count of total) or a mean (sum over count). */
export type WindowCounts =
  | { readonly kind: "proportion"; readonly count: number; readonly total: number }
  | { readonly kind: "mean"; readonly sum: number; readonly count: number }

export const isProportion = (metric: AlertMetric): boolean => metric !== "average_position" && metric !== "average_sentiment"

/** A brand metric's counts in one window, from the counts brand analytics computes. */
export const brandWindowCounts = (metric: "visibility" | "share_of_voice" | "average_position" | "average_sentiment", counts: BrandCounts): WindowCounts => {
  switch (metric) {
    case "visibility":
      return { kind: "proportion", count: counts.mentioned, total: counts.responses }
    case "share_of_voice":
      return { kind: "proportion", count: counts.mentioned, total: counts.totalMentions }
    case "average_position":
      return { kind: "mean", sum: counts.positionSum, count: counts.mentioned }
    case "average_sentiment":
      return { kind: "mean", sum: counts.sentimentSum, count: counts.mentioned }
  }
}

/** The problems of a rule as it would be saved, one message per problem (none: valid). */
export const ruleProblems = (rule: AlertRule): ReadonlyArray<string> => {
  const problems: Array<string> = []
  if (!Number.isFinite(rule.threshold)) problems.push("The threshold must be a number.")
  else if (rule.condition === "drops_by" || rule.condition === "rises_by") {
    if (rule.threshold <= 0) problems.push("The threshold of a change must be greater than 0.")
  } else if (isProportion(rule.metric) || rule.metric === "average_sentiment") {
    if (rule.threshold < 0 || rule.threshold > 100) problems.push("The threshold must be between 0 and 100.")
  } else if (rule.threshold < 1) problems.push("The threshold of a position must be at least 1.")
  if (!Number.isInteger(rule.windowDays) || rule.windowDays < 1 || rule.windowDays > 90) problems.push("The window must be a whole number of days from 1 to 90.")
  if (rule.significantOnly && !testedMetrics.includes(rule.metric)) problems.push("significant_only applies to visibility and share of voice only.")
  return problems
}

/** The default of `significant_only`: on where the test exists. */
export const defaultSignificantOnly = (metric: AlertMetric): boolean => testedMetrics.includes(metric)

export interface Measured {
  /** The window's value as the API shows it; null without data. */
  readonly value: number | null
  readonly previousValue: number | null
  /** The change from the previous window, from the unrounded values; null when either is missing. */
  readonly change: number | null
  /** For proportions: the window's 95% interval and whether the change is significant. */
  readonly interval: ConfidenceInterval | null
  readonly significant: boolean | null
  readonly current: WindowCounts
  readonly previous: WindowCounts
}

export type Evaluation =
  | ({ readonly outcome: "holds" | "clear" } & Measured)
  | ({ readonly outcome: "no_data" } & Measured)

const valueOf = (counts: WindowCounts): number | null =>
  counts.kind === "proportion" ? percentage(counts.count, counts.total) : mean(counts.sum, counts.count)

/** The values of both windows, their change, interval and test. */
export const measure = (current: WindowCounts, previous: WindowCounts): Measured => {
  if (current.kind === "proportion" && previous.kind === "proportion") {
    return {
      value: valueOf(current),
      previousValue: valueOf(previous),
      change: percentageChange(current.count, current.total, previous.count, previous.total),
      interval: wilson(current.count, current.total),
      significant: current.total === 0 || previous.total === 0 ? null : significantChange(current.count, current.total, previous.count, previous.total),
      current,
      previous
    }
  }
  if (current.kind === "mean" && previous.kind === "mean") {
    return {
      value: valueOf(current),
      previousValue: valueOf(previous),
      change: meanChange(current.sum, current.count, previous.sum, previous.count),
      interval: null,
      significant: null,
      current,
      previous
    }
  }
  throw new Error("measure: both windows must hold the same kind of counts")
}

/** Whether the rule's condition holds on the measured windows; no_data when they cannot tell. */
export const evaluate = (rule: AlertRule, current: WindowCounts, previous: WindowCounts): Evaluation => {
  const measured = measure(current, previous)
  const tested = rule.significantOnly && testedMetrics.includes(rule.metric)
  const verdict = (holds: boolean): Evaluation => ({ outcome: holds ? "holds" : "clear", ...measured })
  switch (rule.condition) {
    case "below":
    case "above": {
      if (measured.value === null) return { outcome: "no_data", ...measured }
      if (tested && measured.interval !== null) {
        return verdict(rule.condition === "below" ? measured.interval.high < rule.threshold : measured.interval.low > rule.threshold)
      }
      return verdict(rule.condition === "below" ? measured.value < rule.threshold : measured.value > rule.threshold)
    }
    case "drops_by":
    case "rises_by": {
      if (measured.change === null) return { outcome: "no_data", ...measured }
      const moved = rule.condition === "drops_by" ? measured.change <= -rule.threshold : measured.change >= rule.threshold
      return verdict(moved && (!tested || measured.significant === true))
    }
  }
}

export type AlertState = "ok" | "firing"
export type AlertEventType = "alert.triggered" | "alert.resolved"

/**
 * A rule's state after an evaluation, and the event to emit: `alert.triggered` once on entering
 * `firing`, `alert.resolved` once on leaving it, nothing while a state holds or without data.
 */
export const transition = (state: AlertState, evaluation: Evaluation): { readonly state: AlertState; readonly event: AlertEventType | null } => {
  if (evaluation.outcome === "no_data") return { state, event: null }
  if (evaluation.outcome === "holds") return state === "firing" ? { state, event: null } : { state: "firing", event: "alert.triggered" }
  return state === "ok" ? { state, event: null } : { state: "ok", event: "alert.resolved" }
}

/** A window of days, both ends included, as `YYYY-MM-DD` (UTC), like analytics' start_date and end_date. */
export interface DayWindow {
  readonly startDate: string
  readonly endDate: string
}

const day = (date: Date): string => date.toISOString().slice(0, 10)
const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * 86_400_000)

/**
 * The windows a rule compares at `now`: the `windowDays` days ending today (UTC, today included:
 * rules are evaluated after each run, on the newest answers) and the as many days before them.
 */
export const ruleWindows = (now: Date, windowDays: number): { readonly current: DayWindow; readonly previous: DayWindow } => {
  const today = new Date(`${day(now)}T00:00:00.000Z`)
  const currentStart = addDays(today, -(windowDays - 1))
  return {
    current: { startDate: day(currentStart), endDate: day(today) },
    previous: { startDate: day(addDays(currentStart, -windowDays)), endDate: day(addDays(currentStart, -1)) }
  }
}
