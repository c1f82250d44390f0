import { Context, Effect, Option } from "effect"
import type { ApiKey } from "../Domain/ApiKey.ts"
import { parseId } from "../Domain/Common.ts"
import type { Project } from "../Domain/Project.ts"
import type { KeyScope } from "./Ports.ts"

/**
 * What the `Service-Project-Id` header of a request says, read once by the key middleware
 * (Authorize.ts), which looks the project up with the key: absent, not a positive integer, a project
 * the key may not act in (or none at all), or the key's project.
 */
export type NamedProject =
  | { readonly _tag: "Absent" }
  | { readonly _tag: "Invalid" }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "Found"; readonly project: Project }

/** The header as read, before any lookup: absent, invalid, a project id too large to exist, or an id. */
export const readProjectHeader = (header: string | undefined): Exclude<NamedProject, { _tag: "Found" }> | { readonly _tag: "Id"; readonly id: number } => {
  if (header === undefined) return { _tag: "Absent" }
  const text = header.trim()
  const id = parseId(text)
  if (Option.isSome(id)) return { _tag: "Id", id: id.value }
  // Digits beyond any id are still a positive integer: a project that does not exist.
  return /^[1-9][0-9]*$/.test(text) ? { _tag: "NotFound" } : { _tag: "Invalid" }
}

/**
 * The caller of a request, once its key is authenticated: the key and the project its header names,
 * checked against the key. Provided by the key middleware to what runs after it, the project
 * middleware (ProjectContext.ts) and the handlers.
 */
export class Caller extends Context.Tag("Caller")<Caller, {
  readonly key: ApiKey
  readonly project: NamedProject
}>() {}

/** The key of the request. */
export const CurrentKey: Effect.Effect<ApiKey, never, Caller> = Effect.map(Caller, (caller) => caller.key)

/**
 * The caller, for the middleware that run inside the endpoint's key middleware, where it is always
 * known: their type may require nothing but the request, so they take it from the context unchecked.
 */
export const callerOfMiddleware: Effect.Effect<Context.Tag.Service<Caller>> = Effect.map(
  Effect.serviceOption(Caller),
  (caller) => Option.getOrThrowWith(caller, () => new Error("a project middleware ran before the key middleware"))
)

/** The key's scope: its organization, narrowed to its allowed projects when it has a list. */
export const scopeOf = (key: ApiKey): KeyScope => ({
  organizationId: key.organization_id,
  projectIds: key.project_ids
})
