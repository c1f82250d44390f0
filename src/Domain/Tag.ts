import { Schema } from "effect"
import { Id, Timestamps } from "./Common.ts"

export const Tag = Schema.Struct({
  id: Id,
  name: Schema.String,
  color: Schema.String.annotations({ description: "`#rrggbb`, lower-case.", examples: ["#6b7280"] }),
  ...Timestamps
}).annotations({ identifier: "Tag" })
export type Tag = typeof Tag.Type

/** The color of a tag created without one. */
export const defaultTagColor = "#6b7280"
