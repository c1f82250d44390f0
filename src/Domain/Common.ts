import { Option, Schema } from "effect"

/** Identifiers are positive integers (bigint in the database, JSON numbers on the wire). */
export const Id = Schema.Int.pipe(Schema.positive()).annotations({ examples: [1] })

/** ISO 8601 UTC with `Z` and milliseconds on the wire; a `Date` in code. */
export const Timestamp = Schema.Date.annotations({
  description: "ISO 8601 UTC timestamp with milliseconds.",
  examples: [new Date("2026-11-21T14:26:10.000Z")]
})

/** When a stored resource was made and last changed: the last two fields of most resources. */
export const Timestamps = { created_at: Timestamp, updated_at: Timestamp }

/** An id written as text (a path, a header): a positive integer that fits a JavaScript number exactly. */
export const parseId = (value: string): Option.Option<number> => {
  if (!/^[1-9][0-9]*$/.test(value)) return Option.none()
  const id = Number(value)
  return Number.isSafeInteger(id) ? Option.some(id) : Option.none()
}

/** Milliseconds of `YYYY-MM-DD` 00:00:00.000Z, or undefined when it is not a real calendar date. */
export const parseDate = (text: string): number | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (match === null) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day) // not Date.UTC: it maps years 0-99 to 1900-1999
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date.getTime()
    : undefined
}
