/** Summary statistics of a list of timings (milliseconds). */

export interface Summary {
  readonly n: number
  readonly p50: number
  readonly p95: number
  readonly mean: number
  readonly max: number
}

/** The nearest-rank percentile: the smallest sample with at least p% of the samples at or below it. */
export const percentile = (sorted: ReadonlyArray<number>, p: number): number => {
  if (sorted.length === 0) return Number.NaN
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[Math.min(sorted.length, rank) - 1]!
}

export const summarize = (samples: ReadonlyArray<number>): Summary => {
  const sorted = [...samples].sort((a, b) => a - b)
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    mean: sorted.reduce((sum, x) => sum + x, 0) / Math.max(1, sorted.length),
    max: sorted[sorted.length - 1] ?? Number.NaN
  }
}

/** Milliseconds with one decimal under 100, whole above. */
export const ms = (value: number): string => Number.isNaN(value) ? "-" : value < 100 ? value.toFixed(1) : value.toFixed(0)
