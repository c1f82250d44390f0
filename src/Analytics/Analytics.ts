import { Context, type Effect } from "effect"
import { parseDate } from "../Domain/Common.ts"
import type { Page, Window } from "../Domain/Page.ts"
import type { Classification } from "../Domain/Brand.ts"
import type { Platform } from "../Domain/Platform.ts"
import type { ConfidenceInterval } from "./Statistics.ts"

/**
 * Analytics (docs/api.md). Source analytics: the share of analyzed responses citing each source or
 * exact URL, over a window W and the equal-length period P right before it, and the per-bucket usage
 * of the top URLs. Brand analytics: visibility, share of voice, position and sentiment of the
 * project's brands, with their counts, intervals and changes, per brand, per bucket and per prompt.
 * Two implementations: set-based SQL (AnalyticsSql.ts, BrandAnalyticsSql.ts) and a reference over
 * the in-memory tables (AnalyticsMemory.ts, BrandAnalyticsMemory.ts), held to each other by
 * test/unit/analytics/differential.test.ts.
 *
 * This module holds the contract and the few pure definitions both implementations share: calendar
 * dates, the periods, the buckets of a time series and the rounding of docs/api.md.
 */

// ---------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------

export const intervals = ["day", "week", "month", "year"] as const
export type Interval = (typeof intervals)[number]

export const sortOrders = ["asc", "desc"] as const
export type SortOrder = (typeof sortOrders)[number]

/** The measures a list can be sorted by, in the order of a row's fields. */
export const measureKeys = [
  "used_count",
  "used_count_change",
  "used_percentage",
  "used_percentage_change",
  "average_citations",
  "average_citations_change",
  "first_seen_on",
  "last_seen_on"
] as const
export type MeasureKey = (typeof measureKeys)[number]

export const sourceSortKeys = [...measureKeys, "domain"] as const
export type SourceSortBy = (typeof sourceSortKeys)[number]

export const urlSortKeys = [...measureKeys, "url"] as const
export type UrlSortBy = (typeof urlSortKeys)[number]

export const DEFAULT_SORT_BY = "used_percentage"
export const DEFAULT_SORT_ORDER: SortOrder = "desc"
export const DEFAULT_TOP_N = 20
export const MAX_TOP_N = 50
export const MAX_BUCKETS = 1000

/**
 * The filters of docs/api.md; `undefined` means "not given" (every value passes). A given list is
 * never empty. `countries` are upper-case, `monitors` and `tags` ids of the project (checked before).
 */
export interface Filters {
  readonly platforms?: ReadonlyArray<Platform> | undefined
  readonly countries?: ReadonlyArray<string> | undefined
  readonly monitors?: ReadonlyArray<number> | undefined
  readonly tags?: ReadonlyArray<number> | undefined
}

/** The window W: two calendar dates `YYYY-MM-DD`, both inclusive, start <= end. */
export interface DateRange {
  readonly start: string
  readonly end: string
}

export interface ListQuery<SortBy extends string> {
  readonly range: DateRange
  readonly filters: Filters
  readonly sortBy: SortBy
  readonly sortOrder: SortOrder
  readonly window: Window
}

export interface SeriesQuery {
  readonly range: DateRange
  readonly filters: Filters
  readonly interval: Interval
  /** Already clamped to 1..50. */
  readonly topN: number
}

// ---------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------

/** The measures of one row, in the order a row shows them. Dates are `YYYY-MM-DD`. */
export interface Measures {
  readonly used_count: number
  readonly used_count_change: number
  readonly used_percentage: number
  readonly used_percentage_change: number
  readonly average_citations: number
  readonly average_citations_change: number
  readonly first_seen_on: string
  readonly last_seen_on: string
}

export interface SourceRef {
  readonly id: number
  readonly domain: string
}

export interface SourceUrlRef {
  readonly id: number
  readonly source_id: number
  readonly url: string
}

export interface SourceRow extends Measures {
  readonly source: SourceRef
}

export interface SourceUrlRow extends Measures {
  readonly source_url: SourceUrlRef
}

export interface SeriesPoint {
  /** The start of the bucket (UTC). */
  readonly timestamp: Date
  readonly value: number
}

export interface SourceUrlSeries {
  readonly source_url: SourceUrlRef
  readonly data: ReadonlyArray<SeriesPoint>
}

export interface SourceUrlUsage {
  readonly interval: Interval
  readonly series: ReadonlyArray<SourceUrlSeries>
}

