import { Clock, Duration, Effect, Random, RateLimiter, type Scope } from "effect"
import { type Answer, isRetryable, PlatformFailure, type PlatformClient, type Question } from "../Platform.ts"

/**
 * The wrapper every adapter goes through: it keeps a platform within its concurrency and request rate,
 * bounds each request's time, and tries again, a bounded number of times, when the failure may pass,
 * all within one time budget per ask (docs/platforms.md, "One time budget").
 */

export interface ResiliencePolicy {
  /** One request's time limit; past it the request is cut and counts as a `timeout` failure. */
  readonly timeout: Duration.Duration
  /** Attempts in all, the first included (at least 1). */
  readonly maxAttempts: number
  /** Requests in flight at once. */
  readonly concurrency: number
  /** Requests started per minute (token bucket: a burst of this many, then evenly spread). */
  readonly requestsPerMinute: number
  /** The wait after the first failed attempt; it doubles with each further one. */
  readonly backoffBase: Duration.Duration
  /** The longest backoff, before jitter. */
  readonly backoffMax: Duration.Duration
  /**
   * A `Retry-After` longer than this ends the attempts at once: better the worker records the failure
   * (with its `retryAfter`) than a fiber sleeps for an hour.
   */
  readonly maxRetryAfter: Duration.Duration
  /**
   * The longest one ask may take, every wait and attempt included: half the worker's lease
   * (`askBudgetMs`). No attempt runs past it, and no retry starts that could not have `MIN_ATTEMPT`.
   */
  readonly budget: Duration.Duration
}

/**
 * The shortest attempt worth starting (or the timeout, when shorter): a web-search answer takes seconds
 * to tens of seconds, and a retry with less time left would mostly be cut, and billed, for nothing.
 */
export const MIN_ATTEMPT = Duration.seconds(15)

/** Each backoff is scaled by a factor drawn from [1 - JITTER, 1 + JITTER): spread, yet still growing. */
export const JITTER = 0.2

/**
 * The wait after `failedAttempts` failed attempts (1 or more), before jitter: base · 2^(n-1), capped.
 */
export const backoffBeforeJitter = (policy: ResiliencePolicy, failedAttempts: number): Duration.Duration => {
  const base = Duration.toMillis(policy.backoffBase)
  const max = Duration.toMillis(policy.backoffMax)
  return Duration.millis(Math.min(max, base * 2 ** Math.max(0, failedAttempts - 1)))
}

/**
 * The wait before the next attempt: the jittered backoff (`unit` in [0, 1)), and never less than the
 * provider's `Retry-After`.
 */
export const retryDelay = (
  policy: ResiliencePolicy,
  failedAttempts: number,
  failure: PlatformFailure,
  unit: number
): Duration.Duration => {
  const factor = 1 - JITTER + 2 * JITTER * unit
  const backoff = Duration.millis(Math.round(Duration.toMillis(backoffBeforeJitter(policy, failedAttempts)) * factor))
  return failure.retryAfter === undefined ? backoff : Duration.max(backoff, failure.retryAfter)
}

export interface ResilienceOptions {
  /** How to wait between attempts; tests of real HTTP fakes record the waits instead of sleeping. */
  readonly sleep?: (duration: Duration.Duration) => Effect.Effect<void>
}

/**
 * `client` behind the policy. The semaphore and rate limiter belong to this one client (one platform),
 * so a slow provider does not hold back the others; the rate limiter lives as long as `Scope`.
 */
export const resilient = (
  client: PlatformClient,
  policy: ResiliencePolicy,
  options: ResilienceOptions = {}
): Effect.Effect<PlatformClient, never, Scope.Scope> =>
  Effect.gen(function*() {
    const sleep = options.sleep ?? Effect.sleep
    const maxAttempts = Math.max(1, Math.floor(policy.maxAttempts))
    const permits = yield* Effect.makeSemaphore(Math.max(1, Math.floor(policy.concurrency)))
    const limit = yield* RateLimiter.make({
      limit: Math.max(1, Math.floor(policy.requestsPerMinute)),
      interval: Duration.minutes(1),
      algorithm: "token-bucket"
    })
    const budgetMs = Math.max(1, Duration.toMillis(policy.budget))
    const timeoutMs = Math.max(1, Duration.toMillis(policy.timeout))
    const minAttemptMs = Math.min(timeoutMs, Duration.toMillis(MIN_ATTEMPT))

    const timedOut = (ms: number) => () =>
      new PlatformFailure({
        platform: client.platform,
        kind: "timeout",
        message: `${client.platform}: no answer within ${Duration.format(Duration.millis(ms))}`
      })

    const outOfBudget = () =>
      new PlatformFailure({
        platform: client.platform,
        kind: "timeout",
        message: `${client.platform}: no answer within the ask's time budget of ${Duration.format(Duration.millis(budgetMs))}`
      })

    // The rate token is taken before the permit, so a request waiting for its turn in the minute does
    // not hold a connection slot. The attempt gets its timeout, or what is left of the budget when less.
    const once = (question: Question, deadline: number): Effect.Effect<Answer, PlatformFailure> =>
      limit(permits.withPermits(1)(
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const left = deadline - now
          if (left <= 0) return Effect.fail(outOfBudget())
          const ms = Math.min(timeoutMs, left)
          return client.ask(question).pipe(Effect.timeoutFail({ duration: Duration.millis(ms), onTimeout: timedOut(ms) }))
        })
      ))

    const attempt = (question: Question, number: number, deadline: number): Effect.Effect<Answer, PlatformFailure> =>
      once(question, deadline).pipe(Effect.catchAll((failure) => {
        if (!isRetryable(failure) || number >= maxAttempts) return Effect.fail(failure)
        const tooLong = failure.retryAfter !== undefined &&
          Duration.greaterThan(failure.retryAfter, policy.maxRetryAfter)
        if (tooLong) return Effect.fail(failure)
        return Effect.gen(function*() {
          const delay = retryDelay(policy, number, failure, yield* Random.next)
          // No retry that the budget could not give a useful attempt after its wait: the failure goes
          // back to the worker, which schedules the job's next attempt (with the provider's delay).
          const left = deadline - (yield* Clock.currentTimeMillis)
          if (Duration.toMillis(delay) + minAttemptMs > left) return yield* Effect.fail(failure)
          yield* Effect.logWarning("platform request failed, trying again").pipe(
            Effect.annotateLogs({
              platform: client.platform,
              kind: failure.kind,
              reason: failure.message,
              attempt: number,
              max_attempts: maxAttempts,
              wait: Duration.format(delay)
            })
          )
          yield* sleep(delay)
          return yield* attempt(question, number + 1, deadline)
        })
      }))

    const ask = (question: Question) =>
      Effect.flatMap(Clock.currentTimeMillis, (start) => attempt(question, 1, start + budgetMs)).pipe(
        // The waits for a rate token or a permit count too: nothing of the ask outlives its budget.
        Effect.timeoutFail({ duration: Duration.millis(budgetMs), onTimeout: outOfBudget })
      )

    return { platform: client.platform, ask }
  })
