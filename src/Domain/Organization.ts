import { Schema } from "effect"
import { Id, Timestamps } from "./Common.ts"

export const Organization = Schema.Struct({
  id: Id,
  name: Schema.String,
  ...Timestamps
}).annotations({ identifier: "Organization" })
export type Organization = typeof Organization.Type
