import { HttpServerRequest } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import type { Page, Window } from "../Domain/Page.ts"
import { paginate, parsePageRequest } from "./Pagination.ts"

/** A single resource is wrapped: `{"data": {...}}` (docs/api.md). */
export const DataOf = <S extends Schema.Schema.Any>(item: S) => Schema.Struct({ data: item })

/** `page` and `per_page` of every list: never an error, bad values fall back (docs/api.md). */
const lenient = (description: string, example: string) =>
  Schema.optionalWith(
    // Repeated (`?page=1&page=2`) is not an error either: the last one counts.
    Schema.Union(Schema.String, Schema.Array(Schema.String)).annotations({
      description,
      jsonSchema: { type: "integer", description, examples: [Number(example)] }
    }),
    { exact: true }
  )

export const PageQuery = {
  page: lenient("Page number, from 1 (default 1).", "1"),
  per_page: lenient("Records per page: 1 to 100, clamped (default 25).", "25")
}

/** `page` and `per_page` as the query gave them. */
export interface PageParams {
  readonly page?: string | ReadonlyArray<string> | undefined
  readonly per_page?: string | ReadonlyArray<string> | undefined
}

/** One page of a list in the pagination envelope, with links built from the request's own URL. */
export const paginated = <A, E, R>(
  query: PageParams,
  fetch: (window: Window) => Effect.Effect<Page<A>, E, R>
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const pageRequest = parsePageRequest(query)
    const page = yield* fetch(pageRequest)
    const url = Option.getOrElse(HttpServerRequest.toURL(request), () => new URL(request.url, "http://localhost"))
    return paginate(url, pageRequest, page.total, page.rows)
  })
