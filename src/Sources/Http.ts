import { Effect, Option } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { orNotFound } from "../Domain/Errors.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { checkReferences } from "../Http/ProjectResourceHandlers.ts"
import { paginated } from "../Http/Responses.ts"
import { SourcesRepo } from "./Repo.ts"
import { SourcesApi } from "./Api.ts"
import * as Area from "../Area.ts"
import * as SourcesMemory from "./RepoMemory.ts"
import * as SourcesSql from "./Repo.ts"

export const SourcesLive = ApiGroup.group(SourcesApi, (handlers) =>
  Effect.gen(function*() {
    const sources = yield* SourcesRepo
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentProject, (project) => paginated(urlParams, (window) => sources.list(project.id, window))))
      .handle("get", ({ path }) =>
        CurrentProject.pipe(
          Effect.flatMap((project) => sources.find(project.id, path.source)),
          orNotFound("Source"),
          Effect.map((data) => ({ data }))
        ))
      .handle("urls", ({ urlParams }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          yield* checkReferences([{
            field: "source_id",
            ids: urlParams.source_id,
            existing: (ids) => Effect.map(sources.find(project.id, ids[0]!), (found) => (Option.isSome(found) ? [found.value.id] : []))
          }])
          return yield* paginated(urlParams, (window) => sources.listUrls(project.id, { sourceId: urlParams.source_id }, window))
        }))
  }))

/** The domains and URLs the project's responses cite. */
export const SourcesArea = Area.make({
  groups: [SourcesApi],
  handlers: SourcesLive,
  repositories: [Area.repository(SourcesRepo, { sql: SourcesSql.layerSql, memory: SourcesMemory.layerMemory })],
  abilities: ["sources:read"]
})
