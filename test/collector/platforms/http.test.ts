import { describe, expect, it } from "@effect/vitest"
import { Duration, Option, Redacted } from "effect"
import { answerOf, endpoint, isQuotaError, kindOfStatus, parseRetryAfter, retryAfterOf, scrub } from "../../../src/Collector/Platforms/Http.ts"

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
    [402, "quota_exceeded"],
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

describe("retryAfterOf", () => {
  const now = Date.parse("2026-11-21T12:00:00Z")
  it("reads retry-after-ms first (the OpenAI and Anthropic SDKs do), then Retry-After", () => {
    const millis = (headers: Record<string, string>) => Option.map(retryAfterOf(headers, now), Duration.toMillis)
    expect(millis({ "retry-after-ms": "1500", "retry-after": "9" })).toEqual(Option.some(1_500))
    expect(millis({ "retry-after-ms": "soon", "retry-after": "9" })).toEqual(Option.some(9_000))
    expect(millis({})).toEqual(Option.none())
  })
})

describe("isQuotaError", () => {
  it.each([
    [{ error: { type: "insufficient_quota", code: "insufficient_quota", message: "You exceeded your current quota" } }, true],
    [{ error: { type: "requests", code: "project_spend_limit_exceeded", message: "" } }, true],
    [{ type: "error", error: { type: "rate_limit_error", message: "cap", details: { error_code: "enforced_spend_limit_reached" } } }, true],
    [{ error: "Your account has run out of searches." }, true],
    [{ code: "x", error: "Your team has either used all available credits or reached its monthly spending limit." }, true],
    [{ error: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit" } }, false],
    [{ error: "Your account has exceeded the hourly searches limit." }, false],
    // Gemini says "exceeded your current quota" of a per-minute limit too: its adapter reads the details.
    [{ error: { code: 429, message: "You exceeded your current quota, please check your plan and billing details." } }, false]
  ])("%j is a quota error: %s", (json, expected) => {
    const detail = typeof (json as any).error === "string" ? (json as any).error : (json as any).error?.message
    expect(isQuotaError(json, detail)).toBe(expected)
  })
})

describe("answerOf", () => {
  it("an answer without text is empty; the cited URLs, repeats and anything not http(s) leave the retrieved ones; lists are bounded", () => {
    const answer = answerOf({
      text: "  ",
      citations: ["https://a.example/", "https://a.example/"],
      searchQueries: [" q ", "q", "", ...Array.from({ length: 60 }, (_, i) => `query ${i}`)],
      retrieved: ["https://a.example/", "https://b.example/", "javascript:alert(1)", "https://b.example/", `https://c.example/${"x".repeat(3000)}`]
    })
    expect(answer).toMatchObject({ state: "empty", citations: ["https://a.example/"], retrieved: ["https://b.example/"] })
    expect(answer.searchQueries).toHaveLength(50)
    expect(answer.searchQueries[0]).toBe("q")
    expect(answerOf({ text: "", citations: [], state: "refused" }).state).toBe("refused")
    expect(answerOf({ text: "Yes.", citations: [], model: " " }).model).toBeNull()
  })
})
