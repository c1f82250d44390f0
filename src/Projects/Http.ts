import { Effect, Layer } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { ValidationError } from "../Domain/Errors.ts"
import { CurrentKey } from "../Http/Authorize.ts"
import { CurrentProject, scopeOf } from "../Http/ProjectContext.ts"
import { ProjectLookup } from "../Http/Ports.ts"
import { paginated } from "../Http/Responses.ts"
import { ProjectsRepo } from "./Repo.ts"
import { ProjectApi, ProjectsApi } from "./Api.ts"
import * as Area from "../Area.ts"
import * as ProjectsMemory from "./RepoMemory.ts"
import * as ProjectsSql from "./Repo.ts"

export const ProjectsLive = ApiGroup.group(ProjectsApi, (handlers) =>
  Effect.gen(function*() {
    const projects = yield* ProjectsRepo
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          return yield* paginated(urlParams, (window) => projects.list(scopeOf(key), window))
        }))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentKey
          const project = yield* projects.create(key.organization_id, { name: payload.name, domain: payload.domain ?? null })
          return { data: project }
        }))
  }))

export const ProjectLive = ApiGroup.group(ProjectApi, (handlers) =>
  Effect.gen(function*() {
    const projects = yield* ProjectsRepo
    return handlers
      .handle("get", () => Effect.map(CurrentProject, (data) => ({ data })))
      .handle("update", ({ payload }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          // A brand of another project, or none (deleted meanwhile included): the repository checks it under lock.
          const updated = yield* projects.update(project.id, payload).pipe(
            Effect.catchIf((gone) => gone.resource === "Brand", () => ValidationError.field("brand_id", "The selected brand id is invalid."))
          )
          return { data: updated }
        }))
      .handle("delete", () => Effect.flatMap(CurrentProject, (project) => projects.delete(project.id)))
  }))

/** The projects the HTTP middleware resolve (Http/Ports.ts), from the repository. */
export const ProjectLookupLive = Layer.effect(
  ProjectLookup,
  Effect.map(ProjectsRepo, (projects) => ProjectLookup.of({ find: projects.find, findMany: projects.findMany }))
)

/** The organization's projects: `/projects` and the active `/project`. */
export const ProjectsArea = Area.make({
  groups: [ProjectsApi, ProjectApi],
  handlers: Layer.merge(ProjectsLive, ProjectLive),
  repositories: [Area.repository(ProjectsRepo, { sql: ProjectsSql.layerSql, memory: ProjectsMemory.layerMemory })],
  abilities: ["projects:read", "projects:write"]
})
