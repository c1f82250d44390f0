import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { decodeQuery } from "./HttpQuery.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { paginated } from "../Http/Responses.ts"
import { Analytics, sourceSortKeys, urlSortKeys } from "./Analytics.ts"
import {
  type Draft,
  readBrandListQuery,
  readBrandSeriesQuery,
  readListQuery,
  readPromptListQuery,
  readSeriesQuery
} from "./Query.ts"
import { AnalyticsApi } from "./Api.ts"
import * as Area from "../Area.ts"
import * as AnalyticsMemory from "./AnalyticsMemory.ts"
import * as AnalyticsSql from "./AnalyticsSql.ts"

/**
 * The analytics handlers. A database failure is a defect, as in the repositories (Database/Rows.ts): the
 * service reports it as one, so a handler fails only with the query's own errors (400, 422).
 */
export const AnalyticsLive = ApiGroup.group(AnalyticsApi, (handlers) =>
  Effect.gen(function*() {
    const analytics = yield* Analytics

    /** The request's query, checked (HttpQuery.ts), with the ids it names looked up in the active project. */
    const decode = <Q>(read: (params: URLSearchParams, today: string) => Draft<Q>) =>
      Effect.flatMap(CurrentProject, (project) =>
        Effect.map(decodeQuery(read, (references) => analytics.knownReferences(project.id, references)), (query) => ({ projectId: project.id, query })))

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
      .handle("brands", ({ urlParams }) =>
        Effect.gen(function*() {
          const { projectId, query } = yield* decode(readBrandListQuery)
          return yield* paginated(urlParams, (window) => analytics.brands(projectId, { ...query, window }))
        }))
      .handle("brandSeries", () =>
        Effect.gen(function*() {
          const { projectId, query } = yield* decode(readBrandSeriesQuery)
          return { data: yield* analytics.brandSeries(projectId, query) }
        }))
      .handle("prompts", ({ urlParams }) =>
        Effect.gen(function*() {
          const { projectId, query } = yield* decode(readPromptListQuery)
          return yield* paginated(urlParams, (window) => analytics.prompts(projectId, { ...query, window }))
        }))
  }))

/** The project's analytics. */
export const AnalyticsArea = Area.make({
  groups: [AnalyticsApi],
  handlers: AnalyticsLive,
  repositories: [Area.repository(Analytics, { sql: AnalyticsSql.layerSql, memory: AnalyticsMemory.layerMemory })],
  abilities: ["analytics:read"]
})
