import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, type Option, Schema } from "effect"
import { orDefect, rowOf } from "../Database/Rows.ts"
import { Organization } from "../Domain/Organization.ts"

export class OrganizationsRepo extends Context.Tag("OrganizationsRepo")<OrganizationsRepo, {
  readonly create: (name: string) => Effect.Effect<Organization>
  readonly list: Effect.Effect<ReadonlyArray<Organization>>
  readonly findById: (id: number) => Effect.Effect<Option.Option<Organization>>
  /** The organizations of these ids, in one query. */
  readonly findMany: (ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<Organization>>
  /** Renames an organization that exists (the key's own). */
  readonly rename: (id: number, name: string) => Effect.Effect<Organization>
}>() {}

const Row = rowOf(Organization)

export const layerSql = Layer.effect(
  OrganizationsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, name, created_at, updated_at`
    const insert = SqlSchema.single({
      Request: Schema.String,
      Result: Row,
      execute: (name) => sql`INSERT INTO organizations (name) VALUES (${name}) RETURNING ${columns}`
    })
    const all = SqlSchema.findAll({ Request: Schema.Void, Result: Row, execute: () => sql`SELECT ${columns} FROM organizations ORDER BY id` })
    const byId = SqlSchema.findOne({
      Request: Schema.Number,
      Result: Row,
      execute: (id) => sql`SELECT ${columns} FROM organizations WHERE id = ${id}`
    })
    const byIds = SqlSchema.findAll({
      Request: Schema.Array(Schema.Number),
      Result: Row,
      execute: (ids) => sql`SELECT ${columns} FROM organizations WHERE id IN ${sql.in(ids)} ORDER BY id`
    })
    const renamed = SqlSchema.single({
      Request: Schema.Struct({ id: Schema.Number, name: Schema.String }),
      Result: Row,
      execute: ({ id, name }) => sql`UPDATE organizations SET name = ${name}, updated_at = now() WHERE id = ${id} RETURNING ${columns}`
    })
    return OrganizationsRepo.of({
      create: (name) => orDefect(insert(name)),
      list: orDefect(all()),
      findById: (id) => orDefect(byId(id)),
      findMany: (ids) => (ids.length === 0 ? Effect.succeed([]) : orDefect(byIds(ids))),
      rename: (id, name) => orDefect(renamed({ id, name }))
    })
  })
)
