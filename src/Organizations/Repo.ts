import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import type { Organization } from "../Domain/Organization.ts"

export class OrganizationsRepo extends Context.Tag("OrganizationsRepo")<OrganizationsRepo, {
  readonly create: (name: string) => Effect.Effect<Organization, SqlError.SqlError>
  readonly list: Effect.Effect<ReadonlyArray<Organization>, SqlError.SqlError>
  readonly findById: (id: number) => Effect.Effect<Option.Option<Organization>, SqlError.SqlError>
  /** The organizations of these ids, in one query. */
  readonly findMany: (ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<Organization>, SqlError.SqlError>
  readonly rename: (id: number, name: string) => Effect.Effect<Organization, SqlError.SqlError>
}>() {}

export const layerSql = Layer.effect(
  OrganizationsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, name, created_at, updated_at`
    return OrganizationsRepo.of({
      create: (name) =>
        sql<Organization>`INSERT INTO organizations (name) VALUES (${name}) RETURNING ${columns}`.pipe(
          Effect.map((rows) => rows[0]!)
        ),
      list: sql<Organization>`SELECT ${columns} FROM organizations ORDER BY id`,
      findById: (id) =>
        sql<Organization>`SELECT ${columns} FROM organizations WHERE id = ${id}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0]))),
      findMany: (ids) =>
        ids.length === 0 ? Effect.succeed([]) : sql<Organization>`SELECT ${columns} FROM organizations WHERE id IN ${sql.in(ids)}`,
      rename: (id, name) =>
        sql<Organization>`UPDATE organizations SET name = ${name}, updated_at = now() WHERE id = ${id} RETURNING ${columns}`.pipe(
          Effect.map((rows) => rows[0]!)
        )
    })
  })
)
