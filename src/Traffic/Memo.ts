/**
 * A function of a string remembered for the strings it was called with, at most `limit` of them
 * (then forgotten all at once): logs repeat a few user agents and paths millions of times, and the
 * limit keeps memory bounded whatever a log holds.
 */
export const memoized = <A>(limit: number, compute: (key: string) => A): ((key: string) => A) => {
  const memo = new Map<string, A>()
  return (key) => {
    let value = memo.get(key)
    if (value === undefined) {
      if (memo.size >= limit) memo.clear()
      value = compute(key)
      memo.set(key, value)
    }
    return value
  }
}
