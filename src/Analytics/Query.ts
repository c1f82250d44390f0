import { Either } from "effect"
import { isCountryCode } from "../Domain/Country.ts"
import type { FieldErrors } from "../Domain/Errors.ts"
import { type Platform, platforms } from "../Domain/Platform.ts"
import { parseId } from "../Domain/Common.ts"
import {
  bucketCount,
  type BrandMetric,
  brandMetrics,
  type BrandSelection,
  type BrandSortBy,
  brandSortKeys,
  type DateRange,
  DEFAULT_BRAND_METRIC,
  DEFAULT_BRAND_SORT_BY,
  DEFAULT_PROMPT_SORT_BY,
  DEFAULT_PROMPT_SORT_ORDER,
  DEFAULT_SORT_BY,
  DEFAULT_SORT_ORDER,
  DEFAULT_TOP_N,
  type Filters,
  type Interval,
  intervals,
  MAX_BUCKETS,
  MAX_TOP_N,
  parseDate,
  type PromptSortBy,
  promptSortKeys,
  type References,
  type SortOrder,
  sortOrders
} from "./Analytics.ts"

/**
 * The query of the analytics endpoints, read from the request's own query string and checked against
 * docs/api.md, every failing field reported at once (422, Laravel's wording).
 *
 * It reads the URL rather than a decoded record so that the array filters keep the order in which
 * they were sent whatever their form (`platforms[]=a`, `platforms=a`, `platforms[0]=a`, mixed): the
 * n-th value is `platforms.n` in an error. Scalar parameters given twice count by their last value,
 * as `page` and `per_page` do. Every value is trimmed.
 */

/** The array filters whose values are ids of the project's rows, checked against it in a second pass. */
const idFields = ["monitors", "tags", "brands", "segments"] as const
type IdField = (typeof idFields)[number]

const arrayFields = ["platforms", "countries", ...idFields] as const
type ArrayField = (typeof arrayFields)[number]

/** The order in which fields appear in `errors`. */
const fieldOrder = ["start_date", "end_date", ...arrayFields, "sort_by", "sort_order", "interval", "metric", "top_n"]

export interface FieldError {
  readonly field: string
  readonly index: number
  readonly message: string
}

/** An id filter value that is a well-formed id; whether it belongs to the project is checked later. */
interface Reference {
  readonly index: number
  readonly id: number
}

/** The first pass: what the query string says, before the ids it names are looked up in the project. */
export interface Draft<Q> {
  readonly errors: ReadonlyArray<FieldError>
  readonly references: Readonly<Record<IdField, ReadonlyArray<Reference>>>
  /** The decoded query, when every field but the references is valid. */
  readonly value: Q | undefined
}

export interface CommonQuery {
  readonly range: DateRange
  readonly filters: Filters
}

export interface ListParams<SortBy extends string> extends CommonQuery {
  readonly sortBy: SortBy
  readonly sortOrder: SortOrder
}

export interface SeriesParams extends CommonQuery {
  readonly interval: Interval
  readonly topN: number
}

export interface BrandListParams extends ListParams<BrandSortBy> {
  readonly selection: BrandSelection
}

export interface BrandSeriesParams extends SeriesParams {
  readonly metric: BrandMetric
  readonly selection: BrandSelection
}

const label = (field: string) => field.replaceAll("_", " ")

/** The last value of a scalar parameter, trimmed; undefined when absent. */
const scalar = (params: URLSearchParams, name: string): string | undefined => {
  const values = params.getAll(name)
  return values.length === 0 ? undefined : values[values.length - 1]!.trim()
}

/** The values of an array filter in the order sent, under `name`, `name[]` or `name[<n>]`. */
const arrayValues = (params: URLSearchParams, name: ArrayField): Array<string> => {
  const values: Array<string> = []
  for (const [key, value] of params) {
    if (key === name || key === `${name}[]` || (key.startsWith(`${name}[`) && /^\[\d+\]$/.test(key.slice(name.length)))) {
      values.push(value.trim())
    }
  }
  return values
}

