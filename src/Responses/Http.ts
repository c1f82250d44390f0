import { Effect, Option } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { Analytics } from "../Analytics/Analytics.ts"
import { orDefect } from "../Database/Rows.ts"
import { orNotFound } from "../Domain/Errors.ts"
import { decodeResponseFilters } from "../Analytics/HttpQuery.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { checkReferences } from "../Http/ProjectResourceHandlers.ts"
import { listed } from "../Http/Cursor.ts"
import { exportOf } from "../Integrations/HttpExport.ts"
import { Citation, Response } from "../Domain/Response.ts"
import { MonitorsRepo } from "../Monitors/Repo.ts"
import { PromptsRepo } from "../Prompts/Repo.ts"
import { searchWords } from "./Filters.ts"
import { Ingestion } from "./Ingestion.ts"
import { citationKeyParts, defaultResponseOrder, responseKeyParts, ResponsesRepo } from "./Repo.ts"
import { ResponsesApi } from "./Api.ts"
import * as Area from "../Area.ts"
import * as ResponsesMemory from "./RepoMemory.ts"
import * as ResponsesSql from "./Repo.ts"

export const ResponsesLive = ApiGroup.group(ResponsesApi, (handlers) =>
  Effect.gen(function*() {
    const responses = yield* ResponsesRepo
    const prompts = yield* PromptsRepo
    const monitors = yield* MonitorsRepo
    const analytics = yield* Analytics
    const ingestion = yield* Ingestion

    /** The window and filters of the request, their ids the project's own (422 otherwise). */
    const filtersOf = (projectId: number) =>
      decodeResponseFilters((references) => orDefect(analytics.knownReferences(projectId, references)))

    /** Filter ids must be the project's own (422 otherwise), as for every list. */
    const checkFilterIds = (projectId: number, ids: { readonly monitor_id?: number | undefined; readonly prompt_id?: number | undefined }) =>
      checkReferences([
        { field: "monitor_id", ids: ids.monitor_id, existing: (list) => monitors.existing(projectId, list) },
        { field: "prompt_id", ids: ids.prompt_id, existing: (list) => prompts.existing(projectId, list) }
      ])

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          yield* checkFilterIds(project.id, urlParams)
          const filter = {
            ...(yield* filtersOf(project.id)),
            monitorId: urlParams.monitor_id,
            promptId: urlParams.prompt_id,
            platform: urlParams.platform,
            status: urlParams.status,
            words: urlParams.q === undefined ? undefined : searchWords(urlParams.q)
          }
          const order = {
            by: urlParams.sort_by ?? defaultResponseOrder.by,
            direction: urlParams.sort_order ?? defaultResponseOrder.direction
          }
          const exported = yield* exportOf({
            format: urlParams.format,
            resource: "responses",
            row: Response,
            byKey: (keyset) => responses.listAfter(project.id, filter, keyset, order)
          })
          if (Option.isSome(exported)) return exported.value
          return yield* listed(
            urlParams,
            { endpoint: "responses", projectId: project.id, parts: responseKeyParts(order) },
            (window) => responses.list(project.id, filter, window, order),
            (keyset) => responses.listAfter(project.id, filter, keyset, order)
          )
        }))
      .handle("get", ({ path }) =>
        CurrentProject.pipe(
          Effect.flatMap((project) => responses.find(project.id, path.response)),
          orNotFound("Response"),
          Effect.map((data) => ({ data }))
        ))
      .handle("citations", ({ urlParams }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          yield* checkReferences([{
            field: "response_id",
            ids: urlParams.response_id,
            existing: (ids) => Effect.map(responses.findMany(project.id, ids), (found) => found.map((response) => response.id))
          }])
          const filter = { ...(yield* filtersOf(project.id)), responseId: urlParams.response_id }
          const exported = yield* exportOf({
            format: urlParams.format,
            resource: "citations",
            row: Citation,
            byKey: (keyset) => responses.citationsAfter(project.id, filter, keyset)
          })
          if (Option.isSome(exported)) return exported.value
          return yield* listed(
            urlParams,
            { endpoint: "citations", projectId: project.id, parts: citationKeyParts },
            (window) => responses.citations(project.id, filter, window),
            (keyset) => responses.citationsAfter(project.id, filter, keyset)
          )
        }))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          return { data: yield* ingestion.ingest(project.id, payload) }
        }))
  }))

/** The project's responses and their citations. */
export const ResponsesArea = Area.make({
  groups: [ResponsesApi],
  handlers: ResponsesLive,
  repositories: [Area.repository(ResponsesRepo, { sql: ResponsesSql.layerSql, memory: ResponsesMemory.layerMemory })],
  abilities: ["responses:read", "responses:write", "citations:read"]
})
