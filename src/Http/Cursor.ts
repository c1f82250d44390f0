import { HttpServerRequest } from "@effect/platform"
import { Effect, Either, Option, Schema } from "effect"
import { createHash } from "node:crypto"
import { ValidationError } from "../Domain/Errors.ts"
import type { Key, KeyPart, Keyset, KeysetPage, Page, Window } from "../Domain/Page.ts"
import * as Fields from "./Fields.ts"
import { PaginatedSchema, parsePageRequest } from "./Pagination.ts"
import { type PageParams, paginated } from "./Responses.ts"

/**
 * Reading a whole list by cursor (docs/api.md, "Reading a whole list: cursors"): `cursor` beside `page`.
 * An empty `cursor` asks for the first rows, and every answer gives the cursor of the next ones. A cursor
 * is the key of the last row of its page (Domain/Page.ts) and a digest of the list it was made for: the
 * endpoint, the project, the query's other parameters (its filters and order; not `page`, `per_page` or
 * `include`, which change no row of it), and the key itself. Opaque to clients (base64url
 * text of JSON), checked before any query: one that does not decode, holds values of the wrong kind, or
 * was made for another list (or altered) is a 422 on `cursor`. The digest is not a secret: a cursor a
 * client forges can only start its own project's list at some key, which the query's conditions bound.
 */

/** Longer than any cursor this service makes (a timestamp, an id and a digest are ~100 characters). */
const MAX_CURSOR_LENGTH = 512

/** `cursor` of a list's query: text that never fails to decode, so that the handler checks it (422 on `cursor`). */
export const CursorQuery = {
  cursor: Fields.optional(
    Schema.Union(Schema.String, Schema.Array(Schema.String)).annotations({
      description: "Read the list by cursor instead of by page: empty for the first rows, then `meta.next_cursor` of the " +
        "previous answer (or follow `links.next`). Not with `page`.",
      jsonSchema: { type: "string", description: "Empty for the first rows, then the previous answer's `meta.next_cursor`." }
    })
  )
}

/** The envelope of a list read by cursor: the rows, the link to the next ones, and their cursor. */
export const CursorPageSchema = <S extends Schema.Schema.Any>(item: S) =>
  Schema.Struct({
    data: Schema.Array(item).annotations({ description: "Rows of this page" }),
    links: Schema.Struct({
      next: Schema.NullOr(Schema.String).annotations({ description: "URL of the next rows, or null after the last ones" })
    }).annotations({ identifier: "CursorLinks" }),
    meta: Schema.Struct({
      path: Schema.String.annotations({ description: "Request URL without query string" }),
      per_page: Schema.Int.annotations({ description: "Rows per page (1-100)" }),
      next_cursor: Schema.NullOr(Schema.String).annotations({ description: "Cursor of the next rows, or null after the last ones" })
    }).annotations({ identifier: "CursorMeta" })
  }).annotations({ description: "A page of a list read by cursor" })

/** A list's answer: the pagination envelope by page number, the cursor envelope by cursor. */
export const ListSchema = <S extends Schema.Schema.Any>(item: S) => Schema.Union(PaginatedSchema(item), CursorPageSchema(item))

const digest = (list: string, key: Key) =>
  createHash("sha256").update(list).update("\u0000").update(JSON.stringify(key)).digest("base64url").slice(0, 22)

/** The cursor of the rows after `key` in the list `list` (the canonical text of what the list is). */
export const encodeCursor = (list: string, key: Key): string =>
  Buffer.from(JSON.stringify([key, digest(list, key)])).toString("base64url")

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const isPart = (part: KeyPart, value: unknown): boolean =>
  part === "integer"
    ? typeof value === "number" && Number.isSafeInteger(value)
    : typeof value === "string" && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)) &&
      new Date(value).toISOString() === value

export const INVALID_CURSOR = "The cursor is invalid."
export const FOREIGN_CURSOR = "The cursor was made for another list: another endpoint, project, filters or order."

