import { Either } from "effect"
import { isCountryCode } from "../Domain/Country.ts"
import type { FieldErrors } from "../Domain/Errors.ts"
import { type Platform, platforms } from "../Domain/Platform.ts"
import { parseId } from "../Http/ProjectContext.ts"
import {
  bucketCount,
  type DateRange,
  DEFAULT_SORT_BY,
  DEFAULT_SORT_ORDER,
  DEFAULT_TOP_N,
  type Filters,
  type Interval,
  intervals,
  MAX_BUCKETS,
  MAX_TOP_N,
  parseDate,
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

const arrayFields = ["platforms", "countries", "monitors", "tags"] as const
type ArrayField = (typeof arrayFields)[number]

/** The order in which fields appear in `errors`. */
const fieldOrder = ["start_date", "end_date", ...arrayFields, "sort_by", "sort_order", "interval", "top_n"]

interface FieldError {
  readonly field: string
  readonly index: number
  readonly message: string
}

/** An id filter value that is a well-formed id; whether it belongs to the project is checked later. */
interface Reference {
  readonly index: number
  readonly id: number
}

/** The first pass: what the query string says, before the monitors and tags are looked up. */
export interface Draft<Q> {
  readonly errors: ReadonlyArray<FieldError>
  readonly monitors: ReadonlyArray<Reference>
  readonly tags: ReadonlyArray<Reference>
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
  readonly monitors: Array<Reference>
  readonly tags: Array<Reference>
  readonly range: DateRange | undefined
  readonly filters: Filters
}

const readDate = (errors: Array<FieldError>, field: "start_date" | "end_date", value: string | undefined): number | undefined => {
  if (value === undefined || value === "") {
    errors.push({ field, index: 0, message: `The ${label(field)} field is required.` })
    return undefined
  }
  const ms = parseDate(value)
  if (ms === undefined) errors.push({ field, index: 0, message: `The ${label(field)} field must be a valid date in the format YYYY-MM-DD.` })
  return ms
}

const readIds = (errors: Array<FieldError>, field: "monitors" | "tags", values: ReadonlyArray<string>): Array<Reference> =>
  values.flatMap((value, index) => {
    const id = parseId(value)
    if (id._tag === "Some") return [{ index, id: id.value }]
    const message = /^-?\d+$/.test(value) ? `The ${field}.${index} field must be at least 1.` : `The ${field}.${index} field must be an integer.`
    errors.push({ field, index, message })
    return []
  })

const readCommon = (params: URLSearchParams, today: string): Common => {
  const errors: Array<FieldError> = []
  const start = readDate(errors, "start_date", scalar(params, "start_date"))
  const end = readDate(errors, "end_date", scalar(params, "end_date"))
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

  const given = <A>(list: ReadonlyArray<A>) => (list.length === 0 ? undefined : [...new Set(list)])
  return {
    errors,
    monitors,
    tags,
    range: start !== undefined && end !== undefined ? { start: scalar(params, "start_date")!, end: scalar(params, "end_date")! } : undefined,
    filters: {
      platforms: given(platformValues as Array<Platform>),
      countries: given(countryValues.map((code) => code.toUpperCase())),
      monitors: given(monitors.map((reference) => reference.id)),
      tags: given(tags.map((reference) => reference.id))
    }
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

/** `GET /analytics/sources` and `/analytics/source-urls`: the common filters, `sort_by` and `sort_order`. */
export const readListQuery = <const SortBy extends string>(
  params: URLSearchParams,
  sortKeys: ReadonlyArray<SortBy>,
  today: string
): Draft<ListParams<SortBy>> => {
  const common = readCommon(params, today)
  const sortBy = readChoice(common.errors, "sort_by", sortKeys, scalar(params, "sort_by"), DEFAULT_SORT_BY as SortBy)
  const sortOrder = readChoice(common.errors, "sort_order", sortOrders, scalar(params, "sort_order"), DEFAULT_SORT_ORDER)
  return {
    errors: common.errors,
    monitors: common.monitors,
    tags: common.tags,
    value: common.errors.length === 0 && sortBy !== undefined && sortOrder !== undefined && common.range !== undefined
      ? { range: common.range, filters: common.filters, sortBy, sortOrder }
      : undefined
  }
}

/**
 * `top_n`: an integer clamped to 1..50; absent, empty or not an integer counts as the default 20
 * (the rule of `per_page`, docs/api.md: never an error).
 */
export const readTopN = (raw: string | undefined): number => {
  if (raw === undefined || !/^-?\d+$/.test(raw)) return DEFAULT_TOP_N
  return Math.min(MAX_TOP_N, Math.max(1, Number(raw)))
}

/** `GET /analytics/source-url-usage-time-series`: the common filters, `interval` (required) and `top_n`. */
export const readSeriesQuery = (params: URLSearchParams, today: string): Draft<SeriesParams> => {
  const common = readCommon(params, today)
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
  return {
    errors: common.errors,
    monitors: common.monitors,
    tags: common.tags,
    value: common.errors.length === 0 && interval !== undefined && range !== undefined
      ? { range, filters: common.filters, interval, topN: readTopN(scalar(params, "top_n")) }
      : undefined
  }
}

/** The ids a draft asks to look up in the project. */
export const referencesOf = (draft: Draft<unknown>) => ({
  monitors: [...new Set(draft.monitors.map((reference) => reference.id))],
  tags: [...new Set(draft.tags.map((reference) => reference.id))]
})

/**
 * The second pass: monitors and tags that are not the project's own are `The selected monitors.0 is
 * invalid.`; then either every error, in field order, or the decoded query.
 */
export const finish = <Q>(
  draft: Draft<Q>,
  known: { readonly monitors: ReadonlyArray<number>; readonly tags: ReadonlyArray<number> }
): Either.Either<Q, FieldErrors> => {
  const errors = [...draft.errors]
  for (const field of ["monitors", "tags"] as const) {
    const ids = new Set(known[field])
    for (const reference of draft[field]) {
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
