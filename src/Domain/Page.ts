/** One page of a list, as repositories return it: the rows and the exact size of the whole list. */
export interface Page<A> {
  readonly rows: ReadonlyArray<A>
  readonly total: number
}

/** Which rows of a list to fetch. */
export interface Window {
  readonly offset: number
  readonly limit: number
}

/**
 * Where a row stands in a list's order: its values of the order's columns, its id last (a timestamp as
 * ISO 8601 text with milliseconds, as stored). A keyset page starts after such a key.
 */
export type Key = ReadonlyArray<number | string>

/** What each value of a list's keys is, in order: a cursor's key is checked against it before any query. */
export type KeyPart = "integer" | "timestamp"

/** Which rows of a list to fetch by key: those after `after` in the list's order (from the start without it). */
export interface Keyset {
  readonly after: Key | undefined
  readonly limit: number
}

/** One keyset page: its rows, and the key of its last row when more rows follow it. */
export interface KeysetPage<A> {
  readonly rows: ReadonlyArray<A>
  readonly next: Key | undefined
}

/** The keyset page of `rows` fetched one past the limit (whether more follow), with the key of its last row. */
export const keysetPageOf = <A>(fetched: ReadonlyArray<A>, limit: number, keyOf: (row: A) => Key): KeysetPage<A> => {
  const rows = fetched.length > limit ? fetched.slice(0, limit) : fetched
  return { rows, next: fetched.length > limit ? keyOf(rows[rows.length - 1]!) : undefined }
}

/** How two keys of the same list compare: by their values in order (ISO timestamps compare as text). */
export const compareKeys = (a: Key, b: Key): number => {
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i]!, b[i]!]
    if (x < y) return -1
    if (x > y) return 1
  }
  return 0
}

/** The keyset page of `rows`, already in the list's order (`direction` of its keys), in memory. */
export const keysetOf = <A>(rows: ReadonlyArray<A>, keyOf: (row: A) => Key, direction: "asc" | "desc", keyset: Keyset): KeysetPage<A> => {
  const sign = direction === "asc" ? 1 : -1
  const after = keyset.after
  const start = after === undefined ? 0 : rows.findIndex((row) => sign * compareKeys(keyOf(row), after) > 0)
  return keysetPageOf(start === -1 ? [] : rows.slice(start, start + keyset.limit + 1), keyset.limit, keyOf)
}
