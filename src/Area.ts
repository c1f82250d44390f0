import type { HttpApi, HttpApiGroup } from "@effect/platform"
import { type Context, Layer } from "effect"
import type { Ability } from "./Domain/Ability.ts"

/**
 * An area of the API (tags, segments, analytics...), declared once, at the bottom of its `Http.ts`: what
 * the API, the server, the repositories and the tests read of it. `src/Areas.ts` lists every area; the
 * API (`src/Api.ts`), the server's handlers (`src/Server.ts`) and the repositories (`src/Repositories.ts`)
 * are folds over that list, so adding an area is a line there.
 */
export interface Area<
  Group extends HttpApiGroup.HttpApiGroup.Any,
  Handlers extends Layer.Layer.Any,
  Repositories extends Repository.Any
> {
  /** Its endpoints: one group, or a few (projects has `/projects` and `/project`). */
  readonly groups: ReadonlyArray<Group>
  /** The handlers of its groups (`ApiGroup.group`, one per group). */
  readonly handlers: Handlers
  /** Its repositories, each on the SQL database and on the in-memory store. */
  readonly repositories: ReadonlyArray<Repositories>
  /**
   * The abilities it introduces (its endpoints may also need another area's: runs need `monitors:*`).
   * Each is also in the catalogue of Domain/Ability.ts, in the contract's order: the domain's schemas
   * (a 403's `required_ability`) are built from that list before any area is.
   */
  readonly abilities: ReadonlyArray<Ability>
}

export declare namespace Area {
  export type Any = Area<HttpApiGroup.HttpApiGroup.Any, Layer.Layer.Any, Repository.Any>
  export type Groups<A> = A extends Area<infer G, infer _H, infer _R> ? G : never
  export type Handlers<A> = A extends Area<infer _G, infer H, infer _R> ? H : never
  export type Repositories<A> = A extends Area<infer _G, infer _H, infer R> ? R : never
}

/** An area's declaration, its types kept exactly (the API's type is the union of its areas' groups). */
export const make = <
  const Group extends HttpApiGroup.HttpApiGroup.Any,
  Handlers extends Layer.Layer.Any,
  const Repositories extends Repository.Any = never
>(area: Area<Group, Handlers, Repositories>): Area<Group, Handlers, Repositories> => area

/** A repository: its tag, and its layers on the SQL database and on the in-memory store. */
export interface Repository<I, S, ESql, RSql, EMemory, RMemory> {
  readonly tag: Context.Tag<I, S>
  readonly sql: Layer.Layer<I, ESql, RSql>
  readonly memory: Layer.Layer<I, EMemory, RMemory>
}

export declare namespace Repository {
  export type Any = Repository<any, any, any, any, any, any>
  export type Sql<R> = R extends Repository<infer I, infer _S, infer E, infer RIn, infer _EM, infer _RM> ? Layer.Layer<I, E, RIn> : never
  export type Memory<R> = R extends Repository<infer I, infer _S, infer _E, infer _RIn, infer E, infer RIn> ? Layer.Layer<I, E, RIn>
    : never
}

export const repository = <I, S, ESql, RSql, EMemory, RMemory>(
  tag: Context.Tag<I, S>,
  layers: { readonly sql: Layer.Layer<I, ESql, RSql>; readonly memory: Layer.Layer<I, EMemory, RMemory> }
): Repository<I, S, ESql, RSql, EMemory, RMemory> => ({ tag, ...layers })

/** The API with the groups of `areas` added, in their order: `.add` for each, the groups' types kept. */
export const addGroups = <const Areas extends ReadonlyArray<Area.Any>>(areas: Areas) =>
<Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): HttpApi.HttpApi<Id, Groups | Area.Groups<Areas[number]>, E, R> =>
  areas.flatMap((area): ReadonlyArray<HttpApiGroup.HttpApiGroup.Any> => area.groups).reduce<any>((api, group) => api.add(group), api)

/** Every layer of a list merged into one: what they provide, fail with and need (each layer's, as a union). */
export const mergeAll = <L extends Layer.Layer.Any>(layers: ReadonlyArray<L>): Layer.Layer<
  L extends Layer.Layer<infer A, infer _E, infer _R> ? A : never,
  L extends Layer.Layer<infer _A, infer E, infer _R> ? E : never,
  L extends Layer.Layer<infer _A, infer _E, infer R> ? R : never
> => (layers as ReadonlyArray<any>).reduce((all, layer) => Layer.merge(all, layer), Layer.empty)