// ---------------------------------------------------------------------------
// Brand analytics: parameters
// ---------------------------------------------------------------------------

/** The numeric fields of a brand row, in the order a row shows them: what a brand list sorts by. */
export const brandMeasureKeys = [
  "responses_count",
  "mentioned_count",
  "visibility",
  "visibility_change",
  "total_mentions",
  "share_of_voice",
  "share_of_voice_change",
  "average_position",
  "average_position_change",
  "average_sentiment",
  "average_sentiment_change"
] as const
export type BrandMeasureKey = (typeof brandMeasureKeys)[number]

export const brandSortKeys = [...brandMeasureKeys, "name"] as const
export type BrandSortBy = (typeof brandSortKeys)[number]
export const DEFAULT_BRAND_SORT_BY: BrandSortBy = "visibility"

export const brandMetrics = ["visibility", "share_of_voice", "average_position", "average_sentiment"] as const
export type BrandMetric = (typeof brandMetrics)[number]
export const DEFAULT_BRAND_METRIC: BrandMetric = "visibility"

export const promptSortKeys = ["own_visibility", "responses_count", "brands_mentioned", "text"] as const
export type PromptSortBy = (typeof promptSortKeys)[number]
export const DEFAULT_PROMPT_SORT_BY: PromptSortBy = "own_visibility"
/** Where the own brand is missing first. */
export const DEFAULT_PROMPT_SORT_ORDER: SortOrder = "asc"

/**
 * Which brands get a row or a series: `brands` (ids of the project's brands) and `segments` (brands
 * in any of these segments of the project). They never change a denominator. Given lists are never
 * empty; `undefined` means every counted brand.
 */
export interface BrandSelection {
  readonly brands?: ReadonlyArray<number> | undefined
  readonly segments?: ReadonlyArray<number> | undefined
}

export interface BrandListQuery extends ListQuery<BrandSortBy> {
  readonly selection: BrandSelection
}

export interface BrandSeriesQuery extends SeriesQuery {
  readonly metric: BrandMetric
  readonly selection: BrandSelection
}

export type PromptListQuery = ListQuery<PromptSortBy>

// ---------------------------------------------------------------------------
// Brand analytics: results
// ---------------------------------------------------------------------------

export interface BrandRef {
  readonly id: number
  readonly name: string
  readonly classification: Classification
  /** Whether it is the project's own brand (`brand_id`). */
  readonly is_own: boolean
}

/** What a brand's measures over one set of responses R are made of. */
export interface BrandCounts {
  /** |R| */
  readonly responses: number
  /** Mentions in R of all counted brands. */
  readonly totalMentions: number
  /** Responses in R mentioning the brand: its mentions in R, a response mentioning a brand once at most. */
  readonly mentioned: number
  /** The sums of its mentions' `position` and `sentiment_score` in R. */
  readonly positionSum: number
  readonly sentimentSum: number
}

export const noBrandCounts: BrandCounts = { responses: 0, totalMentions: 0, mentioned: 0, positionSum: 0, sentimentSum: 0 }

/** A brand row before its formulas: the counts over W and P, and the lifetime dates (null when never mentioned). */
export interface BrandRowCounts {
  readonly brand: BrandRef
  readonly w: BrandCounts
  readonly p: BrandCounts
  readonly firstSeenOn: string | null
  readonly lastSeenOn: string | null
}

export interface BrandRow {
  readonly brand: BrandRef
  readonly responses_count: number
  readonly mentioned_count: number
  readonly visibility: number | null
  readonly visibility_ci: ConfidenceInterval | null
  readonly visibility_change: number | null
  readonly visibility_change_significant: boolean
  readonly total_mentions: number
  readonly share_of_voice: number | null
  readonly share_of_voice_ci: ConfidenceInterval | null
  readonly share_of_voice_change: number | null
  readonly share_of_voice_change_significant: boolean
  readonly average_position: number | null
  readonly average_position_change: number | null
  readonly average_sentiment: number | null
  readonly average_sentiment_change: number | null
  readonly first_seen_on: string | null
  readonly last_seen_on: string | null
  /** The counts over P its changes are made of: |R(P)|, responses in R(P) mentioning it, mentions in R(P) of all counted brands. */
  readonly previous_responses_count: number
  readonly previous_mentioned_count: number
  readonly previous_total_mentions: number
}

export interface BrandSeriesPoint {
  /** The start of the bucket (UTC). */
  readonly timestamp: Date
  readonly value: number | null
  /** The numerator of a proportion, or the sample size of a mean. */
  readonly count: number
  /** The denominator of a proportion; null for a mean. */
  readonly total: number | null
}