interface Common {
  readonly errors: Array<FieldError>
  readonly references: Record<IdField, Array<Reference>>
  readonly range: DateRange | undefined
  readonly filters: Filters
  /** `brands[]` and `segments[]`, read only by the brand endpoints (elsewhere they are unknown parameters). */
  readonly selection: BrandSelection
}

const readDate = (
  errors: Array<FieldError>,
  field: "start_date" | "end_date",
  value: string | undefined,
  missing: string | undefined
): number | undefined => {
  if (value === undefined || value === "") {
    if (missing !== undefined) errors.push({ field, index: 0, message: missing })
    return undefined
  }
  const ms = parseDate(value)
  if (ms === undefined) errors.push({ field, index: 0, message: `The ${label(field)} field must be a valid date in the format YYYY-MM-DD.` })
  return ms
}

const readIds = (errors: Array<FieldError>, field: IdField, values: ReadonlyArray<string>): Array<Reference> =>
  values.flatMap((value, index) => {
    const id = parseId(value)
    if (id._tag === "Some") return [{ index, id: id.value }]
    const message = /^-?\d+$/.test(value) ? `The ${field}.${index} field must be at least 1.` : `The ${field}.${index} field must be an integer.`
    errors.push({ field, index, message })
    return []
  })

/**
 * The window and the filters. The analytics need the window; the lists of responses, citations and
 * mentions take it optionally, both dates or neither (Laravel's `required_with`).
 */
const readCommon = (params: URLSearchParams, today: string, options: { readonly selection?: boolean; readonly datesOptional?: boolean } = {}): Common => {
  const errors: Array<FieldError> = []
  const given = { start_date: scalar(params, "start_date") ?? "", end_date: scalar(params, "end_date") ?? "" }
  const missing = (field: "start_date" | "end_date", other: "start_date" | "end_date") =>
    !options.datesOptional
      ? `The ${label(field)} field is required.`
      : given[other] !== ""
      ? `The ${label(field)} field is required when ${label(other)} is present.`
      : undefined
  const start = readDate(errors, "start_date", scalar(params, "start_date"), missing("start_date", "end_date"))
  const end = readDate(errors, "end_date", scalar(params, "end_date"), missing("end_date", "start_date"))
  if (start !== undefined && end !== undefined && end < start) {
    errors.push({ field: "end_date", index: 0, message: "The end date field must be a date after or equal to start date." })
  }
  if (end !== undefined && end > parseDate(today)!) {
    errors.push({ field: "end_date", index: 0, message: "The end date field must be a date before or equal to today." })
  }

  const platformValues = arrayValues(params, "platforms")
  platformValues.forEach((value, index) => {
    if (!(platforms as ReadonlyArray<string>).includes(value)) {
      errors.push({ field: "platforms", index, message: `The selected platforms.${index} is invalid. Allowed: ${platforms.join(", ")}.` })
    }
  })
  const countryValues = arrayValues(params, "countries")
  countryValues.forEach((value, index) => {
    if (!isCountryCode(value)) {
      errors.push({ field: "countries", index, message: `The countries.${index} field must be an ISO 3166-1 alpha-2 country code.` })
    }
  })
  const monitors = readIds(errors, "monitors", arrayValues(params, "monitors"))
  const tags = readIds(errors, "tags", arrayValues(params, "tags"))
  const brands = options.selection ? readIds(errors, "brands", arrayValues(params, "brands")) : []
  const segments = options.selection ? readIds(errors, "segments", arrayValues(params, "segments")) : []

  const some = <A>(list: ReadonlyArray<A>) => (list.length === 0 ? undefined : [...new Set(list)])
  const ids = (references: ReadonlyArray<Reference>) => some(references.map((reference) => reference.id))
  return {
    errors,
    references: { monitors, tags, brands, segments },
    range: start !== undefined && end !== undefined ? { start: scalar(params, "start_date")!, end: scalar(params, "end_date")! } : undefined,
    filters: {
      platforms: some(platformValues as Array<Platform>),
      countries: some(countryValues.map((code) => code.toUpperCase())),
      monitors: ids(monitors),
      tags: ids(tags)
    },
    selection: { brands: ids(brands), segments: ids(segments) }
  }
}

