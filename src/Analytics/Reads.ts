import { bucketStart, DAY_MS, nextBucket } from "./Analytics.ts"

/**
 * How the two periods of an analytics request, P = [previousStart, windowStart) and W = [windowStart,
 * windowEnd) (ms, UTC midnights), are read from the daily and monthly rollups with as few rows as can be.
 *
 * A read is a grain and a range of days; each of its rows counts `w` times for W and `p` times for P
 * (-1, 0 or 1). A calendar month wholly inside one period is its monthly rows. A month cut by a period
 * edge is either read by day, or as its monthly rows less the days of it that do not belong to the
 * chosen period: those rows count -1 for that period and, when they lie in the other one, +1 for it,
 * in the same read. So a 90-day window ending today reads August (cut between P and W) as its monthly
 * rows for P less its last 8 days, which count for W too, and November as its monthly rows alone: the
 * days after today hold nothing.
 *
 * Invariant (test/unit/analytics/reads.test.ts): for every day, the reads covering it sum to 1 for the
 * period holding it and to 0 otherwise.
 */
export interface Read {
  readonly grain: "daily" | "monthly"
  /** `[from, to)`, ms, UTC midnights; a monthly read covers whole months. */
  readonly from: number
  readonly to: number
  readonly w: -1 | 0 | 1
  readonly p: -1 | 0 | 1
}

type Label = "w" | "p" | "out"

/** What a day of a segment labelled so counts for W and for P. */
const own = (label: Label): Pick<Read, "w" | "p"> => ({ w: label === "w" ? 1 : 0, p: label === "p" ? 1 : 0 })

/** `[from, to)` of a month cut into its runs of days by period, in order. */
const segmentsOf = (from: number, to: number, previousStart: number, windowStart: number, windowEnd: number) =>
  ([
    [from, previousStart, "out"],
    [previousStart, windowStart, "p"],
    [windowStart, windowEnd, "w"],
    [windowEnd, to, "out"]
  ] as const)
    .map(([start, end, label]) => ({ from: Math.max(from, start), to: Math.min(to, end), label: label as Label }))
    .filter((segment) => segment.from < segment.to)

/**
 * The reads of P and W (P may be empty). `monthCostDays`: what a month of the monthly rows costs to read,
 * in days of daily rows; a month of URLs holds about as many rows as 5 to 20 days, by cut.
 */
export const readsOf = (
  previousStart: number,
  windowStart: number,
  windowEnd: number,
  today: number,
  monthCostDays: number
): Array<Read> => {
  const reads: Array<Read> = []
  // Days after today are read for nothing: no answer is collected in the future.
  const cost = (from: number, to: number) => Math.max(0, Math.min(to, today + DAY_MS) - from) / DAY_MS
  // Runs of months (or days) read alike are one read: a window of years is a few reads, not one per month.
  const read = (grain: Read["grain"], from: number, to: number, { p, w }: Pick<Read, "w" | "p">) => {
    const last = reads.at(-1)
    if (last !== undefined && last.grain === grain && last.to === from && last.w === w && last.p === p) {
      reads[reads.length - 1] = { ...last, to }
    } else {
      reads.push({ grain, from, to, w, p })
    }
  }
  for (let month = bucketStart("month", previousStart); month < windowEnd; month = nextBucket("month", month)) {
    const end = nextBucket("month", month)
    const segments = segmentsOf(month, end, previousStart, windowStart, windowEnd)
    const counted = segments.filter((segment) => segment.label !== "out")
    if (counted.length === 0) continue
    if (segments.length === 1) {
      read("monthly", month, end, own(segments[0]!.label))
      continue
    }
    const direct = counted.reduce((days, segment) => days + cost(segment.from, segment.to), 0)
    // Through the month's rows for `label`: every other day is read to take it back (and give it to its own period).
    const through = (label: "w" | "p") =>
      monthCostDays + segments.filter((segment) => segment.label !== label).reduce((days, s) => days + cost(s.from, s.to), 0)
    let best: "w" | "p" | undefined
    let bestCost = direct
    for (const label of ["w", "p"] as const) {
      if (counted.some((segment) => segment.label === label) && through(label) < bestCost) {
        best = label
        bestCost = through(label)
      }
    }
    if (best === undefined) {
      for (const segment of counted) read("daily", segment.from, segment.to, own(segment.label))
    } else {
      const chosen = own(best)
      read("monthly", month, end, chosen)
      for (const segment of segments.filter((s) => s.label !== best)) {
        const { p, w } = own(segment.label)
        read("daily", segment.from, segment.to, { w: (w - chosen.w) as Read["w"], p: (p - chosen.p) as Read["p"] })
      }
    }
  }
  return reads
}
