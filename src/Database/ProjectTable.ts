import { SqlClient, SqlError, SqlSchema } from "@effect/sql"
import { Array as Arr, Effect, Option, type ParseResult, Schema } from "effect"
import { changesOf, isEmpty } from "./Changes.ts"
import { lockForRow, lockForWriting, lockProject } from "./ProjectLocks.ts"
import { columnsOf, findPage, IdRow, orDefect, rowOf } from "./Rows.ts"
import { isUniqueViolation } from "./SqlErrors.ts"
import { NotFound } from "../Domain/Errors.ts"
import type { Page, Window } from "../Domain/Page.ts"

/**
 * The storage every project-scoped resource shares (monitors, prompts, tags, brands, segments): a
 * page with its exact total, a row by id within its project, which ids are the project's, create,
 * update from the fields a PATCH gave, delete. An area's repository is this plus what is its own
 * (a unique name, related rows), so a new area is its schema, its SQL and nothing repeated.
 *
 * Two implementations: on the SQL database (here) and in memory (Memory/ProjectTable.ts), the
 * reference the tests hold this one to.
 */
export interface ProjectTable<A, New, Conflict = never> {
  /** One page of the project's rows, by id, with the exact total; `filter` narrows by column values. */
  readonly list: (projectId: number, window: Window, filter?: Partial<New>) => Effect.Effect<Page<A>>
  /** A row of the project. */
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<A>>
  /** The rows of these ids in the project, by id. */
  readonly findMany: (projectId: number, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<A>>
  /** Which of these ids are the project's. */
  readonly existing: (projectId: number, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<number>>
  /** `NotFound` (Project) when the project was deleted after the request found it. */
  readonly create: (projectId: number, values: New) => Effect.Effect<A, NotFound | Conflict>
  /** Changes the given fields (an undefined one keeps its value); `NotFound` if the row is gone. */
  readonly update: (id: number, patch: { readonly [K in keyof New]?: New[K] | undefined }) => Effect.Effect<A, NotFound | Conflict>
  /** The row of an id, re-read after a write; `NotFound` if a concurrent request deleted it. */
  readonly get: (id: number) => Effect.Effect<A, NotFound>
  /**
   * Deletes the row; what hangs on it goes with it (ON DELETE CASCADE), in one transaction, under the
   * project's locks (Database/ProjectLocks.ts): what it cascades to can change the analytics rollups.
   */
  readonly delete: (id: number) => Effect.Effect<void>
}

export interface ProjectTableOptions<A, Conflict> {
  /** The table: `tags`. */
  readonly table: string
  /** The resource in a 404: `Tag`. */
  readonly resource: string
  /** The resource: a struct of the domain whose fields are the table's columns, or `computed`. */
  readonly row: Schema.Schema<A, any> & { readonly fields: Schema.Struct.Fields }
  /**
   * The fields stored beside the table (a prompt's tags, a brand's segment ids), each as an SQL
   * expression over the table's row, so a row and its page come whole in one statement.
   */
  readonly computed?: Readonly<Record<string, string>>
  /** How a row is decoded, when a computed field comes as JSON: the row's type side by default. */
  readonly decode?: Schema.Schema<A, any>
  /** The unique index a write may collide with, and the error that collision is. */
  readonly unique?: { readonly index: string; readonly error: () => Conflict }
  /**
   * A row of the project this one names (a prompt's monitor): locked `FOR KEY SHARE` before a write
   * that sets it, parents first (Database/ProjectLocks.ts), and `NotFound` of `resource` when it is
   * gone (deleted since the request checked it) instead of a foreign key violation.
   */
  readonly parent?: { readonly column: string; readonly table: string; readonly resource: string }
}

const Filter = Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean) })

const InProject = Schema.Struct({ projectId: Schema.Number, filter: Filter })

