/**
 * Laravel-style pagination envelope (`data` / `links` / `meta`).
 *
 * The shape, key order, link windowing and URL rules follow the API's
 * binding pagination spec to the letter, because clients (and black-box
 * tests) compare the output byte for byte.
 */
import { Schema } from "effect"

// ---------------------------------------------------------------------------
// Page request parsing
// ---------------------------------------------------------------------------

export const DEFAULT_PER_PAGE = 25
export const MAX_PER_PAGE = 100

export interface PageRequest {
  readonly page: number
  readonly perPage: number
  /** Rows to skip: (page - 1) * perPage. */
  readonly offset: number
  /** Rows to fetch: perPage. */
  readonly limit: number
}

type QueryValue = string | ReadonlyArray<string> | undefined

// A repeated query parameter counts by its last occurrence.
const lastValue = (value: QueryValue): string | undefined =>
  typeof value === "string" ? value : value === undefined ? undefined : value[value.length - 1]

// Only plain decimal integers count; "1.5", "1e3", " 2" or "" do not.
const parseInteger = (value: string | undefined): number | undefined =>
  value !== undefined && /^-?\d+$/.test(value) ? Number(value) : undefined

/** Never fails: bad input falls back to page 1 / 25 per page. */
export const parsePageRequest = (params: {
  readonly page?: QueryValue
  readonly per_page?: QueryValue
}): PageRequest => {
  const rawPage = parseInteger(lastValue(params.page))
  // Huge values are not safe integers and are treated as invalid.
  const page = rawPage !== undefined && Number.isSafeInteger(rawPage) && rawPage >= 1 ? rawPage : 1

  const rawPerPage = parseInteger(lastValue(params.per_page))
  // Huge values (even Infinity from a very long digit string) simply clamp.
  const perPage =
    rawPerPage === undefined ? DEFAULT_PER_PAGE : Math.min(MAX_PER_PAGE, Math.max(1, rawPerPage))

  return { page, perPage, offset: (page - 1) * perPage, limit: perPage }
}

// ---------------------------------------------------------------------------
// Envelope type and schema
// ---------------------------------------------------------------------------

export interface PaginationLink {
  readonly url: string | null
  readonly label: string
  readonly page: number | null
  readonly active: boolean
}

export interface PaginationLinks {
  readonly first: string
  readonly last: string
  readonly prev: string | null
  readonly next: string | null
}

export interface PaginationMeta {
  readonly current_page: number
  readonly from: number | null
  readonly last_page: number
  readonly links: ReadonlyArray<PaginationLink>
  readonly path: string
  readonly per_page: number
  readonly to: number | null
  readonly total: number
}

export interface Paginated<A> {
  readonly data: ReadonlyArray<A>
  readonly links: PaginationLinks
  readonly meta: PaginationMeta
}

// Schema.Struct encodes properties in declaration order, which is what
// guarantees the key order on the wire: keep these fields in spec order.
export const PaginationLinkSchema = Schema.Struct({
  url: Schema.NullOr(Schema.String).annotations({ description: "Page URL, or null when there is no such page" }),
  label: Schema.String.annotations({ description: "Link label: page number, \"...\", or previous/next label" }),
  page: Schema.NullOr(Schema.Int).annotations({ description: "Target page number, or null" }),
  active: Schema.Boolean.annotations({ description: "Whether this is the current page" })
}).annotations({ identifier: "PaginationLink", description: "One entry of the pagination bar" })

export const PaginationLinksSchema = Schema.Struct({
  first: Schema.String.annotations({ description: "URL of the first page" }),
  last: Schema.String.annotations({ description: "URL of the last page" }),
  prev: Schema.NullOr(Schema.String).annotations({ description: "URL of the previous page, or null on page 1" }),
  next: Schema.NullOr(Schema.String).annotations({ description: "URL of the next page, or null on the last page" })
}).annotations({ identifier: "PaginationLinks", description: "Navigation URLs" })