/** An optional choice: absent or empty takes the default, anything else must be one of `values`. */
const readChoice = <const Values extends ReadonlyArray<string>>(
  errors: Array<FieldError>,
  field: string,
  values: Values,
  raw: string | undefined,
  fallback: Values[number]
): Values[number] | undefined => {
  if (raw === undefined || raw === "") return fallback
  if ((values as ReadonlyArray<string>).includes(raw)) return raw as Values[number]
  errors.push({ field, index: 0, message: `The selected ${label(field)} is invalid. Allowed: ${values.join(", ")}.` })
  return undefined
}

/** A list's common filters, `sort_by` and `sort_order`, with the endpoint's sort keys and defaults. */
const readList = <const SortBy extends string>(
  common: Common,
  params: URLSearchParams,
  sortKeys: ReadonlyArray<SortBy>,
  defaults: { readonly sortBy: SortBy; readonly sortOrder: SortOrder }
) => {
  const sortBy = readChoice(common.errors, "sort_by", sortKeys, scalar(params, "sort_by"), defaults.sortBy)
  const sortOrder = readChoice(common.errors, "sort_order", sortOrders, scalar(params, "sort_order"), defaults.sortOrder)
  return common.errors.length === 0 && sortBy !== undefined && sortOrder !== undefined && common.range !== undefined
    ? { range: common.range, filters: common.filters, sortBy, sortOrder }
    : undefined
}

/** `GET /analytics/sources` and `/analytics/source-urls`: the common filters, `sort_by` and `sort_order`. */
export const readListQuery = <const SortBy extends string>(
  params: URLSearchParams,
  sortKeys: ReadonlyArray<SortBy>,
  today: string
): Draft<ListParams<SortBy>> => {
  const common = readCommon(params, today)
  const value = readList(common, params, sortKeys, { sortBy: DEFAULT_SORT_BY as SortBy, sortOrder: DEFAULT_SORT_ORDER })
  return { errors: common.errors, references: common.references, value }
}

/** The filters of the lists of responses, citations and brand mentions: a window is optional there. */
export interface ResponseFilterParams {
  readonly range: DateRange | undefined
  readonly filters: Filters
}

/** `GET /responses`, `/citations`, `/brand-mentions`: the window (both dates or neither) and the filters. */
export const readResponseFilters = (params: URLSearchParams, today: string): Draft<ResponseFilterParams> => {
  const common = readCommon(params, today, { datesOptional: true })
  const value = common.errors.length === 0 ? { range: common.range, filters: common.filters } : undefined
  return { errors: common.errors, references: common.references, value }
}

/** The window (required) and the four filters alone: brand suggestions and the untracked share. */
export const readWindowQuery = (params: URLSearchParams, today: string): Draft<CommonQuery> => {
  const common = readCommon(params, today)
  const value = common.errors.length === 0 && common.range !== undefined ? { range: common.range, filters: common.filters } : undefined
  return { errors: common.errors, references: common.references, value }
}

/** `GET /analytics/brands`: the common filters, `brands[]`, `segments[]`, `sort_by` (default visibility) and `sort_order` (desc). */
export const readBrandListQuery = (params: URLSearchParams, today: string): Draft<BrandListParams> => {
  const common = readCommon(params, today, { selection: true })
  const value = readList(common, params, brandSortKeys, { sortBy: DEFAULT_BRAND_SORT_BY, sortOrder: DEFAULT_SORT_ORDER })
  return { errors: common.errors, references: common.references, value: value && { ...value, selection: common.selection } }
}

/** `GET /analytics/prompts`: the common filters, `sort_by` (default own_visibility) and `sort_order` (asc). */
export const readPromptListQuery = (params: URLSearchParams, today: string): Draft<ListParams<PromptSortBy>> => {
  const common = readCommon(params, today)
  const value = readList(common, params, promptSortKeys, { sortBy: DEFAULT_PROMPT_SORT_BY, sortOrder: DEFAULT_PROMPT_SORT_ORDER })
  return { errors: common.errors, references: common.references, value }
}

/**
 * `top_n`: an integer clamped to 1..50; absent, empty or not an integer counts as the default 20
 * (the rule of `per_page`, docs/api.md: never an error).
 */
