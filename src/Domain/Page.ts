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
