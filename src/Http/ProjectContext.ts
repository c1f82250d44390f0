import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Layer, Option, Schema } from "effect"
import type { Project } from "../Domain/Project.ts"
import { InvalidProjectHeader, MissingProjectHeader, NotFound } from "../Domain/Errors.ts"
import { ProjectsRepo } from "../Projects/Repo.ts"
import { CurrentKey } from "./Authorize.ts"
import * as ErrorSchemas from "./ErrorSchemas.ts"

/** The active project of a request. */
export class CurrentProject extends Context.Tag("CurrentProject")<CurrentProject, Project>() {}

/** A positive integer that fits a JavaScript number exactly. */
export const parseId = (value: string): Option.Option<number> => {
  if (!/^[1-9][0-9]*$/.test(value)) return Option.none()
  const id = Number(value)
  return Number.isSafeInteger(id) ? Option.some(id) : Option.none()
}

/** The key's scope: its organization, narrowed to its allowed projects when it has a list. */
export const scopeOf = (key: Context.Tag.Service<CurrentKey>) => ({
  organizationId: key.organization_id,
  projectIds: key.project_ids
})

/**
 * Resolves `Service-Project-Id` to a project the key may act in: absent → 400, not a positive integer
 * → 400, another organization's, outside the key's allowed list, or absent → 404 `Project not found`.
 * Group middleware: it runs inside the endpoint's `Authorize`, so the key is known here.
 */
export class ProjectContext extends HttpApiMiddleware.Tag<ProjectContext>()("ProjectContext", {
  provides: CurrentProject,
  failure: Schema.Union(ErrorSchemas.BadRequest, ErrorSchemas.NotFound)
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
        const key = yield* Effect.serviceOption(CurrentKey).pipe(Effect.map(Option.getOrThrow))
        return yield* projects.find(scopeOf(key), id.value).pipe(
          Effect.orDie,
          Effect.flatten,
          Effect.catchTag("NoSuchElementException", () => new NotFound({ resource: "Project" }))
        )
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
