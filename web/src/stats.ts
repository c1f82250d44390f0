import type { Interval95 } from "./api/types.ts"

/** The normal quantile of a two-sided 95% interval, as the API uses it. */
const Z_95 = 1.959963984540054

/** A double rounded to 2 places, half away from zero, as the API rounds an interval's bounds; never -0. */
const round2 = (value: number) => Math.sign(value) * Math.floor(Math.abs(value) * 100 + 0.5) / 100 + 0

/**
 * The Wilson score interval at 95% of `successes / trials`, in percent, computed as the API computes
 * `visibility_ci` and `share_of_voice_ci` (docs/api.md, "Brand analytics formulas"): the same formula,
 * in the same order, kept within 0–100 and rounded to 2 places. Null without a trial.
 */
export const wilson = (successes: number, trials: number): Interval95 | null => {
  if (trials === 0) return null
  const z2 = Z_95 * Z_95
  const center = successes + z2 / 2
  const spread = Z_95 * Math.sqrt((successes * (trials - successes)) / trials + z2 / 4)
  const bound = (value: number) => round2(Math.min(100, Math.max(0, (100 * value) / (trials + z2))))
  return { low: bound(center - spread), high: bound(center + spread) }
}

/**
 * `100 × count / total` rounded to 2 places half away from zero, from the integer counts, as the API
 * rounds a percentage (`percentage(145, 100000)` is 0.15). Null without a total.
 */
export const percentage = (count: number, total: number): number | null => {
  if (total === 0) return null
  // 100 × count / total in hundredths, rounded half up on integers: floor((2 × 10000 × count + total) / (2 × total)).
  return Math.floor((20_000 * count + total) / (2 * total)) / 100
}

/**
 * Below this many answers (for share of voice, mentions; for a mean, the brand's mentions) in either
 * period, a change is flagged "small sample": chance alone moves a percentage of fewer than 30 trials by
 * many points (the 95% interval of 15 of 30 runs from 33% to 67%), and the z-test's normal approximation
 * is not to be leaned on. docs/dashboard.md says so in words.
 */
export const SMALL_SAMPLE = 30

/** Whether a change between these two sample sizes is a small-sample one. */
export const isSmallSample = (current: number, previous: number) => Math.min(current, previous) < SMALL_SAMPLE