export const make = <A extends { readonly id: number }, New extends object, Conflict = never>(
  options: ProjectTableOptions<A, Conflict>
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const table = sql(options.table)
    const computed = options.computed ?? {}
    const fields = columnsOf(options.row)
    const isStored = (field: string) => computed[field] === undefined
    const selected = (field: string) => (isStored(field) ? field : `${computed[field]} AS ${field}`)
    const columns = sql.literal(fields.map(selected).join(", "))
    // A page's rows are chosen by their stored columns; the computed ones are added to its rows only (Rows.ts).
    const stored = sql.literal(fields.filter(isStored).join(", "))
    const computedOnly = fields.every(isStored) ? undefined : {
      alias: options.table,
      columns: sql.literal(fields.filter((field) => !isStored(field)).map(selected).join(", "))
    }
    const Row = options.decode ?? rowOf(options.row)

    const ofProject = ({ filter, projectId }: typeof InProject.Type) =>
      sql.and([sql`project_id = ${projectId}`, ...Object.entries(filter).map(([column, value]) => sql`${sql(column)} = ${value}`)])

    const selectIds = SqlSchema.findAll({
      Request: Schema.Struct({ projectId: Schema.Number, ids: Schema.Array(Schema.Number) }),
      Result: Row,
      execute: ({ ids, projectId }) => sql`SELECT ${columns} FROM ${table} WHERE id IN ${sql.in(ids)} AND project_id = ${projectId} ORDER BY id`
    })
    const existingIds = SqlSchema.findAll({
      Request: Schema.Struct({ projectId: Schema.Number, ids: Schema.Array(Schema.Number) }),
      Result: IdRow,
      execute: ({ ids, projectId }) => sql`SELECT id FROM ${table} WHERE id IN ${sql.in(ids)} AND project_id = ${projectId}`
    })
    const selectId = SqlSchema.findAll({
      Request: Schema.Number,
      Result: Row,
      execute: (id) => sql`SELECT ${columns} FROM ${table} WHERE id = ${id}`
    })
    const insertRow = SqlSchema.findAll({
      Request: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
      Result: Row,
      execute: (values) => sql`INSERT INTO ${table} ${sql.insert(values as Record<string, any>)} RETURNING ${columns}`
    })
    const updateRow = SqlSchema.findAll({
      Request: Schema.Struct({ id: Schema.Number, changes: Schema.Record({ key: Schema.String, value: Schema.Unknown }) }),
      Result: Row,
      execute: ({ changes, id }) =>
        sql`UPDATE ${table} SET ${sql.update(changes as Record<string, any>)}, updated_at = now() WHERE id = ${id} RETURNING ${columns}`
    })

    /** A collision on the unique index as the area's error. */
    const collide = <X, E, R>(effect: Effect.Effect<X, E, R>): Effect.Effect<X, E | Conflict, R> => {
      const unique = options.unique
      if (unique === undefined) return effect
      return Effect.catchIf(
        effect,
        (error) => error instanceof SqlError.SqlError && isUniqueViolation(error, unique.index),
        () => Effect.fail(unique.error())
      )
    }

    const parent = options.parent
    /** The parent a create names, locked; `NotFound` of its resource when it is not the project's. */
    const lockParent = (projectId: number, values: Record<string, unknown>) =>
      Effect.gen(function*() {
        if (parent === undefined || typeof values[parent.column] !== "number") return
        const rows = yield* sql`SELECT id FROM ${sql(parent.table)} WHERE id = ${values[parent.column] as number} AND project_id = ${projectId} FOR KEY SHARE`
        if (rows.length === 0) return yield* new NotFound({ resource: parent.resource })
      })
    /** The parent an update names, locked, in the project of the row; `NotFound` of the row's or the parent's resource. */
    const lockParentOf = (id: number, changes: Record<string, unknown>) =>
      Effect.gen(function*() {
        if (parent === undefined || typeof changes[parent.column] !== "number") return
        const [row] = yield* sql<{ parent: number | null }>`
          SELECT x.id AS parent FROM ${table} r
          LEFT JOIN LATERAL (
            SELECT id FROM ${sql(parent.table)} WHERE id = ${changes[parent.column] as number} AND project_id = r.project_id FOR KEY SHARE
          ) x ON true
          WHERE r.id = ${id}`
        if (row === undefined) return yield* new NotFound({ resource: options.resource })
        if (row.parent === null) return yield* new NotFound({ resource: parent.resource })
      })

    /** The first row; `NotFound` when there is none. */
    const first = (rows: ReadonlyArray<A>) =>
      Option.match(Arr.head(rows), { onNone: () => Effect.fail(new NotFound({ resource: options.resource })), onSome: Effect.succeed })

    const get = (id: number) => selectId(id).pipe(Effect.flatMap(first), orDefect)

    const projectTable: ProjectTable<A, New, Conflict> = {
      list: (projectId, window, filter = {}) =>
        findPage(sql, {
          Result: Row,
          columns: computedOnly === undefined ? columns : stored,
          computed: computedOnly,
          from: sql`${table} WHERE ${ofProject({ projectId, filter: changesOf(filter) as typeof Filter.Type })}`,
          orderBy: sql`id`
        }, window),
      find: (projectId, id) =>
        selectIds({ projectId, ids: [id] }).pipe(Effect.map(Arr.head), orDefect),
      findMany: (projectId, ids) =>
        ids.length === 0 ? Effect.succeed([]) : selectIds({ projectId, ids }).pipe(orDefect),
      existing: (projectId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : existingIds({ projectId, ids }).pipe(Effect.map((rows) => rows.map((row) => row.id)), orDefect),
      // The project's lifecycle lock first (Database/ProjectLocks.ts): a deletion of the project that came
      // first is a 404, not a foreign key violation.
      create: (projectId, values) =>
        lockForWriting(sql, projectId).pipe(
          Effect.zipRight(lockParent(projectId, values as Record<string, unknown>)),
          Effect.zipRight(insertRow({ project_id: projectId, ...values }).pipe(collide, Effect.flatMap(first))),
          sql.withTransaction,
          orDefect
        ) as Effect.Effect<A, NotFound | Conflict>,
      update: (id, patch) => {
        const changes = changesOf(patch)
        if (isEmpty(changes)) return get(id)
        const write = updateRow({ id, changes }).pipe(collide, Effect.flatMap(first))
        return (parent !== undefined && parent.column in changes
          ? lockParentOf(id, changes).pipe(Effect.zipRight(write), sql.withTransaction)
          : write).pipe(orDefect)
      },
      get,
      delete: (id) =>
        lockForRow(sql, options.table, id, { rollups: true }).pipe(
          Effect.zipRight(sql`DELETE FROM ${table} WHERE id = ${id}`),
          sql.withTransaction,
          Effect.asVoid,
          orDefect
        )
    }
    return projectTable
  })

