import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"
import { Api } from "../Api.ts"
import { orNotFound, ValidationError } from "../Domain/Errors.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { paginated } from "../Http/Responses.ts"
import { SourcesRepo } from "./Repo.ts"

export const SourcesLive = HttpApiBuilder.group(Api, "sources", (handlers) =>
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
          if (urlParams.source_id !== undefined && Option.isNone(yield* sources.find(project.id, urlParams.source_id))) {
            return yield* ValidationError.field("source_id", "The selected source id is invalid.")
          }
          return yield* paginated(urlParams, (window) => sources.listUrls(project.id, { sourceId: urlParams.source_id }, window))
        }))
  }))
