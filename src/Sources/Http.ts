import { Effect, Option } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { Api } from "../Api.ts"
import { orNotFound } from "../Domain/Errors.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { checkReferences } from "../Http/ProjectResourceHandlers.ts"
import { paginated } from "../Http/Responses.ts"
import { SourcesRepo } from "./Repo.ts"

export const SourcesLive = ApiGroup.group(Api, "sources", (handlers) =>
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
