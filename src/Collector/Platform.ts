import { Context, Data, type Duration, type Effect, type Option } from "effect"
import type { Platform } from "../Domain/Platform.ts"
import type { AnswerDetails, AnswerState, FinishReason } from "../Domain/Response.ts"
import { storableText } from "../Domain/Text.ts"

/**
 * The contract between the collector (scheduler, runs, worker) and the platform adapters: a question
 * goes in, an answer with its citations comes out, or a typed failure says why not and whether trying
 * again may help. Adapters know HTTP and their provider's wire format; the worker knows neither.
 */

/** A brand of the project, as the simulated platform needs it to write about it. */
export interface QuestionBrand {
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  readonly domains: ReadonlyArray<string>
  /** The project's own brand (projects.brand_id). */
  readonly own: boolean
}

export interface Question {
  readonly platform: Platform
  /** The prompt's text, asked as is. */
  readonly prompt: string
  readonly promptId: number
  /** The monitor's country, ISO 3166-1 alpha-2 upper-case; given to the provider where it takes one. */
  readonly country: string
  /** The UTC day of the run's slot, `YYYY-MM-DD`: seeds the simulated platform. */
  readonly day: string
  readonly brands: ReadonlyArray<QuestionBrand>
}

export interface Answer {
  /** The answer as the reader sees it; empty for an `empty` or `no_answer` state, maybe for `refused`. */
  readonly text: string
  /** The URLs the platform cited, in its order, each once; empty when it cited none. */
  readonly citations: ReadonlyArray<string>
  /** True when the simulated platform wrote it: such answers are labelled in the data. */
  readonly simulated: boolean
  /** What the platform gave back: only `answered` responses count in the analytics (docs/metrics.md). */
  readonly state: AnswerState
  /** The model that answered, as the provider named it in its response; null when it names none (SERP). */
  readonly model: string | null
  /** Why the platform stopped writing, in the service's words; null when it does not say. */
  readonly finishReason: FinishReason | null
  readonly usage: Usage
  /** The web searches the platform ran, in order. */
  readonly searchQueries: ReadonlyArray<string>
  /** URLs the platform retrieved (searched, opened) but did not cite, in its order, each once. */
  readonly retrieved: ReadonlyArray<string>
}

/** Tokens and cost as the provider reported them; null where it reported nothing. */
export interface Usage {
  readonly inputTokens: number | null
  readonly outputTokens: number | null
  /** In US dollars; only some providers report it (Perplexity, xAI). */
  readonly costUsd: number | null
}

export const noUsage: Usage = { inputTokens: null, outputTokens: null, costUsd: null }

/** What an answer reports beyond its text when its platform reports nothing more (the simulated platform). */
export const unreported = {
  state: "answered",
  model: null,
  finishReason: null,
  usage: noUsage,
  searchQueries: [],
  retrieved: []
} as const satisfies Omit<Answer, "text" | "citations" | "simulated">

/** What the response stores of an answer beyond its text and citations (a NUL dropped, as from the text). */
export const answerDetailsOf = (answer: Answer): AnswerDetails => ({
  model: answer.model === null ? null : storableText(answer.model),
  answer_state: answer.state,
  finish_reason: answer.finishReason,
  input_tokens: answer.usage.inputTokens,
  output_tokens: answer.usage.outputTokens,
  cost_usd: answer.usage.costUsd,
  search_queries: answer.searchQueries.map(storableText),
  retrieved_urls: answer.retrieved.map(storableText)
})

/**
 * The longest one ask may take, every wait and attempt included: half the worker's lease, so that a
 * job is finished (stored, or put back for later) well before another worker may claim it again.
 */
export const askBudgetMs = (leaseMs: number): number => Math.max(1, Math.floor(leaseMs / 2))

/**
 * Why a platform gave no answer. `rate_limited` (429), `unavailable` (5xx, network, a failed search) and
 * `timeout` may pass on a later attempt; `quota_exceeded` (credits, spend limit or searches used up: a
 * 429 or 402 that says so), `rejected` (another 4xx: bad key, bad request, retired model) and
 * `malformed` (a body not in the provider's documented shape) will not.
 */
export type FailureKind = "rate_limited" | "unavailable" | "timeout" | "quota_exceeded" | "rejected" | "malformed"

export class PlatformFailure extends Data.TaggedError("PlatformFailure")<{
  readonly platform: Platform
  readonly kind: FailureKind
  /** For the job record and logs: never holds a key or other secret. */
  readonly message: string
  /** The provider's retry delay (`Retry-After`, `retry-after-ms`, Gemini's `RetryInfo`), when it sent one. */
  readonly retryAfter?: Duration.Duration | undefined
}> {}

export const isRetryable = (failure: PlatformFailure): boolean =>
  failure.kind === "rate_limited" || failure.kind === "unavailable" || failure.kind === "timeout"

export interface PlatformClient {
  readonly platform: Platform
  readonly ask: (question: Question) => Effect.Effect<Answer, PlatformFailure>
}

/** The configured platforms. A platform with no configuration has no client: its jobs are skipped. */
export class Platforms extends Context.Tag("Platforms")<Platforms, {
  readonly client: (platform: Platform) => Option.Option<PlatformClient>
}>() {}
