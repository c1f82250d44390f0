import { Schema } from "effect"
import { Id, Timestamp, Timestamps } from "./Common.ts"
import { Platform } from "./Platform.ts"

export const statuses = ["pending", "analyzed", "failed"] as const
export const ResponseStatus = Schema.Literal(...statuses)
export type ResponseStatus = typeof ResponseStatus.Type

/**
 * What the platform gave back (docs/api.md, "Answer states"): an answer (`answered`), a refusal
 * (`refused`), nothing though it did answer (`empty`), or no AI answer at all for the query (`no_answer`:
 * Google showed no AI Overview). Only `answered` responses count in the analytics (docs/metrics.md).
 */
export const answerStates = ["answered", "refused", "empty", "no_answer"] as const
export const AnswerState = Schema.Literal(...answerStates)
export type AnswerState = typeof AnswerState.Type

/**
 * Why the platform stopped writing, in the service's words (each provider's own reasons are mapped in
 * docs/platforms.md): `complete`, cut at its output limit (`max_tokens`), stopped by a safety filter
 * (`content_filter`), a `refusal`, or anything else (`other`).
 */
export const finishReasons = ["complete", "max_tokens", "content_filter", "refusal", "other"] as const
export const FinishReason = Schema.Literal(...finishReasons)
export type FinishReason = typeof FinishReason.Type

/** At most this many search queries and retrieved URLs are kept per response; each at most this long. */
export const MAX_SEARCH_QUERIES = 50
export const MAX_RETRIEVED_URLS = 200
export const MAX_URL_LENGTH = 2048

/** What a platform reports of an answer beyond its text and citations (null or empty when it reports none). */
export const answerDetailFields = {
  model: Schema.NullOr(Schema.String).annotations({ description: "The model that answered, as the platform named it; null when it did not say." }),
  answer_state: AnswerState.annotations({ description: "`answered`, `refused`, `empty` or `no_answer`; only `answered` responses count in analytics." }),
  finish_reason: Schema.NullOr(FinishReason).annotations({
    description: "Why the platform stopped writing: `complete`, `max_tokens`, `content_filter`, `refusal` or `other`; null when unknown."
  }),
  input_tokens: Schema.NullOr(Schema.Int).annotations({ description: "Tokens of the question as the platform billed them; null when unknown." }),
  output_tokens: Schema.NullOr(Schema.Int).annotations({ description: "Tokens of the answer (reasoning included) as billed; null when unknown." }),
  cost_usd: Schema.NullOr(Schema.Number).annotations({ description: "The cost the platform reported for the answer, in US dollars; null when it reports none." }),
  search_queries: Schema.Array(Schema.String).annotations({ description: "The web searches the platform ran for the answer, in order." }),
  retrieved_urls: Schema.Array(Schema.String).annotations({
    description: "URLs the platform retrieved but did not cite, in its order (the cited ones are the citations)."
  })
}

/** The answer details of a response, as stored; every field optional on the way in (defaults: none reported, `answered`). */
export interface AnswerDetails {
  readonly model?: string | null | undefined
  readonly answer_state?: AnswerState | undefined
  readonly finish_reason?: FinishReason | null | undefined
  readonly input_tokens?: number | null | undefined
  readonly output_tokens?: number | null | undefined
  readonly cost_usd?: number | null | undefined
  readonly search_queries?: ReadonlyArray<string> | undefined
  readonly retrieved_urls?: ReadonlyArray<string> | undefined
}

/** One answer of a platform to a prompt. */
export const Response = Schema.Struct({
  id: Id,
  monitor_id: Id,
  prompt_id: Id,
  platform: Platform,
  country: Schema.String,
  text: Schema.String,
  status: ResponseStatus,
  ...answerDetailFields,
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
