import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { decodeQuery } from "./HttpQuery.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { type PageParams, paginated } from "../Http/Responses.ts"
import type { Page, Window } from "../Domain/Page.ts"
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

    /** A ranked list: the query checked, then the page of rows its window asks for. */
    const list = <Q, A, E>(
      read: (params: URLSearchParams, today: string) => Draft<Q>,
      rows: (projectId: number, query: Q & { readonly window: Window }) => Effect.Effect<Page<A>, E>
    ) =>
    ({ urlParams }: { readonly urlParams: PageParams }) =>
      Effect.flatMap(decode(read), ({ projectId, query }) => paginated(urlParams, (window) => rows(projectId, { ...query, window })))

    /** A time series: the query checked, then the series. */
    const series = <Q, A, E>(read: (params: URLSearchParams, today: string) => Draft<Q>, of: (projectId: number, query: Q) => Effect.Effect<A, E>) => () =>
      Effect.flatMap(decode(read), ({ projectId, query }) => Effect.map(of(projectId, query), (data) => ({ data })))

    return handlers
      .handle("sources", list((params, today) => readListQuery(params, sourceSortKeys, today), analytics.sources))
      .handle("sourceUrls", list((params, today) => readListQuery(params, urlSortKeys, today), analytics.sourceUrls))
      .handle("sourceUrlUsage", series(readSeriesQuery, analytics.sourceUrlUsage))
      .handle("brands", list(readBrandListQuery, analytics.brands))
      .handle("brandSeries", series(readBrandSeriesQuery, analytics.brandSeries))
      .handle("prompts", list(readPromptListQuery, analytics.prompts))
  }))

/** The project's analytics. */
export const AnalyticsArea = Area.make({
  groups: [AnalyticsApi],
  handlers: AnalyticsLive,
  repositories: [Area.repository(Analytics, { sql: AnalyticsSql.layerSql, memory: AnalyticsMemory.layerMemory })],
  abilities: ["analytics:read"]
})
