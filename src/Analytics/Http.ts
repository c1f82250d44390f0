import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Clock, Effect, Either, Option } from "effect"
import { Api } from "../Api.ts"
import { ValidationError } from "../Domain/Errors.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { paginated } from "../Http/Responses.ts"
import { Analytics, formatDate, sourceSortKeys, urlSortKeys } from "./Analytics.ts"
import { type Draft, finish, readListQuery, readSeriesQuery, referencesOf } from "./Query.ts"

export const AnalyticsLive = HttpApiBuilder.group(Api, "analytics", (handlers) =>
  Effect.gen(function*() {
    const analytics = yield* Analytics

    /**
     * The request's query, checked (docs/api.md): the query string as sent, today's date (UTC)
     * for the `end_date` limit, then the monitors and tags looked up in the active project. Any
     * failure is one 422 listing every field.
     */
    const decode = <Q>(read: (params: URLSearchParams, today: string) => Draft<Q>) =>
      Effect.gen(function*() {
        const project = yield* CurrentProject
        const request = yield* HttpServerRequest.HttpServerRequest
        const url = Option.getOrElse(HttpServerRequest.toURL(request), () => new URL(request.url, "http://localhost"))
        const today = formatDate(yield* Clock.currentTimeMillis)
        const draft = read(url.searchParams, today)
        const references = referencesOf(draft)
        const known = references.monitors.length === 0 && references.tags.length === 0
          ? references
          : yield* analytics.knownReferences(project.id, references)
        const query = yield* Either.match(finish(draft, known), {
          onLeft: (errors) => Effect.fail(new ValidationError({ errors })),
          onRight: Effect.succeed
        })
        return { projectId: project.id, query }
      })

    return handlers
      .handle("sources", ({ urlParams }) =>
        Effect.gen(function*() {
          const { projectId, query } = yield* decode((params, today) => readListQuery(params, sourceSortKeys, today))
          return yield* paginated(urlParams, (window) => analytics.sources(projectId, { ...query, window }))
        }))
      .handle("sourceUrls", ({ urlParams }) =>
        Effect.gen(function*() {
          const { projectId, query } = yield* decode((params, today) => readListQuery(params, urlSortKeys, today))
          return yield* paginated(urlParams, (window) => analytics.sourceUrls(projectId, { ...query, window }))
        }))
      .handle("sourceUrlUsage", () =>
        Effect.gen(function*() {
          const { projectId, query } = yield* decode(readSeriesQuery)
          return { data: yield* analytics.sourceUrlUsage(projectId, query) }
        }))
  }))
