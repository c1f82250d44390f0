import { describe, expect, it } from "@effect/vitest"
import {
  afterAttempt,
  backoffSeconds,
  DISABLE_AFTER_FAILURES,
  type EndpointHealth,
  healthy,
  MAX_ATTEMPTS,
  MAX_DELAY_SECONDS,
  nextStep,
  type NextStep,
  parseRetryAfter,
  resultOfError,
  resultOfStatus
} from "../../../src/Integrations/DeliverySchedule.ts"

const t0 = new Date("2026-11-23T10:00:00.000Z")
const delayOf = (step: NextStep): number | null => (step.kind === "retry" ? step.delaySeconds : null)
const seconds = (s: number) => new Date(t0.getTime() + s * 1000)

/** The times of every attempt of a delivery that always fails, with a fixed random number. */
const attemptTimes = (random: number): Array<number> => {
  const times = [0]
  let now = t0
  for (let attempts = 1; ; attempts++) {
    const step = nextStep(attempts, now, random)
    if (step.kind === "give_up") return times
    now = step.at
    times.push((now.getTime() - t0.getTime()) / 1000)
  }
}

describe("the retry schedule", () => {
  it("backs off by 3 from 30 s, capped at 6 h", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(backoffSeconds)).toEqual([30, 90, 270, 810, 2430, 7290, 21600, 21600, 21600])
  })

  it("makes at least 8 attempts over about a day, then gives up", () => {
    const times = attemptTimes(0.5)
    expect(times).toHaveLength(MAX_ATTEMPTS)
    expect(times.length).toBeGreaterThanOrEqual(8)
    const spanHours = times.at(-1)! / 3600
    expect(spanHours).toBeGreaterThan(18)
    expect(spanHours).toBeLessThan(30)
    expect(nextStep(MAX_ATTEMPTS, t0, 0.5)).toEqual({ kind: "give_up" })
  })

  it("spreads retries by ±10% with the random number, never beyond", () => {
    expect(delayOf(nextStep(1, t0, 0))).toBe(27)
    expect(delayOf(nextStep(1, t0, 0.5))).toBe(30)
    expect(delayOf(nextStep(1, t0, 0.999999))).toBe(33)
    expect(delayOf(nextStep(8, t0, 0.999999))).toBe(Math.round(MAX_DELAY_SECONDS * 1.1))
    const early = attemptTimes(0)
    const late = attemptTimes(0.999999)
    early.forEach((time, i) => expect(time).toBeLessThanOrEqual(late[i]!))
  })

  it("waits as long as Retry-After asks when that is later, never sooner, at most 6 h", () => {
    expect(nextStep(1, t0, 0.5, 120)).toEqual({ kind: "retry", at: seconds(120), delaySeconds: 120 })
    expect(delayOf(nextStep(3, t0, 0.5, 5))).toBe(270)
    expect(delayOf(nextStep(1, t0, 0.5, 7 * 24 * 3600))).toBe(MAX_DELAY_SECONDS)
    expect(nextStep(MAX_ATTEMPTS, t0, 0.5, 60)).toEqual({ kind: "give_up" })
  })
})

describe("Retry-After", () => {
  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("120", t0)).toBe(120)
    expect(parseRetryAfter(" 0 ", t0)).toBe(0)
    expect(parseRetryAfter("Mon, 23 Nov 2026 10:05:00 GMT", t0)).toBe(300)
    expect(parseRetryAfter("Mon, 23 Nov 2026 09:00:00 GMT", t0)).toBe(0)
  })

  it("ignores what it cannot read", () => {
    for (const junk of [null, undefined, "", "soon", "-5", "1.5", "2026-11-23", "1e3"]) expect(parseRetryAfter(junk, t0), String(junk)).toBeNull()
  })
})

describe("attempt results", () => {
  it("counts 2xx as delivered and everything else as failed, redirects included", () => {
    expect(resultOfStatus(200)).toEqual({ ok: true, status: 200 })
    expect(resultOfStatus(204).ok).toBe(true)
    expect(resultOfStatus(301)).toEqual({ ok: false, status: 301, error: "HTTP 301: redirects are not followed" })
    expect(resultOfStatus(410)).toEqual({ ok: false, status: 410, error: "HTTP 410" })
    expect(resultOfStatus(503).ok).toBe(false)
    expect(resultOfError("timeout")).toEqual({ ok: false, status: null, error: "no answer within 10 s" })
    expect(resultOfError("network", "ECONNREFUSED")).toEqual({ ok: false, status: null, error: "network error: ECONNREFUSED" })
  })
})

describe("disabling an endpoint", () => {
  const failure = resultOfStatus(500)

  /** Applies failed attempts at the given offsets (seconds); the final health and the first offset that disabled it. */
  const run = (offsets: ReadonlyArray<number>, start: EndpointHealth = healthy) => {
    let health = start
    let disabledAt: number | null = null
    for (const offset of offsets) {
      const next = afterAttempt(health, failure, seconds(offset))
      health = next.health
      if (next.disable && disabledAt === null) disabledAt = offset
    }
    return { health, disabledAt }
  }

  it("does not disable on a burst of failures within a day", () => {
    const burst = Array.from({ length: 100 }, (_, i) => i * 60)
    expect(run(burst).disabledAt).toBeNull()
    expect(run(burst).health.consecutiveFailures).toBe(100)
  })

  it("disables once 15 failures in a row span a day", () => {
    const hourly = Array.from({ length: 30 }, (_, i) => i * 3600)
    expect(run(hourly).disabledAt).toBe(24 * 3600)
    const daily = Array.from({ length: 20 }, (_, i) => i * 86400)
    expect(run(daily).disabledAt).toBe((DISABLE_AFTER_FAILURES - 1) * 86400)
  })

  it("starts the run again after a success", () => {
    const before = run(Array.from({ length: 14 }, (_, i) => i * 7200)).health
    const reset = afterAttempt(before, resultOfStatus(200), seconds(30 * 3600))
    expect(reset).toEqual({ health: healthy, disable: false })
    const after = afterAttempt(reset.health, failure, seconds(31 * 3600))
    expect(after.health).toEqual({ consecutiveFailures: 1, failingSince: seconds(31 * 3600) })
    expect(after.disable).toBe(false)
  })

  it("disables a receiver that is gone within about two days of its first failure", () => {
    // Deliveries of a daily event each retried on the schedule, until the endpoint is disabled.
    let health = healthy
    let disabledAfterHours: number | null = null
    for (let day = 0; day < 5 && disabledAfterHours === null; day++) {
      let now = seconds(day * 86400)
      for (let attempts = 1; disabledAfterHours === null; attempts++) {
        const next = afterAttempt(health, failure, now)
        health = next.health
        if (next.disable) disabledAfterHours = (now.getTime() - t0.getTime()) / 3_600_000
        const step = nextStep(attempts, now, 0.5)
        if (step.kind === "give_up") break
        now = step.at
      }
    }
    expect(disabledAfterHours).not.toBeNull()
    expect(disabledAfterHours!).toBeGreaterThanOrEqual(24)
    expect(disabledAfterHours!).toBeLessThanOrEqual(48)
  })
})
