import { Schema } from "effect"
import { Id, Timestamp, Timestamps } from "./Common.ts"
import { Platform } from "./Platform.ts"

export const statuses = ["pending", "analyzed", "failed"] as const
export const ResponseStatus = Schema.Literal(...statuses)
export type ResponseStatus = typeof ResponseStatus.Type

/** One answer of a platform to a prompt. */
export const Response = Schema.Struct({
  id: Id,
  monitor_id: Id,
  prompt_id: Id,
  platform: Platform,
  country: Schema.String,
  text: Schema.String,
  status: ResponseStatus,
  collected_at: Timestamp,
  analyzed_at: Schema.NullOr(Timestamp),
  ...Timestamps
}).annotations({ identifier: "Response" })
export type Response = typeof Response.Type

/** A domain cited by responses of the project. */
export const Source = Schema.Struct({
  id: Id,
  domain: Schema.String,
  created_at: Timestamp
}).annotations({ identifier: "Source" })
export type Source = typeof Source.Type

/** An exact (normalized) URL cited by responses of the project. */
export const SourceUrl = Schema.Struct({
  id: Id,
  source_id: Id,
  url: Schema.String,
  created_at: Timestamp
}).annotations({ identifier: "SourceUrl" })
export type SourceUrl = typeof SourceUrl.Type

/** One cited URL occurrence in a response, in the platform's order. */
export const Citation = Schema.Struct({
  id: Id,
  response_id: Id,
  source_id: Id,
  source_url_id: Id,
  url: Schema.String,
  position: Schema.Int,
  created_at: Timestamp
}).annotations({ identifier: "Citation" })
export type Citation = typeof Citation.Type

const mentionFields = {
  id: Id,
  response_id: Id,
  brand_id: Id,
  position: Schema.Int,
  sentiment_score: Schema.Int
}

/** A brand detected in a response, as stored. */
export const StoredBrandMention = Schema.Struct({ ...mentionFields, ...Timestamps })
export type StoredBrandMention = typeof StoredBrandMention.Type

/** A brand detected in a response (docs/api.md), with when its response was collected. */
export const BrandMention = Schema.Struct({
  ...mentionFields,
  collected_at: Timestamp.annotations({ description: "When its response was collected." }),
  ...Timestamps
}).annotations({ identifier: "BrandMention" })
export type BrandMention = typeof BrandMention.Type
