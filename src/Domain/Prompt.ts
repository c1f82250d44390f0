import { Schema } from "effect"
import { Id, Timestamps } from "./Common.ts"
import { Tag } from "./Tag.ts"

export const Prompt = Schema.Struct({
  id: Id,
  monitor_id: Id,
  text: Schema.String,
  tags: Schema.Array(Tag).annotations({ description: "The prompt's tags, ordered by id." }),
  ...Timestamps
}).annotations({ identifier: "Prompt" })
export type Prompt = typeof Prompt.Type
