import type { SqlClient, Statement } from "@effect/sql"
import { Effect, type Schema } from "effect"
import { type Key, type KeyPart, type Keyset, type KeysetPage, keysetPageOf } from "../Domain/Page.ts"
import { decodeRows, orDefect } from "./Rows.ts"

/**
 * One keyset page of a list (docs/api.md, "Reading a whole list: cursors"): `columns` of `tables`
 * where `where` holds, in the order of `keyColumns` (the order's columns, the id last, all in
 * `direction`), starting after the key `keyset.after`. The start is a row comparison on the order's
 * columns, which an index in that order answers by seeking to it, so a page deep in a long list costs
 * what the first does; rows inserted meanwhile are before or after the key, so no row is read twice or
 * skipped. One row past the limit tells whether another page follows.
 */
export const findKeysetPage = <A>(
  sql: SqlClient.SqlClient,
  query: {
    readonly Result: Schema.Schema<A, any>
    readonly columns: Statement.Fragment
    readonly tables: Statement.Fragment
    readonly where: ReadonlyArray<Statement.Fragment>
    /** The columns of the order, the id last, and what each holds. */
    readonly keyColumns: ReadonlyArray<readonly [Statement.Fragment, KeyPart]>
    readonly direction: "asc" | "desc"
    /** The key of a row of the page, as the cursor holds it. */
    readonly keyOf: (row: A) => Key
  },
  keyset: Keyset
): Effect.Effect<KeysetPage<A>> => {
  // The direction comes from a closed list, never from the request's text.
  const direction = sql.literal(query.direction === "asc" ? "ASC" : "DESC")
  const orderBy = sql.csv(query.keyColumns.map(([column]) => sql`${column} ${direction}`))
  const conditions = [...query.where]
  if (keyset.after !== undefined) {
    const after = keyset.after
    const columns = sql.csv(query.keyColumns.map(([column]) => column))
    const values = sql.csv(query.keyColumns.map(([, part], i) => part === "timestamp" ? sql`${new Date(after[i]!)}::timestamptz` : sql`${after[i]!}`))
    conditions.push(query.direction === "asc" ? sql`(${columns}) > (${values})` : sql`(${columns}) < (${values})`)
  }
  return decodeRows(
    query.Result,
    sql`SELECT ${query.columns} FROM ${query.tables} WHERE ${sql.and(conditions)} ORDER BY ${orderBy} LIMIT ${keyset.limit + 1}`
  ).pipe(Effect.map((rows) => keysetPageOf(rows, keyset.limit, query.keyOf)), orDefect)
}