export interface BrandSeries {
  readonly brand: BrandRef
  readonly data: ReadonlyArray<BrandSeriesPoint>
}

export interface BrandTimeSeries {
  readonly interval: Interval
  readonly metric: BrandMetric
  readonly series: ReadonlyArray<BrandSeries>
}

export interface PromptRef {
  readonly id: number
  readonly text: string
  readonly monitor_id: number
}

/** A prompt row before its formulas: the counts over R(W) of the prompt's responses. */
export interface PromptRowCounts {
  readonly prompt: PromptRef
  readonly responses: number
  /** The own brand's mentions and their positions' sum; null when the project has no counted own brand. */
  readonly own: { readonly mentioned: number; readonly positionSum: number } | null
  /** The counted brand other than the own one mentioned by most responses (at least one). */
  readonly top: { readonly brand: BrandRef; readonly mentioned: number } | null
  /** Counted brands mentioned at least once. */
  readonly brandsMentioned: number
}

export interface PromptRow {
  readonly prompt: PromptRef
  readonly responses_count: number
  readonly own: {
    readonly mentioned_count: number
    readonly visibility: number | null
    readonly visibility_ci: ConfidenceInterval | null
    readonly average_position: number | null
  } | null
  readonly top_competitor: {
    readonly brand: BrandRef
    readonly mentioned_count: number
    readonly visibility: number | null
  } | null
  readonly brands_mentioned: number
}

/** The ids a query names, by filter: which of them belong to the project is the 422 check. */
export interface References {
  readonly monitors: ReadonlyArray<number>
  readonly tags: ReadonlyArray<number>
  readonly brands: ReadonlyArray<number>
  readonly segments: ReadonlyArray<number>
}

// ---------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------

export class Analytics extends Context.Tag("Analytics")<Analytics, {
  /** `GET /analytics/sources`: one page of the sources cited in R(W), sorted, with the exact total. */
  readonly sources: (projectId: number, query: ListQuery<SourceSortBy>) => Effect.Effect<Page<SourceRow>>
  /** `GET /analytics/source-urls`: the same per exact URL. */
  readonly sourceUrls: (projectId: number, query: ListQuery<UrlSortBy>) => Effect.Effect<Page<SourceUrlRow>>
  /** `GET /analytics/source-url-usage-time-series`: dense buckets for the top URLs of R(W). */
  readonly sourceUrlUsage: (projectId: number, query: SeriesQuery) => Effect.Effect<SourceUrlUsage>
  /** `GET /analytics/brands`: one page of the counted brands' rows (all of them, zero counts included), sorted. */
  readonly brands: (projectId: number, query: BrandListQuery) => Effect.Effect<Page<BrandRow>>
  /** `GET /analytics/brands/time-series`: dense buckets of one metric for the top brands of W. */
  readonly brandSeries: (projectId: number, query: BrandSeriesQuery) => Effect.Effect<BrandTimeSeries>
  /** `GET /analytics/prompts`: one page of the prompts answered in R(W), sorted. */
  readonly prompts: (projectId: number, query: PromptListQuery) => Effect.Effect<Page<PromptRow>>
  /** Which of the given monitor, tag, brand and segment ids belong to the project (the filters' 422 check). */
  readonly knownReferences: (projectId: number, references: References) => Effect.Effect<References>
}>() {}

// ---------------------------------------------------------------------------
// Rounding (docs/api.md)
// ---------------------------------------------------------------------------

/**
 * numerator / denominator rounded half away from zero to an integer, exactly: both are integers (safe
 * integers, as counts are), so no binary fraction is ever rounded. denominator must not be 0.
 */
export const roundRatio = (numerator: number, denominator: number): number => {
  const negative = (numerator < 0) !== (denominator < 0)
  const n = Math.abs(numerator)
  const d = Math.abs(denominator)
  // floor(n/d + 1/2) = floor((2n + d) / 2d), on integers.
  const magnitude = Math.floor((2 * n + d) / (2 * d))
  return negative && magnitude !== 0 ? -magnitude : magnitude
}

/** `round(100 × part / whole)`, 0 when whole is 0: a percentage, or an average in hundredths. */
export const hundredfold = (part: number, whole: number): number => whole === 0 ? 0 : roundRatio(100 * part, whole)

// ---------------------------------------------------------------------------
// Calendar dates and periods (UTC)
// ---------------------------------------------------------------------------

