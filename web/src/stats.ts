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
