import { describe, expect, it } from "@effect/vitest"
import { FetchHttpClient } from "@effect/platform"
import { Duration, Effect, Layer, Logger, Redacted } from "effect"
import { makeSerp } from "../../../src/Collector/Platforms/Serp.ts"
import { KEY, providers, question } from "./providers.ts"
import { againstFake, HttpClientLive } from "./support.ts"

/** The details of each wire format beyond the common cases of adapters.test.ts. */

const provider = (platform: string) => providers.find((candidate) => candidate.platform === platform)!

describe("perplexity", () => {
  it.scopedLive("takes the search_results' URLs when the body has no citations list", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(provider("perplexity"), [{
        status: 200,
        json: {
          choices: [{ index: 0, message: { role: "assistant", content: "Zoho is cheap[1]." } }],
          search_results: [{ title: "Zoho", url: "https://www.zoho.com/crm/", date: null }]
        }
      }])
      const answer = yield* client.ask({ ...question, platform: "perplexity" })
      expect(answer.citations).toEqual(["https://www.zoho.com/crm/"])
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("gemini", () => {
  it.scopedLive("leaves thought parts out of the answer; no grounding means no citations", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(provider("gemini"), [{
        status: 200,
        json: {
          candidates: [{
            content: { role: "model", parts: [{ text: "Let me think.", thought: true }, { text: "HubSpot." }] },
            finishReason: "STOP"
          }]
        }
      }])
      const answer = yield* client.ask({ ...question, platform: "gemini" })
      expect(answer).toEqual({ text: "HubSpot.", citations: [], simulated: false })
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("an answer with no text (blocked, empty) is malformed", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(provider("gemini"), [{
        status: 200,
        json: { candidates: [{ finishReason: "SAFETY" }] }
      }])
      const failure = yield* Effect.flip(client.ask({ ...question, platform: "gemini" }))
      expect(failure).toMatchObject({ kind: "malformed", message: "gemini: response has no answer text" })
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("claude", () => {
  it.scopedLive("without a search, the answer is all its text", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(provider("claude"), [{
        status: 200,
        json: { content: [{ type: "text", text: "HubSpot, " }, { type: "text", text: "mostly." }], stop_reason: "end_turn" }
      }])
      const answer = yield* client.ask({ ...question, platform: "claude" })
      expect(answer).toEqual({ text: "HubSpot, mostly.", citations: [], simulated: false })
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("continues a paused turn by sending it back, and answers from the whole turn", () =>
    Effect.gen(function*() {
      const paused = [
        { type: "text", text: "Let me look for HubSpot alternatives." },
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "crm" } },
        {
          type: "web_search_tool_result",
          tool_use_id: "srvtoolu_1",
          content: [{ type: "web_search_result", url: "https://www.zoho.com/crm/", title: "Zoho", encrypted_content: "e1" }]
        }
      ]
      const rest = [{
        type: "text",
        text: "Zoho CRM is the cheapest.",
        citations: [{ type: "web_search_result_location", url: "https://www.zoho.com/crm/", cited_text: "Zoho" }]
      }]
      const { client, server } = yield* againstFake(provider("claude"), [
        { status: 200, json: { content: paused, stop_reason: "pause_turn" } },
        { status: 200, json: { content: rest, stop_reason: "end_turn" } }
      ])
      const answer = yield* client.ask({ ...question, platform: "claude" })
      expect(answer).toEqual({ text: "Zoho CRM is the cheapest.", citations: ["https://www.zoho.com/crm/"], simulated: false })
      expect(server.requests).toHaveLength(2)
      expect(server.requests[1]!.body.messages).toEqual([
        { role: "user", content: question.prompt },
        { role: "assistant", content: paused }
      ])
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("stops continuing a turn that keeps pausing", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(provider("claude"), [{
        status: 200,
        json: { content: [{ type: "text", text: "Still thinking. " }], stop_reason: "pause_turn" }
      }])
      const answer = yield* client.ask({ ...question, platform: "claude" })
      expect(server.requests).toHaveLength(4)
      expect(answer.text).toBe("Still thinking. ".repeat(4))
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("chatgpt", () => {
  it.scopedLive("reads a Retry-After given as an HTTP date", () =>
    Effect.gen(function*() {
      const chatgpt = provider("chatgpt")
      const inFive = new Date(Date.now() + 5_000).toUTCString()
      const { client, waits } = yield* againstFake(chatgpt, [
        { status: 429, headers: { "retry-after": inFive }, json: { error: { message: "Rate limit reached" } } },
        { status: 200, json: chatgpt.success }
      ])
      yield* client.ask(question)
      // The date has second precision: at least four of the five seconds remain.
      expect(Duration.toMillis(waits[0]!)).toBeGreaterThanOrEqual(3_900)
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("google_ai_overview", () => {
  it.scopedLive("fetches a lazily loaded overview with its page token", () =>
    Effect.gen(function*() {
      const overview = provider("google_ai_overview")
      const { client, server } = yield* againstFake(overview, [
        { status: 200, json: { search_metadata: { status: "Success" }, ai_overview: { page_token: "tok-1" } } },
        { status: 200, json: overview.success }
      ])
      const answer = yield* client.ask({ ...question, platform: "google_ai_overview" })
      expect(answer).toEqual({ text: overview.text, citations: overview.citations, simulated: false })
      expect(server.requests).toHaveLength(2)
      const second = new URL(server.requests[1]!.url, "http://fake")
      expect(Object.fromEntries(second.searchParams)).toEqual({
        engine: "google_ai_overview",
        page_token: "tok-1",
        api_key: KEY
      })
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("no overview for the query is a malformed answer that says so", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(provider("google_ai_overview"), [{
        status: 200,
        json: { search_metadata: { status: "Success" }, organic_results: [] }
      }])
      const failure = yield* Effect.flip(client.ask({ ...question, platform: "google_ai_overview" }))
      expect(failure).toMatchObject({
        kind: "malformed",
        message: "google_ai_overview: Google showed no AI overview for this query"
      })
      expect(server.requests).toHaveLength(1)
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("copilot", () => {
  it.scopedLive("an error reported with a 200 becomes the failure's message, without the key", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(provider("copilot"), [{
        status: 200,
        json: { search_metadata: { status: "Error" }, error: `Bing Copilot hasn't returned any results (${KEY}).` }
      }])
      const failure = yield* Effect.flip(client.ask({ ...question, platform: "copilot" }))
      expect(failure.kind).toBe("malformed")
      expect(failure.message).toBe("copilot: Bing Copilot hasn't returned any results ([redacted]).")
    }).pipe(Effect.provide(HttpClientLive)))

  it.effect("a network error is unavailable, and its message does not carry the URL with the key", () =>
    Effect.gen(function*() {
      // Nothing listens on port 1: the connection is refused.
      const client = yield* makeSerp("copilot", { apiKey: Redacted.make(KEY), baseUrl: "http://127.0.0.1:1" })
      const failure = yield* Effect.flip(client.ask({ ...question, platform: "copilot" }))
      expect(failure.kind).toBe("unavailable")
      expect(failure.message).toBe("copilot: network error, no response")
      expect(JSON.stringify(failure)).not.toContain(KEY)
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("logs", () => {
  it.scopedLive("the warning of a retry does not carry the key, even when the provider echoed it", () => {
    const lines: Array<string> = []
    const capture = Logger.replace(Logger.defaultLogger, Logger.map(Logger.logfmtLogger, (line) => void lines.push(line)))
    return Effect.gen(function*() {
      const chatgpt = provider("chatgpt")
      const { client } = yield* againstFake(chatgpt, [
        { status: 429, headers: { "retry-after": "1" }, json: chatgpt.errorBody },
        { status: 200, json: chatgpt.success }
      ])
      yield* client.ask(question)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain("trying again")
      expect(lines[0]).toContain("[redacted]")
      expect(lines[0]).not.toContain(KEY)
    }).pipe(Effect.provide(Layer.merge(FetchHttpClient.layer, capture)))
  })
})
