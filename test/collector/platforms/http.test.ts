import { describe, expect, it } from "@effect/vitest"
import { Duration, Option, Redacted } from "effect"
import { endpoint, kindOfStatus, parseRetryAfter, scrub } from "../../../src/Collector/Platforms/Http.ts"

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-21T12:00:00Z")
  const millis = (value: string | undefined) => Option.map(parseRetryAfter(value, now), Duration.toMillis)

  it("reads delay-seconds", () => {
    expect(millis("7")).toEqual(Option.some(7_000))
    expect(millis(" 120 ")).toEqual(Option.some(120_000))
    expect(millis("0")).toEqual(Option.some(0))
  })

  it("reads an HTTP date as the time left until it", () => {
    expect(millis("Sat, 21 Nov 2026 12:00:30 GMT")).toEqual(Option.some(30_000))
  })

  it("takes a date in the past as no wait", () => {
    expect(millis("Sat, 21 Nov 2026 11:00:00 GMT")).toEqual(Option.some(0))
  })

  it("ignores what it cannot read", () => {
    expect(millis(undefined)).toEqual(Option.none())
    expect(millis("soon")).toEqual(Option.none())
    expect(millis("-5")).toEqual(Option.none())
    expect(millis("1.5")).toEqual(Option.none())
  })
})

describe("kindOfStatus", () => {
  it.each([
    [429, "rate_limited"],
    [408, "timeout"],
    [500, "unavailable"],
    [502, "unavailable"],
    [503, "unavailable"],
    [529, "unavailable"],
    [400, "rejected"],
    [401, "rejected"],
    [403, "rejected"],
    [404, "rejected"]
  ] as const)("%i is %s", (status, kind) => {
    expect(kindOfStatus(status)).toBe(kind)
  })
})

describe("scrub", () => {
  it("replaces every occurrence of every secret", () => {
    const secrets = [Redacted.make("sk-abc123"), Redacted.make("serp-999")]
    expect(scrub("key sk-abc123 and sk-abc123, also serp-999", secrets)).toBe(
      "key [redacted] and [redacted], also [redacted]"
    )
  })

  it("leaves very short secrets alone rather than mangle the message", () => {
    expect(scrub("a b c", [Redacted.make("a")])).toBe("a b c")
  })
})

describe("endpoint", () => {
  it("appends the path to the origin, with or without a trailing slash", () => {
    expect(endpoint("https://api.openai.com", "/v1/responses")).toBe("https://api.openai.com/v1/responses")
    expect(endpoint("https://api.openai.com/", "/v1/responses")).toBe("https://api.openai.com/v1/responses")
  })

  it("takes a base given the SDK way, with /v1, as its origin", () => {
    expect(endpoint("https://api.openai.com/v1", "/v1/responses")).toBe("https://api.openai.com/v1/responses")
    expect(endpoint("https://api.x.ai/v1/", "/v1/chat/completions")).toBe("https://api.x.ai/v1/chat/completions")
  })

  it("keeps a base path otherwise", () => {
    expect(endpoint("https://proxy.example/perplexity", "/chat/completions")).toBe(
      "https://proxy.example/perplexity/chat/completions"
    )
  })
})
