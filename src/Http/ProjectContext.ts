import { HttpApiMiddleware } from "@effect/platform"
import { Context, Effect, Layer, Schema } from "effect"
import { InvalidProjectHeader, MissingProjectHeader, NotFound, orNotFound } from "../Domain/Errors.ts"
import type { Project } from "../Domain/Project.ts"
import * as ErrorSchemas from "./ErrorSchemas.ts"
import { ProjectLookup } from "./Ports.ts"
import { callerOfMiddleware, scopeOf } from "./RequestContext.ts"

export { scopeOf } from "./RequestContext.ts"

/** The active project of a request. */
export class CurrentProject extends Context.Tag("CurrentProject")<CurrentProject, Project>() {}

/**
 * The project of this id that the request's key may act in, or `Project not found`. For the
 * middleware that run inside the endpoint's `Authorize`, where the caller is always known.
 */
export const projectOfKey = (projects: Context.Tag.Service<ProjectLookup>, id: number) =>
  Effect.flatMap(callerOfMiddleware, ({ key }) => projects.find(scopeOf(key), id)).pipe(orNotFound("Project"))

/**
 * The active project of `Service-Project-Id`, as the key middleware read and looked it up (the
 * `Caller`): absent → 400, not a positive integer → 400, another organization's, outside the key's
 * allowed list, or absent → 404 `Project not found`. Group middleware: it runs inside the endpoint's
 * `Authorize`, so the caller is known here.
 */
export class ProjectContext extends HttpApiMiddleware.Tag<ProjectContext>()("ProjectContext", {
  provides: CurrentProject,
  failure: Schema.Union(ErrorSchemas.MissingProjectHeader, ErrorSchemas.InvalidProjectHeader, ErrorSchemas.NotFound)
}) {
  static readonly layer = Layer.succeed(
    ProjectContext,
    Effect.flatMap(callerOfMiddleware, ({ project }): Effect.Effect<Project, MissingProjectHeader | InvalidProjectHeader | NotFound> => {
      switch (project._tag) {
        case "Absent":
          return Effect.fail(new MissingProjectHeader())
        case "Invalid":
          return Effect.fail(new InvalidProjectHeader())
        case "NotFound":
          return Effect.fail(new NotFound({ resource: "Project" }))
        case "Found":
          return Effect.succeed(project.project)
      }
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
