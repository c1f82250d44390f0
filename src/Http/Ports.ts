import { Context, type Effect, type Option, type Redacted } from "effect"
import type { ApiKey } from "../Domain/ApiKey.ts"
import type { Unauthenticated } from "../Domain/Errors.ts"
import type { Project } from "../Domain/Project.ts"

/**
 * What the HTTP layer needs of the areas, declared here and implemented there (ApiKeys/Http.ts,
 * Projects/Http.ts), so that src/Http depends on nothing above it.
 */

/** The projects a key may see: its organization's, narrowed to its allowed list when it has one. */
export interface KeyScope {
  readonly organizationId: number
  readonly projectIds: ReadonlyArray<number> | null
}

/**
 * Bearer key authentication: a usable key of this token, or `Unauthenticated`. The project a request
 * names comes with the key, in the same lookup, when its id is given.
 */
export class KeyAuth extends Context.Tag("KeyAuth")<KeyAuth, {
  readonly authenticate: (
    token: Redacted.Redacted<string>,
    projectId: Option.Option<number>
  ) => Effect.Effect<{ readonly key: ApiKey; readonly project: Option.Option<Project> }, Unauthenticated>
}>() {}

/** The projects the middleware resolve: one within a key's scope (a `/projects/{project}` path), or which still exist. */
export class ProjectLookup extends Context.Tag("ProjectLookup")<ProjectLookup, {
  readonly find: (scope: KeyScope, id: number) => Effect.Effect<Option.Option<Project>>
  readonly findMany: (ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<Project>>
}>() {}
