/** The fields of a PATCH that were given: an omitted (undefined) field keeps its value, null is a value. */
export const changesOf = <A extends object>(patch: A): Partial<A> =>
  Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<A>

export const isEmpty = (changes: object): boolean => Object.keys(changes).length === 0
