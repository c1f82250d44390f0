import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { parseId } from "../Domain/Common.ts"
import type { Project } from "../Domain/Project.ts"
import { InvalidProjectHeader, MissingProjectHeader, NotFound, orNotFound } from "../Domain/Errors.ts"
import { ProjectsRepo } from "../Projects/Repo.ts"
import { CurrentKey } from "./Authorize.ts"
import * as ErrorSchemas from "./ErrorSchemas.ts"
import * as RequestProject from "./RequestProject.ts"

/** The active project of a request. */
export class CurrentProject extends Context.Tag("CurrentProject")<CurrentProject, Project>() {}

/** The key's scope: its organization, narrowed to its allowed projects when it has a list. */
export const scopeOf = (key: Context.Tag.Service<CurrentKey>) => ({
  organizationId: key.organization_id,
  projectIds: key.project_ids
})

/**
 * The project of this id that the request's key may act in, or `Project not found`. For the
 * middleware that run inside the endpoint's `Authorize`, where the key is always known.
 */
export const projectOfKey = (projects: Context.Tag.Service<ProjectsRepo>, id: number) =>
  Effect.serviceOption(CurrentKey).pipe(
    Effect.map(Option.getOrThrow),
    Effect.flatMap((key) => projects.find(scopeOf(key), id)),
    orNotFound("Project")
  )

/**
 * Resolves `Service-Project-Id` to a project the key may act in: absent → 400, not a positive integer
 * → 400, another organization's, outside the key's allowed list, or absent → 404 `Project not found`.
 * Group middleware: it runs inside the endpoint's `Authorize`, so the key is known here.
 */
export class ProjectContext extends HttpApiMiddleware.Tag<ProjectContext>()("ProjectContext", {
  provides: CurrentProject,
  failure: Schema.Union(ErrorSchemas.MissingProjectHeader, ErrorSchemas.InvalidProjectHeader, ErrorSchemas.NotFound)
}) {
  static readonly layer = Layer.effect(
    ProjectContext,
    Effect.gen(function*() {
      const projects = yield* ProjectsRepo
      return Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const header = request.headers["service-project-id"]
        if (header === undefined) return yield* new MissingProjectHeader()
        const id = parseId(header.trim())
        if (Option.isNone(id)) {
          // Digits beyond any id are still a positive integer: a project that does not exist.
          return yield* (/^[1-9][0-9]*$/.test(header.trim()) ? new NotFound({ resource: "Project" }) : new InvalidProjectHeader())
        }
        const known = RequestProject.recall(request, id.value)
        if (known === undefined) return yield* projectOfKey(projects, id.value)
        return yield* Option.match(known, { onNone: () => Effect.fail(new NotFound({ resource: "Project" })), onSome: Effect.succeed })
      })
    })
  )
}

/** The header as documented on every project-scoped endpoint. */
export const ProjectHeader = Schema.Struct({
  "service-project-id": Schema.String.annotations({
    description: "The id of the active project (`Service-Project-Id`). Required.",
    examples: ["1"]
  })
})
