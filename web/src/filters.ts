import type { Query } from "./api/client.ts"
import { type Interval, intervals } from "./api/types.ts"
import { addDays, todayUtc } from "./format.ts"

/**
 * The period and filters of the analytics pages, read from and written to the page's query, so a
 * reload or a shared link keeps them: `days=30` (a window ending today, UTC) or `start`/`end`, and
 * comma lists `platforms`, `countries`, `monitors`, `tags`.
 */
export interface Filters {
  readonly start: string
  readonly end: string
  /** The preset the window came from; null for a chosen start and end. */
  readonly days: number | null
  readonly platforms: ReadonlyArray<string>
  readonly countries: ReadonlyArray<string>
  readonly monitors: ReadonlyArray<number>
  readonly tags: ReadonlyArray<number>
}

export const presets = [7, 30, 90] as const
export const defaultDays = 30

const isDate = (value: string | null): value is string =>
  value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))

const list = (query: URLSearchParams, name: string) => (query.get(name) ?? "").split(",").filter((value) => value !== "")

const ids = (query: URLSearchParams, name: string) =>
  list(query, name).map(Number).filter((id) => Number.isInteger(id) && id > 0)

export const readFilters = (query: URLSearchParams): Filters => {
  const today = todayUtc()
  const start = query.get("start")
  const end = query.get("end")
  const custom = isDate(start) && isDate(end) && start <= end
  const days = Number(query.get("days") ?? defaultDays)
  const preset = Number.isInteger(days) && days >= 1 && days <= 366 ? days : defaultDays
  return {
    start: custom ? start : addDays(today, -(preset - 1)),
    end: custom ? (end > today ? today : end) : today,
    days: custom ? null : preset,
    platforms: list(query, "platforms"),
    countries: list(query, "countries"),
    monitors: ids(query, "monitors"),
    tags: ids(query, "tags")
  }
}

/** The analytics query of the filters (`start_date`, `end_date`, `platforms[]`, ...). */
export const analyticsQuery = (filters: Filters): Query => ({
  start_date: filters.start,
  end_date: filters.end,
  platforms: filters.platforms,
  countries: filters.countries,
  monitors: filters.monitors,
  tags: filters.tags
})

/** Past this many days, a time series is drawn by week unless the user asks otherwise: 90 daily points are noise. */
export const WEEKLY_AFTER_DAYS = 60

/** The days of the window, both ends included. */
export const windowDays = (filters: Filters) => Math.round((Date.parse(filters.end) - Date.parse(filters.start)) / 86_400_000) + 1

/** The interval the user chose (`interval`), or the readable one for the window: by day up to 60 days, by week past them. */
export const readInterval = (query: URLSearchParams, filters: Filters): Interval => {
  const value = query.get("interval")
  if ((intervals as ReadonlyArray<string>).includes(value ?? "")) return value as Interval
  return windowDays(filters) > WEEKLY_AFTER_DAYS ? "week" : "day"
}

/** The previous period of the window: as many days, right before it (docs/api.md). */
export const previousPeriod = (filters: Filters) => {
  const days = windowDays(filters)
  return { start: addDays(filters.start, -days), end: addDays(filters.start, -1) }
}
