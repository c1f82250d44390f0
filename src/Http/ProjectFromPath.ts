import { HttpApiMiddleware, HttpRouter } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { NotFound } from "../Domain/Errors.ts"
import { ProjectsRepo } from "../Projects/Repo.ts"
import * as ErrorSchemas from "./ErrorSchemas.ts"
import { parseId } from "../Domain/Common.ts"
import { CurrentProject, projectOfKey } from "./ProjectContext.ts"

/**
 * The project of a `/projects/{project}` path, resolved like the project header: a project outside the
 * key's reach is `Project not found`, and that check comes before body validation (docs/api.md).
 */
export class ProjectFromPath extends HttpApiMiddleware.Tag<ProjectFromPath>()("ProjectFromPath", {
  provides: CurrentProject,
  failure: ErrorSchemas.NotFound
}) {
  static readonly layer = Layer.effect(
    ProjectFromPath,
    Effect.gen(function*() {
      const projects = yield* ProjectsRepo
      return Effect.gen(function*() {
        const route = yield* HttpRouter.RouteContext
        const id = parseId(route.params.project ?? "")
        return yield* Option.isNone(id) ? new NotFound({ resource: "Project" }) : projectOfKey(projects, id.value)
      })
    })
  )
}
