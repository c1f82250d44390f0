import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import type { Ability } from "../Domain/Ability.ts"
import { guarded } from "./Authorize.ts"
import * as ErrorSchemas from "./ErrorSchemas.ts"
import * as Fields from "./Fields.ts"
import { PaginatedSchema } from "./Pagination.ts"
import { ProjectContext, ProjectHeader } from "./ProjectContext.ts"
import { DataOf, PageQuery } from "./Responses.ts"

/**
 * The five endpoints of a resource of the active project (monitors, prompts, tags, brands, segments),
 * declared alike: `GET /things` (a page, by id), `POST /things` (201), `GET`, `PATCH` and `DELETE`
 * `/things/{thing}` (204), each with its ability, behind the project header. Each endpoint declares
 * what it can fail with beyond the key and project checks: a path resource not found where there is a
 * path id, a 422 where there is a body or a query that can be wrong.
 * An area adds its own endpoints (attach, detach) to the group this returns.
 */
export const projectResourceApi = <
  const Group extends string,
  const Param extends string,
  A,
  I,
  C,
  CI,
  U,
  UI,
  Q = typeof DefaultListQuery.Type
>(options: {
  readonly group: Group
  /** `/tags` */
  readonly path: `/${string}`
  /** `tag`: the path parameter of one resource, `/tags/{tag}`. */
  readonly param: Param
  readonly resource: Schema.Schema<A, I>
  readonly create: Schema.Schema<C, CI>
  readonly update: Schema.Schema<U, UI>
  readonly read: Ability
  readonly write: Ability
  /** The query of the list; `page` and `per_page` by default. */
  readonly listQuery?: Schema.Schema<Q, any>
  /** `tag`, `tags`: for the summaries ("List tags", "Create a tag"). */
  readonly noun: { readonly one: string; readonly many: string }
  /** What each endpoint does, for the OpenAPI document; the ability is added. */
  readonly describe: {
    readonly list: string
    readonly create: string
    readonly get: string
    readonly update: string
    readonly delete: string
  }
}) => {
  const path = Fields.pathIds(options.param)
  const one = `${options.path}/:${options.param}` as const
  const { noun } = options
  const list = HttpApiEndpoint.get("list", options.path)
    // Any query of the API is decoded from text (Fields.input); the platform cannot check a generic one itself.
    .setUrlParams((options.listQuery ?? DefaultListQuery) as Schema.Schema<Q, Readonly<Record<string, string>>>)
    .setHeaders(ProjectHeader)
    .addSuccess(PaginatedSchema(options.resource))
  const listValidated = list.addError(ErrorSchemas.ValidationError)
  return HttpApiGroup.make(options.group)
    .add(
      // `page` and `per_page` are never wrong (docs/api.md, pagination): only an area's own query can be a 422.
      (options.listQuery === undefined ? list as unknown as typeof listValidated : listValidated)
        .pipe(guarded(options.read, `List ${noun.many}`, options.describe.list))
    )
    .add(
      HttpApiEndpoint.post("create", options.path)
        .setPayload(options.create)
        .setHeaders(ProjectHeader)
        .addSuccess(DataOf(options.resource), { status: 201 })
        .addError(ErrorSchemas.ValidationError)
        .pipe(guarded(options.write, `Create a ${noun.one}`, options.describe.create))
    )
    .add(
      HttpApiEndpoint.get("get", one)
        .setPath(path)
        .setHeaders(ProjectHeader)
        .addSuccess(DataOf(options.resource))
        .addError(ErrorSchemas.NotFound)
        .pipe(guarded(options.read, `Read a ${noun.one}`, options.describe.get))
    )
    .add(
      HttpApiEndpoint.patch("update", one)
        .setPath(path)
        .setPayload(options.update)
        .setHeaders(ProjectHeader)
        .addSuccess(DataOf(options.resource))
        .addError(ErrorSchemas.NotFound)
        .addError(ErrorSchemas.ValidationError)
        .pipe(guarded(options.write, `Update a ${noun.one}`, options.describe.update))
    )
    .add(
      HttpApiEndpoint.del("delete", one)
        .setPath(path)
        .setHeaders(ProjectHeader)
        .addError(ErrorSchemas.NotFound)
        .pipe(guarded(options.write, `Delete a ${noun.one}`, options.describe.delete))
    )
    .middleware(ProjectContext)
}


const DefaultListQuery = Fields.input(PageQuery)


/**
 * The pair of endpoints that attach a resource of the project to another and detach it:
 * `POST` and `DELETE /brands/{brand}/segments/{segment}`, idempotent, answering the owner (200).
 */
export const attachmentEndpoints = <const Owner extends string, const Other extends string, const Name extends string, A, I>(options: {
  /** `/brands` */
  readonly path: `/${string}`
  readonly param: Owner
  /** `segments` */
  readonly others: string
  readonly otherParam: Other
  /** The owner, as answered. */
  readonly resource: Schema.Schema<A, I>
  readonly ability: Ability
  /** `Segment`: the endpoints are `attachSegment` and `detachSegment`. */
  readonly name: Name
  /** `brand`, `segment`: for the summaries and descriptions. */
  readonly noun: { readonly owner: string; readonly other: string }
}) => {
  const route = `${options.path}/:${options.param}/${options.others}/:${options.otherParam}` as const
  const path = Fields.pathIds(options.param, options.otherParam)
  const { noun } = options
  /** One of the two: the same path, headers, answer and errors, a method and words of its own. */
  const endpoint = <const Method extends "POST" | "DELETE", const EndpointName extends string>(
    method: Method,
    name: EndpointName,
    summary: string,
    description: string
  ) =>
    HttpApiEndpoint.make(method)(name, route)
      .setPath(path)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(options.resource))
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded(options.ability, summary, `${description} Answers the ${noun.owner}.`))
  return {
    attach: endpoint(
      "POST",
      `attach${options.name}` as `attach${Name}`,
      `Attach a ${noun.other}`,
      `Idempotent: attaching an attached ${noun.other} changes nothing.`
    ),
    detach: endpoint(
      "DELETE",
      `detach${options.name}` as `detach${Name}`,
      `Detach a ${noun.other}`,
      `Idempotent: detaching a ${noun.other} that is not attached changes nothing.`
    )
  }
}
