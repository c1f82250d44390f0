/**
 * ISO 8601 weeks (Monday to Sunday, week 1 holding the year's first Thursday), in UTC, for the
 * weekly digest: it covers the last full week before the Monday it is sent on.
 */
export interface IsoWeek {
  /** `YYYY-Www`, with the ISO week-numbering year (2027-W53 can end in January). */
  readonly label: string
  /** Monday and Sunday, `YYYY-MM-DD`, both included. */
  readonly startDate: string
  readonly endDate: string
}

const DAY = 86_400_000

const day = (time: number): string => new Date(time).toISOString().slice(0, 10)

/** The ISO week holding the UTC day of `time`. */
export const isoWeekOf = (time: Date): IsoWeek => {
  const midnight = Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate())
  const weekday = (new Date(midnight).getUTCDay() + 6) % 7 // Monday 0 … Sunday 6
  const monday = midnight - weekday * DAY
  const thursday = monday + 3 * DAY
  const year = new Date(thursday).getUTCFullYear()
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / DAY / 7) + 1
  return { label: `${year}-W${String(week).padStart(2, "0")}`, startDate: day(monday), endDate: day(monday + 6 * DAY) }
}

/** The last ISO week that has ended by `now`, and the week before it. */
export const lastFullWeeks = (now: Date): { readonly week: IsoWeek; readonly previous: IsoWeek } => {
  const current = isoWeekOf(now)
  const lastMonday = Date.parse(`${current.startDate}T00:00:00.000Z`) - 7 * DAY
  return { week: isoWeekOf(new Date(lastMonday)), previous: isoWeekOf(new Date(lastMonday - 7 * DAY)) }
}
