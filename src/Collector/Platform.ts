import { Context, Data, type Duration, type Effect, type Option } from "effect"
import type { Platform } from "../Domain/Platform.ts"

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
  readonly text: string
  /** The URLs the platform cited, in its order; empty when it cited none. */
  readonly citations: ReadonlyArray<string>
  /** True when the simulated platform wrote it: such answers are labelled in the data. */
  readonly simulated: boolean
}

/**
 * Why a platform gave no answer. `rate_limited` (429), `unavailable` (5xx, network) and `timeout` may
 * pass on a later attempt; `rejected` (another 4xx: bad key, bad request) and `malformed` (a body not in
 * the provider's documented shape) will not.
 */
export type FailureKind = "rate_limited" | "unavailable" | "timeout" | "rejected" | "malformed"

export class PlatformFailure extends Data.TaggedError("PlatformFailure")<{
  readonly platform: Platform
  readonly kind: FailureKind
  /** For the job record and logs: never holds a key or other secret. */
  readonly message: string
  /** The provider's `Retry-After`, when it sent one. */
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
