import { type SqlClient, SqlError, SqlSchema, type Statement } from "@effect/sql"
import { Cause, Effect, ParseResult, Schema } from "effect"
import type { Page, Window } from "../Domain/Page.ts"
import * as Compiled from "../Schema/Compiled.ts"

/**
 * Rows as the repositories read them: decoded with the domain's schemas (through `SqlSchema`), and a
 * database failure or a row that does not match its schema is a defect, not an error a caller
 * handles. The HTTP layer answers a defect with a 500, or a 503 when the database cannot be reached
 * (Http/ErrorResponse.ts); the CLI and the collector report it and stop or retry.
 */

/** The schema of a row of `schema`: its type side, since rows come with `Date`s, not wire strings. */
export const rowOf = <A, I, R>(schema: Schema.Schema<A, I, R>): Schema.Schema<A, A, never> =>
  Schema.typeSchema(schema) as Schema.Schema<A, A, never>

/** The columns a row of the struct `schema` is made of, in its fields' order. */
export const columnsOf = (schema: { readonly fields: Schema.Struct.Fields }): ReadonlyArray<string> => Object.keys(schema.fields)

/** A database failure, a row that does not match its schema, or no row where a query always gives one. */
type Defect = SqlError.SqlError | ParseResult.ParseError | Cause.NoSuchElementException

const isDefect = (error: unknown): error is Defect =>
  error instanceof SqlError.SqlError || ParseResult.isParseError(error) || Cause.isNoSuchElementException(error)

/** A query's database failures and undecodable rows as defects; its other errors stay. */
export const orDefect = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, Defect>, R> =>
  Effect.catchIf(effect, isDefect, (error) => Effect.die(error)) as Effect.Effect<A, Exclude<E, Defect>, R>

/** A count of the database (`count(*)`, a bigint parsed to a number by Database/PgTypes.ts). */
export const Count = Schema.Struct({ total: Schema.NonNegativeInt })

/** A row's id. */
export const IdRow = Schema.Struct({ id: Schema.Int })

/**
 * The decoder of an array of `Result`, made once per schema: a schema made anew is a parser compiled
 * anew, which per request showed in the CPU profile (docs/performance.md, "Where the time goes").
 * Compiled to a plain function where the schema allows (Schema/Compiled.ts).
 */
const rowsDecoders = new WeakMap<Schema.Schema<any, any>, (rows: unknown) => Effect.Effect<ReadonlyArray<any>, ParseResult.ParseError>>()

const rowsDecoder = <A>(Result: Schema.Schema<A, any>): (rows: unknown) => Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError> => {
  let decoder = rowsDecoders.get(Result)
  if (decoder === undefined) {
    // An Either is an Effect: decoding needs no fiber step of its own.
    decoder = Compiled.decoder(Schema.Array(Result))
    rowsDecoders.set(Result, decoder)
  }
  return decoder
}

/** The rows of a statement built beforehand (its conditions already in it), decoded with `Result`. */
export const decodeRows = <A, E, R>(
  Result: Schema.Schema<A, any>,
  statement: Effect.Effect<ReadonlyArray<unknown>, E, R>
): Effect.Effect<ReadonlyArray<A>, E | ParseResult.ParseError, R> => Effect.flatMap(statement, rowsDecoder(Result))

const decodeTotal = Schema.decodeUnknown(Count.fields.total)

/**
 * One page of a list, decoded, with the exact size of the whole list: `columns` of `from` (the
 * tables and their conditions) in `orderBy`. One statement: the count rides along on every row of the
 * page, as a subquery of its own; only a page past the end, which has no row to carry it, asks for the
 * count on its own. The count is not a window over the page's rows (`count(*) OVER ()`): that made
 * PostgreSQL read, join and sort the whole list before it could return the first page (1.2 s for a
 * page of a million mentions, against 40 ms now), where the page alone takes a few rows of an index.
 * `countFrom` counts the same rows more cheaply when it can (without a join that removes none).
 *
 * `keys` chooses a page by its rows' keys first, walking `keys.from` (the same rows in the same order,
 * more cheaply: an index alone), and only then reads the page's rows from `keys.tables`. Otherwise a
 * page deep in a long list reads (and joins) every row before it whole: the middle page of a million
 * mentions took ~500 ms that way, ~80 ms chosen by its keys.
 *
 * `computed` columns (subqueries per row: a prompt's tags) are computed for the page's rows only: the
 * page is chosen first, in a subquery named `computed.alias` (the table's name, which their expressions
 * refer to), and they are added around it. Computed beside the count, they would be computed for every
 * row up to the page's end, and deeper pages would cost more. For one table (ProjectTable.ts): the
 * alias is its plain name, and `orderBy` names columns of `columns`, which the outer query orders by again.
 */
export const findPage = <A>(
  sql: SqlClient.SqlClient,
  query: {
    readonly Result: Schema.Schema<A, any>
    readonly columns: Statement.Fragment
    readonly from: Statement.Fragment
    /** The same rows as `from`, for counting them (default `from`). */
    readonly countFrom?: Statement.Fragment | undefined
    readonly orderBy: Statement.Fragment
    readonly computed?: { readonly alias: string; readonly columns: Statement.Fragment } | undefined
    /**
     * The key column of a row (`m.id`), a FROM of the same rows as `from` in the same `orderBy` that
     * is cheaper to walk, and the tables of `from` (joined as one, no conditions) to read the page from.
     */
    readonly keys?: { readonly key: Statement.Fragment; readonly from: Statement.Fragment; readonly tables: Statement.Fragment } | undefined
  },
  window: Window
): Effect.Effect<Page<A>> =>
  Effect.gen(function*() {
    const counted = query.countFrom ?? query.from
    const total = sql`(SELECT count(*) FROM ${counted}) AS total`
    const page = query.keys === undefined
      ? sql`
        SELECT ${query.columns}, ${total} FROM ${query.from}
        ORDER BY ${query.orderBy} LIMIT ${window.limit} OFFSET ${window.offset}`
      : sql`
        SELECT ${query.columns}, ${total}
        FROM (
          SELECT ${query.keys.key} AS page_key FROM ${query.keys.from}
          ORDER BY ${query.orderBy} LIMIT ${window.limit} OFFSET ${window.offset}
        ) AS page JOIN ${query.keys.tables} ON ${query.keys.key} = page.page_key
        ORDER BY ${query.orderBy}`
    const raw = yield* (query.computed === undefined ? page : sql`
      SELECT ${sql(query.computed.alias)}.*, ${query.computed.columns} FROM (${page}) AS ${sql(query.computed.alias)}
      ORDER BY ${query.orderBy}`)
    const [first] = raw
    if (first !== undefined) {
      // The rows' schemas are structs: the extra `total` column is left out of each decoded row.
      return { rows: yield* rowsDecoder(query.Result)(raw), total: yield* decodeTotal(first.total) }
    }
    if (window.offset === 0) return { rows: [], total: 0 }
    const count = SqlSchema.single({ Request: Schema.Void, Result: Count, execute: () => sql`SELECT count(*) AS total FROM ${counted}` })
    return { rows: [], total: (yield* count()).total }
  }).pipe(orDefect)
