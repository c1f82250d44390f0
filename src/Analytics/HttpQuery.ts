import { HttpServerRequest } from "@effect/platform"
import { Clock, Effect, Either, Option, Schema } from "effect"
import { formatDate, type References } from "./Analytics.ts"
import { type Draft, finish, namesNoReference, readResponseFilters, referencesOf } from "./Query.ts"
import { ValidationError } from "../Domain/Errors.ts"
import { platforms } from "../Domain/Platform.ts"
import type { ResponseFilters } from "../Responses/Filters.ts"
import * as Fields from "../Http/Fields.ts"

/**
 * The window and filters of the analytics and of the lists of responses, citations and mentions, as
 * the API declares them: text (one value or repeated) that never fails to decode, so that the
 * handlers check the query themselves (Analytics/Query.ts), after the project header, and a 422 lists
 * every failing field under the names of docs/api.md (`platforms.0`, whatever form was sent).
 */
export const rawQuery = (description: string, jsonSchema: object) =>
  Fields.optional(
    Schema.Union(Schema.String, Schema.Array(Schema.String)).annotations({
      description,
      jsonSchema: { ...jsonSchema, description }
    })
  )

/** An array filter, under `name[]` and `name` alike. */
export const arrayQuery = (description: string, items: object) => {
  const schema = { type: "array", items }
  return {
    bracketed: rawQuery(`${description} Repeated: \`name[]=a&name[]=b\`.`, schema),
    plain: rawQuery(`${description} Same as the bracketed form: \`name=a&name=b\`.`, schema)
  }
}

const platformList = arrayQuery("Only responses of these platforms.", { type: "string", enum: platforms })
const countryList = arrayQuery("Only responses collected in these countries (ISO 3166-1 alpha-2, any case).", {
  type: "string",
  minLength: 2,
  maxLength: 2
})
const monitorList = arrayQuery("Only responses of these monitors of the active project.", { type: "integer", minimum: 1 })
const tagList = arrayQuery("Only responses whose prompt carries any of these tags of the active project (now).", {
  type: "integer",
  minimum: 1
})

/** `start_date`, `end_date` (described by the endpoint) and the four filters. */
export const filterQuery = (dates: { readonly start: string; readonly end: string }) => ({
  start_date: rawQuery(dates.start, { type: "string", format: "date" }),
  end_date: rawQuery(dates.end, { type: "string", format: "date" }),
  "platforms[]": platformList.bracketed,
  platforms: platformList.plain,
  "countries[]": countryList.bracketed,
  countries: countryList.plain,
  "monitors[]": monitorList.bracketed,
  monitors: monitorList.plain,
  "tags[]": tagList.bracketed,
  tags: tagList.plain
})

/** The filters of a list: its window optional, both dates or neither. */
export const listFilterQuery = filterQuery({
  start: "Only responses collected on or after this UTC day, `YYYY-MM-DD` (with `end_date`).",
  end: "Only responses collected on or before this UTC day, `YYYY-MM-DD` (with `start_date`): on or after it, not after today."
})

/**
 * A request's query read by `read` (Analytics/Query.ts) and checked: today's date (UTC) for the
 * `end_date` limit, then the ids it names looked up in the active project by `known`. Any failure is
 * one 422 listing every field.
 */
export const decodeQuery = <Q, E, R>(
  read: (params: URLSearchParams, today: string) => Draft<Q>,
  known: (references: References) => Effect.Effect<References, E, R>
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const url = Option.getOrElse(HttpServerRequest.toURL(request), () => new URL(request.url, "http://localhost"))
    const draft = read(url.searchParams, formatDate(yield* Clock.currentTimeMillis))
    const references = referencesOf(draft)
    const found = namesNoReference(references) ? references : yield* known(references)
    return yield* Either.match(finish(draft, found), {
      onLeft: (errors) => Effect.fail(new ValidationError({ errors })),
      onRight: Effect.succeed
    })
  })

/** The window and filters of a list of responses, citations or mentions, checked. */
export const decodeResponseFilters = <E, R>(known: (references: References) => Effect.Effect<References, E, R>) =>
  Effect.map(decodeQuery(readResponseFilters, known), ({ filters, range }): ResponseFilters => ({ ...filters, range }))
