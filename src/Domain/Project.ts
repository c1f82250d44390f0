import { Schema } from "effect"
import { Id, Timestamps } from "./Common.ts"

export const Project = Schema.Struct({
  id: Id,
  organization_id: Id,
  name: Schema.String,
  domain: Schema.NullOr(Schema.String),
  brand_id: Schema.NullOr(Id),
  ...Timestamps
}).annotations({ identifier: "Project" })
export type Project = typeof Project.Type

/** The tags every new project starts with (docs/api.md). */
export const seededTagNames = ["branded", "non-branded", "review"] as const