/** The key a cursor holds, if it is one this service made for the list `list`, whose keys hold `parts`; else why not. */
export const decodeCursor = (raw: string, list: string, parts: ReadonlyArray<KeyPart>): Either.Either<Key, string> => {
  if (raw.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(raw)) return Either.left(INVALID_CURSOR)
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"))
  } catch {
    return Either.left(INVALID_CURSOR)
  }
  if (!Array.isArray(decoded) || decoded.length !== 2 || !Array.isArray(decoded[0]) || typeof decoded[1] !== "string") {
    return Either.left(INVALID_CURSOR)
  }
  const [key, check] = decoded as [Array<unknown>, string]
  if (check !== digest(list, key as Key)) return Either.left(FOREIGN_CURSOR)
  // A digest that matches with values of the wrong kind is a forged cursor: refused before any query sees them.
  if (key.length !== parts.length || !parts.every((part, i) => isPart(part, key[i]))) return Either.left(INVALID_CURSOR)
  return Either.right(key as Key)
}

/** What a list is, for its cursors: the endpoint and the project; and what its keys hold in its order. */
export interface CursorList {
  readonly endpoint: string
  readonly projectId: number
  readonly parts: ReadonlyArray<KeyPart>
}

/** Parameters that choose no row of a list: a cursor is good whatever they are. */
const notOfTheList = new Set(["page", "per_page", "cursor", "include", "format"])

/**
 * The canonical text of a list for its cursors: the endpoint, the project, and the query's parameters
 * that choose its rows and their order, sorted (their order in the query changes nothing).
 */
export const listText = (endpoint: string, projectId: number, params: URLSearchParams): string => {
  const pairs = [...params.entries()].filter(([name]) => !notOfTheList.has(name))
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
  return JSON.stringify([endpoint, projectId, pairs])
}

export interface ListParams extends PageParams {
  readonly cursor?: string | ReadonlyArray<string> | undefined
}

const lastValue = (value: string | ReadonlyArray<string>): string => (typeof value === "string" ? value : value[value.length - 1] ?? "")

// encodeURIComponent, but brackets stay readable (`platforms[]=a`), as in the page links.
const encode = (s: string): string => encodeURIComponent(s).replace(/%5B/gi, "[").replace(/%5D/gi, "]")

/**
 * One page of a list: by page number in the pagination envelope (`byPage`), unless the query has a
 * `cursor`; then by key (`byKey`) in the cursor envelope. `page` and `cursor` together are a 422.
 */
export const listed = <A, E, R, E2, R2>(
  query: ListParams,
  list: CursorList,
  byPage: (window: Window) => Effect.Effect<Page<A>, E, R>,
  byKey: (keyset: Keyset) => Effect.Effect<KeysetPage<A>, E2, R2>
) =>
  Effect.gen(function*() {
    if (query.cursor === undefined) return yield* paginated(query, byPage)
    if (query.page !== undefined) return yield* ValidationError.field("cursor", "The cursor field cannot be combined with page.")
    const request = yield* HttpServerRequest.HttpServerRequest
    const url = Option.getOrElse(HttpServerRequest.toURL(request), () => new URL(request.url, "http://localhost"))
    const canonical = listText(list.endpoint, list.projectId, url.searchParams)
    const raw = lastValue(query.cursor)
    let after: Key | undefined
    if (raw !== "") {
      const key = decodeCursor(raw, canonical, list.parts)
      if (Either.isLeft(key)) return yield* ValidationError.field("cursor", key.left)
      after = key.right
    }
    const { perPage } = parsePageRequest(query)
    const page = yield* byKey({ after, limit: perPage })
    const path = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`
    const nextCursor = page.next === undefined ? null : encodeCursor(canonical, page.next)
    // The request's other parameters kept in their order, `cursor` last, as the page links do with `page`.
    const kept = [...url.searchParams.entries()].filter(([name]) => name !== "cursor").map(([name, value]) => `${encode(name)}=${encode(value)}`)
    return {
      data: page.rows,
      links: { next: nextCursor === null ? null : `${path}?${[...kept, `cursor=${nextCursor}`].join("&")}` },
      meta: { path, per_page: perPage, next_cursor: nextCursor }
    }
  })
