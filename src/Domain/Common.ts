import { Schema } from "effect"

/** Identifiers are positive integers (bigint in the database, JSON numbers on the wire). */
export const Id = Schema.Int.pipe(Schema.positive()).annotations({ examples: [1] })

/** ISO 8601 UTC with `Z` and milliseconds on the wire; a `Date` in code. */
export const Timestamp = Schema.Date.annotations({
  description: "ISO 8601 UTC timestamp with milliseconds.",
  examples: [new Date("2026-11-21T14:26:10.000Z")]
})
