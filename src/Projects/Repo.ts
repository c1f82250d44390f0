import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import { lockForDeletion, retryConflicts } from "../Database/ProjectLocks.ts"
import { firstOrNotFound, type NotFound } from "../Domain/Errors.ts"
import type { Page, Window } from "../Domain/Page.ts"
import { type Project, seededTagNames } from "../Domain/Project.ts"
import { defaultTagColor } from "../Domain/Tag.ts"

/** The projects a key may see: its organization's, narrowed to its allowed list when it has one. */
export interface ProjectScope {
  readonly organizationId: number
  readonly projectIds: ReadonlyArray<number> | null
}

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
  readonly list: (scope: ProjectScope, window: Window) => Effect.Effect<Page<Project>, SqlError.SqlError>
  /** Every project of the scope, for `GET /me`. */
  readonly listAll: (scope: ProjectScope) => Effect.Effect<ReadonlyArray<Project>, SqlError.SqlError>
  readonly find: (scope: ProjectScope, id: number) => Effect.Effect<Option.Option<Project>, SqlError.SqlError>
  /** The projects of these ids, in one query; callers have already scoped the ids. */
  readonly findMany: (ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<Project>, SqlError.SqlError>
  /** Creates the project with its three seeded tags, in one transaction. */
  readonly create: (organizationId: number, project: NewProject) => Effect.Effect<Project, SqlError.SqlError>
  readonly update: (id: number, patch: ProjectPatch) => Effect.Effect<Project, NotFound | SqlError.SqlError>
  /** Deletes the project and, by cascade, everything it owns, in one transaction. */
  readonly delete: (id: number) => Effect.Effect<void, SqlError.SqlError>
  readonly hasBrand: (projectId: number, brandId: number) => Effect.Effect<boolean, SqlError.SqlError>
}>() {}

export const layerSql = Layer.effect(
  ProjectsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, organization_id, name, domain, brand_id, created_at, updated_at`
    const inScope = (scope: ProjectScope) =>
      scope.projectIds === null
        ? sql`organization_id = ${scope.organizationId}`
        : sql`organization_id = ${scope.organizationId} AND id = ANY(${scope.projectIds}::bigint[])`

    return ProjectsRepo.of({
      list: (scope, window) =>
        Effect.all({
          rows: sql<Project>`
            SELECT ${columns} FROM projects WHERE ${inScope(scope)}
            ORDER BY id LIMIT ${window.limit} OFFSET ${window.offset}`,
          total: sql<{ total: number }>`SELECT count(*) AS total FROM projects WHERE ${inScope(scope)}`.pipe(
            Effect.map((rows) => rows[0]!.total)
          )
        }),
      listAll: (scope) => sql<Project>`SELECT ${columns} FROM projects WHERE ${inScope(scope)} ORDER BY id`,
      find: (scope, id) =>
        sql<Project>`SELECT ${columns} FROM projects WHERE id = ${id} AND ${inScope(scope)}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]))
        ),
      findMany: (ids) =>
        ids.length === 0 ? Effect.succeed([]) : sql<Project>`SELECT ${columns} FROM projects WHERE id IN ${sql.in(ids)}`,
      create: (organizationId, project) =>
        Effect.gen(function*() {
          const [created] = yield* sql<Project>`
            INSERT INTO projects (organization_id, name, domain)
            VALUES (${organizationId}, ${project.name}, ${project.domain})
            RETURNING ${columns}`
          yield* sql`INSERT INTO tags ${
            sql.insert(seededTagNames.map((name) => ({ project_id: created!.id, name, color: defaultTagColor })))
          }`
          return created!
        }).pipe(sql.withTransaction),
      update: (id, patch) => {
        const changes = changesOf(patch)
        const rows = isEmpty(changes)
          ? sql<Project>`SELECT ${columns} FROM projects WHERE id = ${id}`
          : sql<Project>`UPDATE projects SET ${sql.update(changes)}, updated_at = now() WHERE id = ${id} RETURNING ${columns}`
        return Effect.flatMap(rows, firstOrNotFound("Project"))
      },
      // The project's locks first (src/Database/ProjectLocks.ts): answers being stored finish before, and
      // the cascade then runs alone, without deadlocking with them.
      delete: (id) =>
        lockForDeletion(sql, id).pipe(
          Effect.zipRight(sql`DELETE FROM projects WHERE id = ${id}`),
          sql.withTransaction,
          retryConflicts,
          Effect.asVoid
        ),
      hasBrand: (projectId, brandId) =>
        sql`SELECT 1 FROM brands WHERE id = ${brandId} AND project_id = ${projectId}`.pipe(Effect.map((rows) => rows.length > 0))
    })
  })
)