/**
 * The create and update of a resource with a set of ids stored beside it (a brand's segments, a
 * prompt's tags): the columns and the set are written in one transaction, and the resource is
 * answered as it then is. `replace` makes the stored set the given one; a changed set alone still
 * moves the resource's `updated_at`. When the set is counted by the analytics (`rollups`: a prompt's
 * tags), a write of it takes the project's rollup lock before any row (Database/ProjectLocks.ts).
 */
export const withIdSet = <A extends { readonly id: number }, Columns extends object, const Field extends string>(
  table: ProjectTable<A, Columns>,
  options: {
    readonly table: string
    readonly field: Field
    readonly rollups: boolean
    readonly replace: (id: number, ids: ReadonlyArray<number>) => Effect.Effect<void, SqlError.SqlError | ParseResult.ParseError>
  }
) =>
  Effect.map(SqlClient.SqlClient, (sql) => {
    type New = Columns & { readonly [K in Field]: ReadonlyArray<number> }
    const split = (values: object) => {
      const { [options.field]: ids, ...columns } = values as Record<string, unknown>
      return { ids: ids as ReadonlyArray<number> | undefined, columns: columns as Columns }
    }
    const create = (projectId: number, values: New) =>
      Effect.gen(function*() {
        const { columns, ids = [] } = split(values)
        if (ids.length > 0 && options.rollups) yield* lockProject(sql, projectId, { rollups: true })
        const created = yield* table.create(projectId, columns)
        if (ids.length === 0) return created
        yield* options.replace(created.id, ids)
        // Read in the transaction that made it: it is there.
        return yield* Effect.orDie(table.get(created.id))
      }).pipe(sql.withTransaction, orDefect)
    const update = (id: number, patch: { readonly [K in keyof New]?: New[K] | undefined }) =>
      Effect.gen(function*() {
        const { columns, ids } = split(patch)
        if (ids !== undefined && options.rollups) yield* lockForRow(sql, options.table, id, { rollups: true })
        const updated = yield* table.update(id, columns)
        if (ids === undefined) return updated
        yield* sql`UPDATE ${sql(options.table)} SET updated_at = now() WHERE id = ${id}`
        yield* options.replace(id, ids)
        return yield* table.get(id)
      }).pipe(sql.withTransaction, orDefect)
    return { create, update }
  })
