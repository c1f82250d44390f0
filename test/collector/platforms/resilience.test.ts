import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, FastCheck as fc, Fiber, Logger, LogLevel, TestClock, TestContext } from "effect"
import { type Answer, PlatformFailure, type FailureKind, type PlatformClient, unreported } from "../../../src/Collector/Platform.ts"
import {
  backoffBeforeJitter,
  JITTER,
  MIN_ATTEMPT,
  type ResiliencePolicy,
  resilient,
  retryDelay
} from "../../../src/Collector/Platforms/Resilience.ts"
import { question } from "./providers.ts"
import { testPolicy } from "./support.ts"

/** The resilience wrapper on its own, around a scripted client, on the TestClock. */

const answer: Answer = { text: "HubSpot.", citations: [], simulated: false, ...unreported }

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
  maxRetryAfter: Duration.seconds(60),
  // Out of the way of the cases that are not about it.
  budget: Duration.minutes(10)
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

  it.scoped.each(["quota_exceeded", "rejected", "malformed"] as const)("returns a %s failure at once, without retrying", (kind) =>
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

  it.scoped("makes no retry that the budget could not give a useful attempt: the failure goes back with its delay", () =>
    Effect.gen(function*() {
      const { calls, client } = scripted(() => Effect.fail(failing("rate_limited", "slow down", "50 seconds")))
      const wrapped = yield* resilient(client, { ...policy, budget: Duration.seconds(60) })
      // 50 s of wait and the least useful attempt (15 s) do not fit in 60 s.
      const failure = yield* Effect.flip(wrapped.ask(question))
      expect(calls).toHaveLength(1)
      expect(failure.retryAfter && Duration.toMillis(failure.retryAfter)).toBe(50_000)
    }).pipe(Effect.provide(quiet)))

  it.scoped("gives an attempt only what is left of the budget", () =>
    Effect.gen(function*() {
      const { calls, client } = scripted(() => Effect.never)
      const wrapped = yield* resilient(client, { ...policy, maxAttempts: 5, budget: Duration.seconds(50) })
      const fiber = yield* Effect.fork(wrapped.ask(question))
      yield* TestClock.adjust("49 seconds")
      expect(calls).toHaveLength(2)
      yield* TestClock.adjust("1 second")
      const failure = yield* Effect.flip(Fiber.join(fiber))
      // The first attempt had its 30 s; the second what was left after the wait (about 19 s).
      expect(failure.kind).toBe("timeout")
      expect(failure.message).toMatch(/^chatgpt: no answer within (18|19|20)s/)
      expect(calls).toHaveLength(2)
    }).pipe(Effect.provide(quiet)))

  it.scoped("the wait for a connection permit counts: an ask queued behind a slow one ends at its budget", () =>
    Effect.gen(function*() {
      const { client } = scripted(() => Effect.as(Effect.sleep("40 seconds"), answer))
      const wrapped = yield* resilient(client, { ...policy, concurrency: 1, timeout: Duration.seconds(120), budget: Duration.seconds(60) })
      const start = yield* Clock.currentTimeMillis
      const first = yield* Effect.fork(wrapped.ask(question))
      const second = yield* Effect.fork(Effect.either(wrapped.ask(question)).pipe(Effect.zip(Clock.currentTimeMillis)))
      yield* TestClock.adjust("2 minutes")
      expect(yield* Fiber.join(first)).toEqual(answer)
      const [outcome, endedAt] = yield* Fiber.join(second)
      expect(outcome._tag).toBe("Left")
      expect(endedAt - start).toBeLessThanOrEqual(60_000)
    }).pipe(Effect.provide(quiet)))
})

describe("the time budget", () => {
  /** Any settings: the longest attempts, most retries and longest delays included. */
  const policyArb: fc.Arbitrary<ResiliencePolicy> = fc.record({
    timeout: fc.integer({ min: 1, max: 600 }).map(Duration.seconds),
    maxAttempts: fc.integer({ min: 1, max: 20 }),
    concurrency: fc.integer({ min: 1, max: 3 }),
    requestsPerMinute: fc.integer({ min: 1, max: 120 }),
    backoffBase: fc.integer({ min: 100, max: 120_000 }).map(Duration.millis),
    backoffMax: fc.integer({ min: 100, max: 600_000 }).map(Duration.millis),
    maxRetryAfter: fc.integer({ min: 1, max: 3_600 }).map(Duration.seconds),
    // Half of any lease the worker accepts (COLLECTOR_LEASE_SECONDS is at least 10).
    budget: fc.integer({ min: 5, max: 1_800 }).map(Duration.seconds)
  })

  /** What one call of the platform does: hang, answer or fail after a while (with a retry delay or not). */
  type Step =
    | { readonly kind: "hang" }
    | { readonly kind: "answer"; readonly afterMs: number }
    | { readonly kind: "fail"; readonly afterMs: number; readonly failure: FailureKind; readonly retryAfterMs: number | undefined }
  const stepArb: fc.Arbitrary<Step> = fc.oneof(
    fc.constant({ kind: "hang" as const }),
    fc.record({ kind: fc.constant("answer" as const), afterMs: fc.integer({ min: 0, max: 900_000 }) }),
    fc.record({
      kind: fc.constant("fail" as const),
      afterMs: fc.integer({ min: 0, max: 300_000 }),
      failure: fc.constantFrom<FailureKind>("rate_limited", "unavailable", "timeout", "quota_exceeded", "rejected"),
      retryAfterMs: fc.option(fc.integer({ min: 0, max: 7_200_000 }), { nil: undefined })
    })
  )

  it("no configuration lets an ask outlive its budget (half the lease), whatever the platform does", async () => {
    await fc.assert(
      fc.asyncProperty(policyArb, fc.array(stepArb, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 4 }), async (settings, steps, asks) => {
        const program = Effect.gen(function*() {
          const { client } = scripted((n) => {
            const step = steps[(n - 1) % steps.length]!
            switch (step.kind) {
              case "hang":
                return Effect.never
              case "answer":
                return Effect.as(Effect.sleep(Duration.millis(step.afterMs)), answer)
              case "fail":
                return Effect.zipRight(Effect.sleep(Duration.millis(step.afterMs)), Effect.fail(failing(step.failure, "no", step.retryAfterMs === undefined ? undefined : Duration.millis(step.retryAfterMs))))
            }
          })
          const wrapped = yield* resilient(client, settings)
          // Several asks at once: the ones waiting for a permit or a rate token are within their budget too.
          const fibers = yield* Effect.forEach(Array.from({ length: asks }), () =>
            Effect.fork(Effect.either(wrapped.ask(question)).pipe(Effect.zipRight(Clock.currentTimeMillis))))
          const all = yield* Effect.fork(Effect.forEach(fibers, Fiber.join))
          // Past the budget, every ask must have ended (the clock runs every wake-up on the way).
          yield* TestClock.adjust(Duration.sum(settings.budget, Duration.seconds(1)))
          const done = yield* Fiber.poll(all)
          if (done._tag === "None") return "still running past the budget"
          return yield* done.value
        }).pipe(Effect.scoped, Effect.provide(quiet), Effect.provide(TestContext.TestContext))
        const ended = await Effect.runPromise(program)
        expect(ended).not.toBe("still running past the budget")
        for (const at of ended) expect(at).toBeLessThanOrEqual(Duration.toMillis(settings.budget))
      }),
      { numRuns: 40 }
    )
  }, 120_000)

  it("MIN_ATTEMPT is the documented 15 seconds", () => {
    expect(Duration.toMillis(MIN_ATTEMPT)).toBe(15_000)
  })
})
