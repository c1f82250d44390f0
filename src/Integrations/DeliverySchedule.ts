/**
 * When a webhook delivery is tried again, when it is given up, and when an endpoint is disabled,
 * as pure functions of the attempts made, the clock and a random number (so tests fix both).
 *
 * - An attempt succeeds on a 2xx answer within the timeout; anything else fails: another status
 *   (a 3xx too, since redirects are not followed), a timeout, a refused or reset connection.
 * - After the n-th failed attempt the next comes after 30 s × 3^(n−1), at most 6 h, spread by ±10%
 *   so that deliveries failed together do not come back together. A `Retry-After` answer pushes
 *   the next attempt later (never sooner), up to the same 6 h.
 * - A delivery is given up after 10 attempts: without Retry-After and jitter they span about 21 h
 *   (0, 30 s, 2 min, 6.5 min, 20 min, 1 h, 3 h, 9 h, 15 h, 21 h).
 * - An endpoint is disabled after 15 failed attempts in a row that span at least 24 h (a short
 *   outage with many events does not disable it; a receiver that is gone does, within about two
 *   days). Any success resets the run.
 */

export const ATTEMPT_TIMEOUT_MS = 10_000
export const MAX_ATTEMPTS = 10
export const FIRST_RETRY_SECONDS = 30
export const BACKOFF_FACTOR = 3
export const MAX_DELAY_SECONDS = 6 * 60 * 60
export const JITTER = 0.1
export const DISABLE_AFTER_FAILURES = 15
export const DISABLE_AFTER_SECONDS = 24 * 60 * 60

/** The delay after the n-th failed attempt (n ≥ 1), before jitter and Retry-After. */
export const backoffSeconds = (failedAttempts: number): number =>
  Math.min(MAX_DELAY_SECONDS, FIRST_RETRY_SECONDS * BACKOFF_FACTOR ** (failedAttempts - 1))

export type AttemptResult =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly status: number | null; readonly error: string }

/** The result of an answered attempt, from its status code. */
export const resultOfStatus = (status: number): AttemptResult => {
  if (status >= 200 && status < 300) return { ok: true, status }
  if (status >= 300 && status < 400) return { ok: false, status, error: `HTTP ${status}: redirects are not followed` }
  return { ok: false, status, error: `HTTP ${status}` }
}

/** The result of an attempt that got no answer. */
export const resultOfError = (kind: "timeout" | "refused" | "network", detail?: string): AttemptResult => ({
  ok: false,
  status: null,
  error: kind === "timeout" ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` : kind === "refused" ? `refused: ${detail ?? "target not allowed"}` : `network error${detail ? `: ${detail}` : ""}`
})

/**
 * A `Retry-After` header in seconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Null when absent or unreadable; a date in the past is 0.
 */
export const parseRetryAfter = (header: string | null | undefined, now: Date): number | null => {
  if (header === null || header === undefined) return null
  const text = header.trim()
  if (/^\d+$/.test(text)) return Number(text)
  // Only the date forms HTTP allows; Date.parse alone would read "1" or "tomorrow"-like junk.
  if (!/^[A-Za-z]{3},? /.test(text)) return null
  const at = Date.parse(text)
  if (Number.isNaN(at)) return null
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000))
}

export type NextStep =
  | { readonly kind: "retry"; readonly at: Date; readonly delaySeconds: number }
  | { readonly kind: "give_up" }

/**
 * What follows the `attempts`-th attempt of a delivery when it failed. `random` is in [0, 1).
 */
export const nextStep = (attempts: number, now: Date, random: number, retryAfterSeconds: number | null = null): NextStep => {
  if (attempts >= MAX_ATTEMPTS) return { kind: "give_up" }
  const jittered = backoffSeconds(attempts) * (1 - JITTER + 2 * JITTER * random)
  const asked = retryAfterSeconds === null ? 0 : Math.min(MAX_DELAY_SECONDS, retryAfterSeconds)
  const delaySeconds = Math.round(Math.max(jittered, asked))
  return { kind: "retry", at: new Date(now.getTime() + delaySeconds * 1000), delaySeconds }
}

/** The run of failures an endpoint is in. */
export interface EndpointHealth {
  readonly consecutiveFailures: number
  readonly failingSince: Date | null
}

export const healthy: EndpointHealth = { consecutiveFailures: 0, failingSince: null }

/** The endpoint's health after an attempt, and whether that attempt makes it disabled. */
export const afterAttempt = (health: EndpointHealth, result: AttemptResult, now: Date): { readonly health: EndpointHealth; readonly disable: boolean } => {
  if (result.ok) return { health: healthy, disable: false }
  const next: EndpointHealth = { consecutiveFailures: health.consecutiveFailures + 1, failingSince: health.failingSince ?? now }
  const span = (now.getTime() - next.failingSince!.getTime()) / 1000
  return { health: next, disable: next.consecutiveFailures >= DISABLE_AFTER_FAILURES && span >= DISABLE_AFTER_SECONDS }
}