export const readTopN = (raw: string | undefined): number => {
  if (raw === undefined || !/^-?\d+$/.test(raw)) return DEFAULT_TOP_N
  return Math.min(MAX_TOP_N, Math.max(1, Number(raw)))
}

/** A series' common filters, `interval` (required; at most 1000 buckets) and `top_n`. */
const readSeries = (common: Common, params: URLSearchParams): SeriesParams | undefined => {
  const raw = scalar(params, "interval")
  let interval: Interval | undefined
  if (raw === undefined || raw === "") {
    common.errors.push({ field: "interval", index: 0, message: "The interval field is required." })
  } else if ((intervals as ReadonlyArray<string>).includes(raw)) {
    interval = raw as Interval
  } else {
    common.errors.push({ field: "interval", index: 0, message: `The selected interval is invalid. Allowed: ${intervals.join(", ")}.` })
  }
  const range = common.range
  const rangeValid = range !== undefined && !common.errors.some((error) => error.field === "end_date")
  if (interval !== undefined && rangeValid && bucketCount(interval, range) > MAX_BUCKETS) {
    common.errors.push({
      field: "interval",
      index: 0,
      message: `The interval must not divide the dates into more than ${MAX_BUCKETS} buckets.`
    })
  }
  return common.errors.length === 0 && interval !== undefined && range !== undefined
    ? { range, filters: common.filters, interval, topN: readTopN(scalar(params, "top_n")) }
    : undefined
}

/** `GET /analytics/source-url-usage-time-series`: the common filters, `interval` (required) and `top_n`. */
export const readSeriesQuery = (params: URLSearchParams, today: string): Draft<SeriesParams> => {
  const common = readCommon(params, today)
  return { errors: common.errors, references: common.references, value: readSeries(common, params) }
}

/** `GET /analytics/brands/time-series`: a series' parameters, `metric` (default visibility), `brands[]` and `segments[]`. */
export const readBrandSeriesQuery = (params: URLSearchParams, today: string): Draft<BrandSeriesParams> => {
  const common = readCommon(params, today, { selection: true })
  const metric = readChoice(common.errors, "metric", brandMetrics, scalar(params, "metric"), DEFAULT_BRAND_METRIC)
  const series = readSeries(common, params)
  return {
    errors: common.errors,
    references: common.references,
    value: series !== undefined && metric !== undefined ? { ...series, metric, selection: common.selection } : undefined
  }
}

/** The ids a draft asks to look up in the project, by filter. */
export const referencesOf = (draft: Draft<unknown>): References => {
  const ids = (field: IdField) => [...new Set(draft.references[field].map((reference) => reference.id))]
  return { monitors: ids("monitors"), tags: ids("tags"), brands: ids("brands"), segments: ids("segments") }
}

/** Whether a draft names no id at all (nothing to look up). */
export const namesNoReference = (references: References): boolean => idFields.every((field) => references[field].length === 0)

/**
 * The second pass: ids that are not the project's own are `The selected monitors.0 is invalid.`; then
 * either every error, in field order, or the decoded query.
 */
export const finish = <Q>(draft: Draft<Q>, known: References): Either.Either<Q, FieldErrors> => {
  const errors = [...draft.errors]
  for (const field of idFields) {
    const ids = new Set(known[field])
    for (const reference of draft.references[field]) {
      if (!ids.has(reference.id)) errors.push({ field, index: reference.index, message: `The selected ${field}.${reference.index} is invalid.` })
    }
  }
  if (errors.length === 0 && draft.value !== undefined) return Either.right(draft.value)
  const ordered = errors
    .map((error, position) => ({ ...error, position }))
    .sort((a, b) => fieldOrder.indexOf(a.field) - fieldOrder.indexOf(b.field) || a.index - b.index || a.position - b.position)
  const result: Record<string, Array<string>> = {}
  for (const error of ordered) {
    const key = (arrayFields as ReadonlyArray<string>).includes(error.field) ? `${error.field}.${error.index}` : error.field
    result[key] = [...(result[key] ?? []), error.message]
  }
  return Either.left(result)
}
