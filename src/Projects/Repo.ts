import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, type Option, Schema } from "effect"
import { KeyCache } from "../ApiKeys/KeyCache.ts"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import { lockForDeletion, lockForWriting, retryConflicts } from "../Database/ProjectLocks.ts"
import { findPage, orDefect, rowOf } from "../Database/Rows.ts"
import { Id } from "../Domain/Common.ts"
import { firstOrNotFound, NotFound } from "../Domain/Errors.ts"
import type { Page, Window } from "../Domain/Page.ts"
import { Project, seededTagNames } from "../Domain/Project.ts"
import { defaultTagColor } from "../Domain/Tag.ts"

/** The projects a key may see: its organization's, narrowed to its allowed list when it has one. */
export const ProjectScope = Schema.Struct({ organizationId: Id, projectIds: Schema.NullOr(Schema.Array(Id)) })
export type ProjectScope = typeof ProjectScope.Type

export interface NewProject {
  readonly name: string
  readonly domain: string | null
}

export interface ProjectPatch {
  readonly name?: string | undefined
  readonly domain?: string | null | undefined
  readonly brand_id?: number | null | undefined
}

export class ProjectsRepo extends Context.Tag("ProjectsRepo")<ProjectsRepo, {
  readonly list: (scope: ProjectScope, window: Window) => Effect.Effect<Page<Project>>
  /** Every project of the scope, for `GET /me`. */
  readonly listAll: (scope: ProjectScope) => Effect.Effect<ReadonlyArray<Project>>
  readonly find: (scope: ProjectScope, id: number) => Effect.Effect<Option.Option<Project>>
  /** The projects of these ids, in one query; callers have already scoped the ids. */
  readonly findMany: (ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<Project>>
  /** Creates the project with its three seeded tags, in one transaction. */
  readonly create: (organizationId: number, project: NewProject) => Effect.Effect<Project>
  /**
   * `NotFound` (Project) when the project is gone, `NotFound` (Brand) when `brand_id` names no brand of
   * the project (or one deleted meanwhile).
   */
  readonly update: (id: number, patch: ProjectPatch) => Effect.Effect<Project, NotFound>
  /** Deletes the project and, by cascade, everything it owns, in one transaction. */
  readonly delete: (id: number) => Effect.Effect<void>
  readonly hasBrand: (projectId: number, brandId: number) => Effect.Effect<boolean>
}>() {}

const Row = rowOf(Project)

export const layerSql = Layer.effect(
  ProjectsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // A request's project comes with its key, from the cache when the key is there: a change forgets it.
    const { forget } = yield* KeyCache
    const columns = sql`id, organization_id, name, domain, brand_id, created_at, updated_at`
    const inScope = (scope: ProjectScope) =>
      scope.projectIds === null
        ? sql`organization_id = ${scope.organizationId}`
        : sql`organization_id = ${scope.organizationId} AND id = ANY(${scope.projectIds}::bigint[])`

    const all = SqlSchema.findAll({
      Request: ProjectScope,
      Result: Row,
      execute: (scope) => sql`SELECT ${columns} FROM projects WHERE ${inScope(scope)} ORDER BY id`
    })
    const findInScope = SqlSchema.findOne({
      Request: Schema.Struct({ scope: ProjectScope, id: Schema.Number }),
      Result: Row,
      execute: ({ id, scope }) => sql`SELECT ${columns} FROM projects WHERE id = ${id} AND ${inScope(scope)}`
    })
    const byIds = SqlSchema.findAll({
      Request: Schema.Array(Schema.Number),
      Result: Row,
      execute: (ids) => sql`SELECT ${columns} FROM projects WHERE id IN ${sql.in(ids)} ORDER BY id`
    })
    const insert = SqlSchema.single({
      Request: Schema.Struct({ organizationId: Id, name: Schema.String, domain: Schema.NullOr(Schema.String) }),
      Result: Row,
      execute: ({ domain, name, organizationId }) =>
        sql`INSERT INTO projects (organization_id, name, domain) VALUES (${organizationId}, ${name}, ${domain}) RETURNING ${columns}`
    })
    const updated = SqlSchema.findAll({
      Request: Schema.Struct({ id: Schema.Number, changes: Schema.Record({ key: Schema.String, value: Schema.Unknown }) }),
      Result: Row,
      execute: ({ changes, id }) =>
        isEmpty(changes)
          ? sql`SELECT ${columns} FROM projects WHERE id = ${id}`
          : sql`UPDATE projects SET ${sql.update(changes as Record<string, any>)}, updated_at = now() WHERE id = ${id} RETURNING ${columns}`
    })
    const brandOfProject = SqlSchema.findOne({
      Request: Schema.Struct({ projectId: Schema.Number, brandId: Schema.Number }),
      Result: Schema.Struct({ id: Id }),
      execute: ({ brandId, projectId }) => sql`SELECT id FROM brands WHERE id = ${brandId} AND project_id = ${projectId}`
    })

    return ProjectsRepo.of({
      list: (scope, window) => findPage(sql, { Result: Row, columns, from: sql`projects WHERE ${inScope(scope)}`, orderBy: sql`id` }, window),
      listAll: (scope) => orDefect(all(scope)),
      find: (scope, id) => orDefect(findInScope({ scope, id })),
      findMany: (ids) => (ids.length === 0 ? Effect.succeed([]) : orDefect(byIds(ids))),
      create: (organizationId, project) =>
        Effect.gen(function*() {
          const created = yield* insert({ organizationId, ...project })
          yield* sql`INSERT INTO tags ${
            sql.insert(seededTagNames.map((name) => ({ project_id: created.id, name, color: defaultTagColor })))
          }`
          return created
        }).pipe(sql.withTransaction, orDefect),
      // In the lock order (Database/ProjectLocks.ts): the project's lifecycle lock, then the brand it names
      // (FOR KEY SHARE: its deletion waits for this, or came first and this finds it gone), then the project's row.
      update: (id, patch) =>
        Effect.gen(function*() {
          yield* lockForWriting(sql, id)
          if (typeof patch.brand_id === "number") {
            const brand = yield* sql`SELECT id FROM brands WHERE id = ${patch.brand_id} AND project_id = ${id} FOR KEY SHARE`
            if (brand.length === 0) return yield* new NotFound({ resource: "Brand" })
          }
          return yield* updated({ id, changes: changesOf(patch) }).pipe(Effect.flatMap(firstOrNotFound("Project")))
        }).pipe(sql.withTransaction, Effect.ensuring(Effect.sync(forget)), orDefect),
      // The project's locks first (src/Database/ProjectLocks.ts): answers being stored finish before, and
      // the cascade then runs alone, without deadlocking with them.
      delete: (id) =>
        lockForDeletion(sql, id).pipe(
          Effect.zipRight(sql`DELETE FROM projects WHERE id = ${id}`),
          sql.withTransaction,
          retryConflicts,
          Effect.asVoid,
          Effect.ensuring(Effect.sync(forget)),
          orDefect
        ),
      hasBrand: (projectId, brandId) => brandOfProject({ projectId, brandId }).pipe(Effect.map((row) => row._tag === "Some"), orDefect)
    })
  })
)
