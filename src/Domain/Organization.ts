import { Schema } from "effect"
import { Id, Timestamp } from "./Common.ts"

export const Organization = Schema.Struct({
  id: Id,
  name: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Organization" })
export type Organization = typeof Organization.Type
