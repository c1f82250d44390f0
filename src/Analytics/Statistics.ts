/**
 * The arithmetic of the brand metrics (docs/metrics.md, docs/api.md "Brand analytics"): percentages and
 * means rounded to 2 places, their changes, Wilson score intervals and the two-proportion z-test.
 *
 * Everything here starts from exact integer counts. What is rational (a percentage, a mean, the
 * difference of two of them) is rounded exactly, on integers (bigint, so that no product of counts
 * ever loses precision). What is irrational (an interval's bounds, a z statistic) is computed in
 * double precision by the formulas below, in this order, then rounded like the rest: both analytics
 * implementations call these functions on the same counts, so their answers agree to the bit.
 */

/** The normal quantile of a two-sided 95% interval or test. */
export const Z_95 = 1.959963984540054

/** `round(numerator / denominator)`, half away from zero, on integers; denominator > 0. */
const roundBig = (numerator: bigint, denominator: bigint): bigint => {
  const magnitude = (2n * (numerator < 0n ? -numerator : numerator) + denominator) / (2n * denominator)
  return numerator < 0n ? -magnitude : magnitude
}

/** A number rounded to 2 places from its exact value `numerator / denominator` (integers, denominator > 0). */
const round2Exact = (numerator: bigint, denominator: bigint): number => {
  // An integer number of hundredths divided by 100 is the double nearest to the 2-place decimal.
  return Number(roundBig(100n * numerator, denominator)) / 100
}

/** `round2(100 × part / whole)`, or null when whole is 0. */
export const percentage = (part: number, whole: number): number | null =>
  whole === 0 ? null : round2Exact(100n * BigInt(part), BigInt(whole))

/** `round2(sum / count)`, or null when count is 0 (a mean without a sample). */
export const mean = (sum: number, count: number): number | null => (count === 0 ? null : round2Exact(BigInt(sum), BigInt(count)))

/**
 * `round2(100 × a / b − 100 × c / d)`: the change of a percentage from P (c of d) to W (a of b), from the
 * unrounded values; null when either denominator is 0.
 */
export const percentageChange = (a: number, b: number, c: number, d: number): number | null =>
  b === 0 || d === 0 ? null : round2Exact(100n * (BigInt(a) * BigInt(d) - BigInt(c) * BigInt(b)), BigInt(b) * BigInt(d))

/** `round2(a / b − c / d)`: the change of a mean (sums a and c over counts b and d); null when either count is 0. */
export const meanChange = (a: number, b: number, c: number, d: number): number | null =>
  b === 0 || d === 0 ? null : round2Exact(BigInt(a) * BigInt(d) - BigInt(c) * BigInt(b), BigInt(b) * BigInt(d))

/** A double rounded to 2 places, half away from zero (on its double value); never -0. */
const round2Double = (value: number): number => Math.sign(value) * Math.floor(Math.abs(value) * 100 + 0.5) / 100 + 0

export interface ConfidenceInterval {
  readonly low: number
  readonly high: number
}

/**
 * The Wilson score interval of the proportion `successes / trials`, as percentages: with z = Z_95,
 *
 *   low, high = 100 × (x + z²/2 ∓ z × √(x(n − x)/n + z²/4)) / (n + z²)
 *
 * in double precision, kept within [0, 100], then rounded to 2 places. Null when there is no trial.
 */
export const wilson = (successes: number, trials: number): ConfidenceInterval | null => {
  if (trials === 0) return null
  const z2 = Z_95 * Z_95
  const center = successes + z2 / 2
  const spread = Z_95 * Math.sqrt((successes * (trials - successes)) / trials + z2 / 4)
  const bound = (value: number) => round2Double(Math.min(100, Math.max(0, (100 * value) / (trials + z2))))
  return { low: bound(center - spread), high: bound(center + spread) }
}

/**
 * Whether the proportions x1 / n1 (W) and x2 / n2 (P) differ significantly: the two-sided two-proportion
 * z-test with the pooled proportion p = (x1 + x2) / (n1 + n2),
 *
 *   z = (x1/n1 − x2/n2) / √(p (1 − p) (1/n1 + 1/n2)),   significant when |z| > Z_95.
 *
 * False when either n is 0 or p is 0 or 1 (no variance: nothing to test).
 */
export const significantChange = (x1: number, n1: number, x2: number, n2: number): boolean => {
  if (n1 === 0 || n2 === 0) return false
  const successes = x1 + x2
  const trials = n1 + n2
  if (successes === 0 || successes === trials) return false
  const pooled = successes / trials
  const z = (x1 / n1 - x2 / n2) / Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
  return Math.abs(z) > Z_95
}