export const DAY_MS = 86_400_000

export { parseDate }

/** `YYYY-MM-DD` of an instant (UTC). */
export const formatDate = (ms: number): string => {
  const date = new Date(ms)
  const year = date.getUTCFullYear()
  const yyyy = year >= 0 && year <= 9999 ? String(year).padStart(4, "0") : String(year)
  return `${yyyy}-${String(date.getUTCMonth() + 1).padStart(2, "0")}-${String(date.getUTCDate()).padStart(2, "0")}`
}

/**
 * W = [windowStart, windowEnd) and P = [previousStart, windowStart), in milliseconds: W runs from
 * start 00:00:00.000Z to end 23:59:59.999Z, which at millisecond precision (timestamptz(3)) is the
 * half-open range up to the next midnight; P is the n days right before, n the days of W.
 */
export const periodsOf = (range: DateRange) => {
  const windowStart = parseDate(range.start)!
  const windowEnd = parseDate(range.end)! + DAY_MS
  const days = Math.round((windowEnd - windowStart) / DAY_MS)
  return { windowStart, windowEnd, previousStart: windowStart - days * DAY_MS, days }
}

// ---------------------------------------------------------------------------
// Buckets
// ---------------------------------------------------------------------------

/** The start (ms, UTC) of the bucket that holds `ms`: its day, ISO week (Monday), month or year. */
export const bucketStart = (interval: Interval, ms: number): number => {
  const date = new Date(ms)
  const day = new Date(0)
  day.setUTCFullYear(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate())
  switch (interval) {
    case "day":
      return day.getTime()
    case "week": {
      // getUTCDay: Sunday 0 ... Saturday 6; days back to Monday: (weekday + 6) % 7.
      return day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS
    }
    case "month": {
      day.setUTCDate(1)
      return day.getTime()
    }
    case "year": {
      day.setUTCMonth(0, 1)
      return day.getTime()
    }
  }
}

/** The start of the bucket after the one starting at `start`. */
export const nextBucket = (interval: Interval, start: number): number => {
  const date = new Date(start)
  switch (interval) {
    case "day":
      return start + DAY_MS
    case "week":
      return start + 7 * DAY_MS
    case "month":
      date.setUTCMonth(date.getUTCMonth() + 1, 1)
      return date.getTime()
    case "year":
      date.setUTCFullYear(date.getUTCFullYear() + 1, 0, 1)
      return date.getTime()
  }
}

/**
 * How many buckets the range spans, counted without listing them (the 1000-bucket check must not
 * build a list of a million days first).
 */
export const bucketCount = (interval: Interval, range: DateRange): number => {
  const first = new Date(bucketStart(interval, parseDate(range.start)!))
  const last = new Date(bucketStart(interval, parseDate(range.end)!))
  switch (interval) {
    case "day":
      return Math.round((last.getTime() - first.getTime()) / DAY_MS) + 1
    case "week":
      return Math.round((last.getTime() - first.getTime()) / (7 * DAY_MS)) + 1
    case "month":
      return (last.getUTCFullYear() - first.getUTCFullYear()) * 12 + last.getUTCMonth() - first.getUTCMonth() + 1
    case "year":
      return last.getUTCFullYear() - first.getUTCFullYear() + 1
  }
}

/**
 * The dense list of bucket starts (ms, UTC): the first is the bucket holding the start date (it may
 * begin before it), the last the one holding the end date, every bucket in between present.
 */
export const bucketsOf = (interval: Interval, range: DateRange): Array<number> => {
  const last = bucketStart(interval, parseDate(range.end)!)
  const starts: Array<number> = []
  for (let start = bucketStart(interval, parseDate(range.start)!); start <= last; start = nextBucket(interval, start)) {
    starts.push(start)
  }
  return starts
}

// ---------------------------------------------------------------------------
// Text order
// ---------------------------------------------------------------------------

/**
 * Domains and URLs compare by Unicode code points (what PostgreSQL's "C" collation does on UTF-8),
 * never by locale: the order is the same on every database and in memory.
 */
export const compareText = (a: string, b: string): number => {
  if (a === b) return 0
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) {
      // The first differing UTF-16 unit starts a code point in both strings (or is the low half of two
      // surrogate pairs with the same high half), so comparing the code points there is exact. Units
      // alone would put U+10000 and above (surrogates) before U+E000-U+FFFF.
      return a.codePointAt(i)! < b.codePointAt(i)! ? -1 : 1
    }
  }
  return a.length < b.length ? -1 : 1
}
