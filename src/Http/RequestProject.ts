import type { HttpServerRequest } from "@effect/platform"
import type { Option } from "effect"
import type { Project } from "../Domain/Project.ts"

/**
 * The project a request's `Service-Project-Id` names, looked up with its key (Authorize.ts: one
 * statement for both) and read back by `ProjectContext`, which then sends none. Kept by request, and
 * gone with it.
 */
const looked = new WeakMap<HttpServerRequest.HttpServerRequest, { readonly id: number; readonly project: Option.Option<Project> }>()

export const remember = (request: HttpServerRequest.HttpServerRequest, id: number, project: Option.Option<Project>) => {
  looked.set(request, { id, project })
}

/** The project of `id` as the request's key found it, if it looked it up. */
export const recall = (request: HttpServerRequest.HttpServerRequest, id: number): Option.Option<Project> | undefined => {
  const entry = looked.get(request)
  return entry?.id === id ? entry.project : undefined
}