export const PaginationMetaSchema = Schema.Struct({
  current_page: Schema.Int.annotations({ description: "Requested page number (1-based)" }),
  from: Schema.NullOr(Schema.Number).annotations({ description: "1-based index of the first row on this page, or null if empty" }),
  last_page: Schema.Int.annotations({ description: "Number of the last page (at least 1)" }),
  links: Schema.Array(PaginationLinkSchema).annotations({ description: "Pagination bar links" }),
  path: Schema.String.annotations({ description: "Request URL without query string" }),
  per_page: Schema.Int.annotations({ description: "Rows per page (1-100)" }),
  to: Schema.NullOr(Schema.Number).annotations({ description: "1-based index of the last row on this page, or null if empty" }),
  total: Schema.Int.annotations({ description: "Total number of rows" })
}).annotations({ identifier: "PaginationMeta", description: "Pagination metadata" })

/** Envelope schema for a paginated list of `item`, usable as an HttpApi success schema. */
export const PaginatedSchema = <S extends Schema.Schema.Any>(item: S) =>
  Schema.Struct({
    data: Schema.Array(item).annotations({ description: "Rows of the current page" }),
    links: PaginationLinksSchema,
    meta: PaginationMetaSchema
  })

// ---------------------------------------------------------------------------
// Building the envelope
// ---------------------------------------------------------------------------

// encodeURIComponent, but brackets stay readable (`platforms[]=a`).
const encode = (s: string): string => encodeURIComponent(s).replace(/%5B/gi, "[").replace(/%5D/gi, "]")

/** Builds page URLs: other query params kept in order, `page` moved last. */
const pageUrlBuilder = (url: URL, path: string): ((page: number) => string) => {
  const kept = [...url.searchParams.entries()]
    .filter(([name]) => name !== "page")
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
  const prefix = kept.length === 0 ? `${path}?` : `${path}?${kept.join("&")}&`
  return (page) => `${prefix}page=${page}`
}

type WindowItem = number | "..."

const range = (from: number, to: number): Array<number> =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i)

// 3 pages on each side of the current one; c may be past the end.
const pageWindow = (c: number, last: number): Array<WindowItem> => {
  if (last <= 13) return range(1, last)
  if (c <= 7) return [...range(1, 10), "...", last - 1, last]
  if (c > last - 7) return [1, 2, "...", ...range(last - 9, last)]
  return [1, 2, "...", ...range(c - 3, c + 3), "...", last - 1, last]
}

/**
 * Wraps one page of rows in the envelope.
 * `requestUrl` is the full absolute request URL; `total` counts all rows.
 */
export const paginate = <A>(
  requestUrl: URL | string,
  page: PageRequest,
  total: number,
  rows: ReadonlyArray<A>
): Paginated<A> => {
  const url = typeof requestUrl === "string" ? new URL(requestUrl) : requestUrl
  const path = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`
  const pageUrl = pageUrlBuilder(url, path)

  const current = page.page
  const lastPage = Math.max(Math.ceil(total / page.perPage), 1)
  const prevPage = current > 1 ? current - 1 : null
  const nextPage = current < lastPage ? current + 1 : null
  const prev = prevPage === null ? null : pageUrl(prevPage)
  const next = nextPage === null ? null : pageUrl(nextPage)

  const from = rows.length === 0 ? null : (current - 1) * page.perPage + 1
  const to = from === null ? null : from + rows.length - 1

  const links: Array<PaginationLink> = [
    { url: prev, label: "&laquo; Previous", page: prevPage, active: false },
    ...pageWindow(current, lastPage).map((item): PaginationLink =>
      item === "..."
        ? { url: null, label: "...", page: null, active: false }
        : { url: pageUrl(item), label: String(item), page: item, active: item === current }
    ),
    { url: next, label: "Next &raquo;", page: nextPage, active: false }
  ]

  return {
    data: rows,
    links: { first: pageUrl(1), last: pageUrl(lastPage), prev, next },
    meta: {
      current_page: current,
      from,
      last_page: lastPage,
      links,
      path,
      per_page: page.perPage,
      to,
      total
    }
  }
}
