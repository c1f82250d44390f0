import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, Logger, LogLevel, TestClock } from "effect"
import { type Answer, PlatformFailure, type FailureKind, type PlatformClient } from "../../../src/Collector/Platform.ts"
import {
  backoffBeforeJitter,
  JITTER,
  resilient,
  retryDelay
} from "../../../src/Collector/Platforms/Resilience.ts"
import { question } from "./providers.ts"
import { testPolicy } from "./support.ts"

/** The resilience wrapper on its own, around a scripted client, on the TestClock. */

const answer: Answer = { text: "HubSpot.", citations: [], simulated: false }

const failing = (kind: FailureKind, message: string, retryAfter?: Duration.DurationInput) =>
  new PlatformFailure({
    platform: "chatgpt",
    kind,
    message,
    retryAfter: retryAfter === undefined ? undefined : Duration.decode(retryAfter)
  })

/** A client whose n-th call runs `script(n)` (1-based); `calls` holds the clock time of each call. */
const scripted = (script: (call: number) => Effect.Effect<Answer, PlatformFailure>) => {
  const calls: Array<number> = []
  const client: PlatformClient = {
    platform: "chatgpt",
    ask: () =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        calls.push(now)
        return script(calls.length)
      })
  }
  return { client, calls }
}

const gaps = (times: ReadonlyArray<number>) => times.slice(1).map((time, i) => time - times[i]!)

const quiet = Logger.minimumLogLevel(LogLevel.None)

const policy = testPolicy({
  timeout: Duration.seconds(30),
  maxAttempts: 6,
  concurrency: 4,
  requestsPerMinute: 1_000,
  backoffBase: Duration.seconds(1),
  backoffMax: Duration.seconds(8),
  maxRetryAfter: Duration.seconds(60)
})

describe("retryDelay", () => {
  it("doubles from the base and stops at the cap", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => Duration.toMillis(backoffBeforeJitter(policy, n)))).toEqual([
      1_000,
      2_000,
      4_000,
      8_000,
      8_000,
      8_000
    ])
  })

  it("keeps the jitter within its bounds", () => {
    const noRetryAfter = failing("unavailable", "x")
    for (const n of [1, 2, 3, 4, 5]) {
      const base = Duration.toMillis(backoffBeforeJitter(policy, n))
      expect(Duration.toMillis(retryDelay(policy, n, noRetryAfter, 0))).toBe(base * (1 - JITTER))
      for (const unit of [0.25, 0.5, 0.75, 0.999999]) {
        const delay = Duration.toMillis(retryDelay(policy, n, noRetryAfter, unit))
        expect(delay).toBeGreaterThanOrEqual(base * (1 - JITTER))
        expect(delay).toBeLessThanOrEqual(base * (1 + JITTER))
      }
    }
  })

  it("never waits less than the Retry-After, and not less than the backoff either", () => {
    expect(Duration.toMillis(retryDelay(policy, 1, failing("rate_limited", "x", "30 seconds"), 0.5))).toBe(30_000)
    expect(Duration.toMillis(retryDelay(policy, 4, failing("rate_limited", "x", "1 millis"), 0.5))).toBe(8_000)
  })
})

