import { HttpApiMiddleware, HttpRouter } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { parseId } from "../Domain/Common.ts"
import { NotFound } from "../Domain/Errors.ts"
import * as ErrorSchemas from "./ErrorSchemas.ts"
import { ProjectLookup } from "./Ports.ts"
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
    Effect.map(ProjectLookup, (projects) =>
      Effect.gen(function*() {
        const route = yield* HttpRouter.RouteContext
        const id = parseId(route.params.project ?? "")
        if (Option.isNone(id)) return yield* new NotFound({ resource: "Project" })
        return yield* projectOfKey(projects, id.value)
      }))
  )
}
