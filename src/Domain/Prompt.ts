import { Schema } from "effect"
import { Id, Timestamp } from "./Common.ts"
import { Tag } from "./Tag.ts"

export const Prompt = Schema.Struct({
  id: Id,
  monitor_id: Id,
  text: Schema.String,
  tags: Schema.Array(Tag).annotations({ description: "The prompt's tags, ordered by id." }),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Prompt" })
export type Prompt = typeof Prompt.Type