describe("resilient", () => {
  it.scoped("backs off longer after each failure, within the jitter, and stops after the maximum attempts", () =>
    Effect.gen(function*() {
      const { calls, client } = scripted((n) => Effect.fail(failing("unavailable", `attempt ${n}`)))
      const wrapped = yield* resilient(client, policy)
      const fiber = yield* Effect.fork(wrapped.ask(question))
      yield* TestClock.adjust("10 minutes")
      const failure = yield* Effect.flip(Fiber.join(fiber))
      // The last failure is the one returned.
      expect(failure.message).toBe("attempt 6")
      expect(calls).toHaveLength(6)
      const waits = gaps(calls)
      const expected = [1_000, 2_000, 4_000, 8_000, 8_000]
      waits.forEach((wait, i) => {
        expect(wait).toBeGreaterThanOrEqual(expected[i]! * (1 - JITTER))
        expect(wait).toBeLessThanOrEqual(expected[i]! * (1 + JITTER))
      })
      // Until the cap, each wait is longer than the one before, whatever the jitter drew.
      for (let i = 1; i < 4; i++) expect(waits[i]!).toBeGreaterThan(waits[i - 1]!)
    }).pipe(Effect.provide(quiet)))

  it.scoped("waits at least the Retry-After before trying again", () =>
    Effect.gen(function*() {
      const { calls, client } = scripted((n) =>
        n === 1 ? Effect.fail(failing("rate_limited", "slow down", "30 seconds")) : Effect.succeed(answer)
      )
      const wrapped = yield* resilient(client, policy)
      const fiber = yield* Effect.fork(wrapped.ask(question))
      yield* TestClock.adjust("29 seconds")
      expect(calls).toHaveLength(1)
      yield* TestClock.adjust("1 second")
      expect(yield* Fiber.join(fiber)).toEqual(answer)
      expect(gaps(calls)).toEqual([30_000])
    }).pipe(Effect.provide(quiet)))

  it.scoped("returns at once a failure whose Retry-After is longer than the longest it will wait", () =>
    Effect.gen(function*() {
      const { calls, client } = scripted(() => Effect.fail(failing("rate_limited", "come back in an hour", "1 hour")))
      const wrapped = yield* resilient(client, policy)
      const failure = yield* Effect.flip(wrapped.ask(question))
      expect(calls).toHaveLength(1)
      expect(failure.retryAfter && Duration.toMillis(failure.retryAfter)).toBe(3_600_000)
    }).pipe(Effect.provide(quiet)))

  it.scoped.each(["rejected", "malformed"] as const)("returns a %s failure at once, without retrying", (kind) =>
    Effect.gen(function*() {
      const { calls, client } = scripted(() => Effect.fail(failing(kind, "no")))
      const wrapped = yield* resilient(client, policy)
      const failure = yield* Effect.flip(wrapped.ask(question))
      expect(failure.kind).toBe(kind)
      expect(calls).toHaveLength(1)
    }).pipe(Effect.provide(quiet)))

  it.scoped("turns a request that runs past the timeout into a timeout failure, and tries again", () =>
    Effect.gen(function*() {
      const { calls, client } = scripted(() => Effect.never)
      const wrapped = yield* resilient(client, { ...policy, maxAttempts: 2 })
      const fiber = yield* Effect.fork(wrapped.ask(question))
      yield* TestClock.adjust("29 seconds")
      expect(calls).toHaveLength(1)
      yield* TestClock.adjust("10 minutes")
      const failure = yield* Effect.flip(Fiber.join(fiber))
      expect(failure).toMatchObject({ kind: "timeout", platform: "chatgpt", message: "chatgpt: no answer within 30s" })
      expect(calls).toHaveLength(2)
      expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(30_000)
    }).pipe(Effect.provide(quiet)))

  it.scoped("keeps no more requests in flight than the concurrency", () =>
    Effect.gen(function*() {
      let inFlight = 0
      let most = 0
      const { client } = scripted(() =>
        Effect.acquireUseRelease(
          Effect.sync(() => {
            inFlight++
            most = Math.max(most, inFlight)
          }),
          () => Effect.as(Effect.sleep("10 seconds"), answer),
          () => Effect.sync(() => void inFlight--)
        )
      )
      const wrapped = yield* resilient(client, { ...policy, concurrency: 2 })
      const fiber = yield* Effect.fork(Effect.all(Array.from({ length: 5 }, () => wrapped.ask(question)), {
        concurrency: "unbounded"
      }))
      yield* TestClock.adjust("1 minute")
      expect(yield* Fiber.join(fiber)).toHaveLength(5)
      expect(most).toBe(2)
    }).pipe(Effect.provide(quiet)))

  it.scoped("starts no more requests than the rate allows", () =>
    Effect.gen(function*() {
      const { calls, client } = scripted(() => Effect.succeed(answer))
      // Two a minute: a burst of two, then one every 30 seconds.
      const wrapped = yield* resilient(client, { ...policy, requestsPerMinute: 2 })
      const fiber = yield* Effect.fork(Effect.all([1, 2, 3].map(() => wrapped.ask(question)), { concurrency: "unbounded" }))
      yield* TestClock.adjust("1 second")
      expect(calls).toHaveLength(2)
      yield* TestClock.adjust("30 seconds")
      yield* Fiber.join(fiber)
      expect(calls).toHaveLength(3)
      expect(calls[2]!).toBeGreaterThanOrEqual(30_000)
    }).pipe(Effect.provide(quiet)))
})
