import { Effect, Option } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import type { ProjectTable } from "../Database/ProjectTable.ts"
import { NotFound } from "../Domain/Errors.ts"
import { byId, type MemoryTables, pageOf } from "./Store.ts"

interface StoredRow {
  readonly id: number
  readonly project_id: number
  readonly created_at: Date
  readonly updated_at: Date
}

/**
 * The in-memory twin of Database/ProjectTable.ts, over the table `table` of the memory store (`resource`:
 * `Tag`, for a 404). The table is the store's own when the data model has it, else it is made on first use:
 * a new area's table needs no line in Store.ts. Its rows go with their project.
 */
export const make = <Row extends StoredRow, New extends object, A = Row, Conflict = never>(
  db: MemoryTables,
  table: string,
  resource: string,
  options: {
    /** A row as the repository shows it, with what is stored beside it. */
    readonly view?: (row: Row) => A
    /** Deletes a row with what hangs on it (the store's cascade); by default, the row alone. */
    readonly remove?: (id: number) => void
    /** What two rows of one project may not share, compared as the unique index does. */
    readonly unique?: { readonly key: (row: Row) => string; readonly error: () => Conflict }
    /** A row of the project this one names (a prompt's monitor): `NotFound` of `resource` when it is gone. */
    readonly parent?: { readonly column: string; readonly table: string; readonly resource: string }
  }
): ProjectTable<A, New, Conflict> => {
  const rows = db.table<Row>(table)
  const remove = options.remove ?? ((id: number) => void rows.delete(id))
  db.cascadeFromProject(table, remove)
  const view = options.view ?? ((row: Row) => row as unknown as A)
  const ofProject = (projectId: number) => byId(rows.values()).filter((row) => row.project_id === projectId)
  const collides = (row: Row) =>
    options.unique !== undefined &&
    ofProject(row.project_id).some((other) => other.id !== row.id && options.unique!.key(other) === options.unique!.key(row))
  const save = (row: Row): Effect.Effect<A, Conflict> => {
    if (collides(row)) return Effect.fail(options.unique!.error())
    rows.set(row.id, row)
    return Effect.succeed(view(row))
  }
  /** The parent that `values` name, when it is not a row of the project. */
  const missingParent = (projectId: number, values: object): NotFound | undefined => {
    const parent = options.parent
    const id = parent === undefined ? undefined : (values as Record<string, unknown>)[parent.column]
    if (parent === undefined || typeof id !== "number") return undefined
    return db.table<StoredRow>(parent.table).get(id)?.project_id === projectId ? undefined : new NotFound({ resource: parent.resource })
  }
  const get = (id: number) =>
    Effect.suspend(() => {
      const row = rows.get(id)
      return row === undefined ? Effect.fail(new NotFound({ resource: resource })) : Effect.succeed(view(row))
    })
  return {
    list: (projectId, window, filter = {}) =>
      Effect.sync(() => {
        const wanted = Object.entries(changesOf(filter))
        const rows = ofProject(projectId).filter((row) => wanted.every(([column, value]) => (row as Record<string, unknown>)[column] === value))
        const page = pageOf(rows, window)
        return { total: page.total, rows: page.rows.map(view) }
      }),
    find: (projectId, id) => Effect.sync(() => Option.fromNullable(ofProject(projectId).find((row) => row.id === id)).pipe(Option.map(view))),
    findMany: (projectId, ids) => Effect.sync(() => ofProject(projectId).filter((row) => ids.includes(row.id)).map(view)),
    existing: (projectId, ids) => Effect.sync(() => ids.filter((id) => rows.get(id)?.project_id === projectId)),
    create: (projectId, values) =>
      Effect.suspend((): Effect.Effect<A, NotFound | Conflict> => {
        // Deleted after the request found it: the SQL table's foreign key (and its lock) says the same.
        if (!db.table("projects").has(projectId)) return Effect.fail(new NotFound({ resource: "Project" }))
        const gone = missingParent(projectId, values)
        if (gone !== undefined) return Effect.fail(gone)
        const now = db.now()
        return save({ ...values, id: db.nextId(table), project_id: projectId, created_at: now, updated_at: now } as unknown as Row)
      }),
    update: (id, patch) =>
      Effect.suspend((): Effect.Effect<A, NotFound | Conflict> => {
        const current = rows.get(id)
        if (current === undefined) return Effect.fail(new NotFound({ resource: resource }))
        const changes = changesOf(patch)
        const gone = missingParent(current.project_id, changes)
        if (gone !== undefined) return Effect.fail(gone)
        return isEmpty(changes) ? Effect.succeed(view(current)) : save({ ...current, ...changes, updated_at: db.now() })
      }),
    get,
    delete: (id) => Effect.sync(() => remove(id))
  }
}

/** The in-memory twin of `withIdSet` (Database/ProjectTable.ts). */
export const withIdSet = <A extends { readonly id: number }, Columns extends object, const Field extends string>(
  db: MemoryTables,
  tableName: string,
  table: ProjectTable<A, Columns>,
  options: { readonly field: Field; readonly replace: (id: number, ids: ReadonlyArray<number>) => void }
) => {
  type New = Columns & { readonly [K in Field]: ReadonlyArray<number> }
  const rows = db.table<StoredRow>(tableName)
  const split = (values: object) => {
    const { [options.field]: ids, ...columns } = values as Record<string, unknown>
    return { ids: ids as ReadonlyArray<number> | undefined, columns: columns as Columns }
  }
  const replaced = (id: number, ids: ReadonlyArray<number>) =>
    Effect.suspend(() => {
      options.replace(id, ids)
      return table.get(id)
    })
  return {
    create: (projectId: number, values: New) => {
      const { columns, ids = [] } = split(values)
      return Effect.flatMap(table.create(projectId, columns), (created) => Effect.orDie(replaced(created.id, ids)))
    },
    update: (id: number, patch: { readonly [K in keyof New]?: New[K] | undefined }) => {
      const { columns, ids } = split(patch)
      return Effect.flatMap(table.update(id, columns), (updated) => {
        if (ids === undefined) return Effect.succeed(updated)
        rows.set(id, { ...rows.get(id)!, updated_at: db.now() })
        return replaced(id, ids)
      })
    }
  }
}
