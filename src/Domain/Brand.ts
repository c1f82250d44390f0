import { Schema } from "effect"
import { Id, Timestamp } from "./Common.ts"

export const classifications = ["competitor", "other", "ignored"] as const
export const Classification = Schema.Literal(...classifications)
export type Classification = typeof Classification.Type

export const Brand = Schema.Struct({
  id: Id,
  project_id: Id,
  name: Schema.String,
  aliases: Schema.Array(Schema.String),
  domains: Schema.Array(Schema.String),
  classification: Classification,
  segment_ids: Schema.Array(Id).annotations({ description: "The brand's segments, by id." }),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Brand" })
export type Brand = typeof Brand.Type

export const Segment = Schema.Struct({
  id: Id,
  project_id: Id,
  name: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "Segment" })
export type Segment = typeof Segment.Type
