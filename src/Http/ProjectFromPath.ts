import { HttpApiMiddleware, HttpRouter } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { NotFound } from "../Domain/Errors.ts"
import { ProjectsRepo } from "../Projects/Repo.ts"
import { CurrentKey } from "./Authorize.ts"
import * as ErrorSchemas from "./ErrorSchemas.ts"
import { CurrentProject, parseId, scopeOf } from "./ProjectContext.ts"

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
        const key = yield* Effect.serviceOption(CurrentKey).pipe(Effect.map(Option.getOrThrow))
        const notFound = new NotFound({ resource: "Project" })
        const id = parseId(route.params.project ?? "")
        if (Option.isNone(id)) return yield* notFound
        const project = yield* projects.find(scopeOf(key), id.value).pipe(Effect.orDie)
        return yield* Option.match(project, { onNone: () => Effect.fail(notFound), onSome: Effect.succeed })
      })
    })
  )
}
