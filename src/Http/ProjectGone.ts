import { type Context, Effect, Option } from "effect"
import { NotFound, ValidationError } from "../Domain/Errors.ts"
import type { ProjectLookup } from "./Ports.ts"
import { CurrentProject } from "./ProjectContext.ts"

/**
 * The order of checks (docs/api.md, "Errors": the project before validation and path resources) for a
 * request that races its project's deletion. Its project was found when it began; deleted since, the
 * handler's lookups find nothing of it, and the request would be told that a prompt id of its body is
 * invalid (422) or that the tag of its path is not found (404). Such a 422 or resource 404 is checked
 * against the project, and is `404 Project not found` when the project is gone: what any request after
 * the deletion is told. Only failures pay for the check.
 */
export const projectFirst = (projects: Context.Tag.Service<typeof ProjectLookup>) => <A, E, R>(handler: Effect.Effect<A, E, R>) =>
  Effect.catchIf(handler, isAboutTheProjectsRows, (error) =>
    Effect.flatMap(Effect.serviceOption(CurrentProject), (project) =>
      Option.isNone(project)
        ? Effect.fail(error)
        : Effect.flatMap(
          projects.findMany([project.value.id]),
          (found) => Effect.fail(found.length === 0 ? new NotFound({ resource: "Project" }) : error)
        )))

/** A 422, or a 404 of a resource other than the project: what a lookup of the project's rows may answer. */
const isAboutTheProjectsRows = (error: unknown): boolean =>
  error instanceof ValidationError || (error instanceof NotFound && error.resource !== "Project")
