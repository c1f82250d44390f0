import { describe, expect, it } from "@effect/vitest"
import { FetchHttpClient } from "@effect/platform"
import { Duration, Effect, Layer, Logger, Redacted } from "effect"
import { makeSerp } from "../../../src/Collector/Platforms/Serp.ts"
import { classifyGeminiError } from "../../../src/Collector/Platforms/Gemini.ts"
import { HUBSPOT, KEY, PIPEDRIVE, providerOf, question, ZOHO } from "./providers.ts"
import { againstFake, HttpClientLive } from "./support.ts"

/** The details of each wire format beyond the common cases of adapters.test.ts. */

const ask = (platform: Parameters<typeof providerOf>[0]) => ({ ...question, platform })

describe("perplexity", () => {
  const perplexity = providerOf("perplexity")

  it.scopedLive("url_citation annotations are cited, with the results the text marks; no top-level citations are read", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(perplexity, [{
        status: 200,
        json: {
          status: "completed",
          model: "perplexity/sonar",
          // Sonar's old top-level list, which the Agent API no longer sends: ignored.
          citations: ["https://old.example/"],
          output: [
            { type: "search_results", queries: ["crm"], results: [{ id: 1, url: HUBSPOT }, { id: 2, url: PIPEDRIVE }, { id: 3, url: ZOHO }] },
            {
              type: "message",
              content: [{
                type: "output_text",
                text: "Zoho is cheap[3], see also [2, 1].",
                annotations: [{ type: "url_citation", url: ZOHO, start_index: 0, end_index: 14, title: "Zoho" }]
              }]
            }
          ]
        }
      }])
      const answer = yield* client.ask(ask("perplexity"))
      expect(answer.citations).toEqual([ZOHO, PIPEDRIVE, HUBSPOT])
      expect(answer.retrieved).toEqual([])
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a run that failed in a 200 is a failure that may pass, never an answer", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(perplexity, [{
        status: 200,
        json: { id: "resp_1", status: "failed", model: "perplexity/sonar", output: [], error: { message: "upstream model error", type: "internal_error" } }
      }], { maxAttempts: 2 })
      const failure = yield* Effect.flip(client.ask(ask("perplexity")))
      expect(failure).toMatchObject({ kind: "unavailable", message: "perplexity: the run failed: upstream model error" })
      expect(server.requests).toHaveLength(2)
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("gemini", () => {
  const gemini = providerOf("gemini")

  it.scopedLive("leaves thought parts out of the answer", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(gemini, [{
        status: 200,
        json: { candidates: [{ content: { role: "model", parts: [{ text: "Let me think.", thought: true }, { text: "HubSpot." }] }, finishReason: "STOP" }] }
      }])
      const answer = yield* client.ask(ask("gemini"))
      expect(answer.text).toBe("HubSpot.")
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("an answer stopped by a safety filter before any text is a refusal; with text, an answer cut by the filter", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(gemini, [
        { status: 200, json: { candidates: [{ finishReason: "SAFETY" }] } },
        { status: 200, json: { candidates: [{ content: { parts: [{ text: "HubSpot is" }] }, finishReason: "RECITATION" }] } }
      ])
      expect(yield* client.ask(ask("gemini"))).toMatchObject({ text: "", state: "refused", finishReason: "content_filter" })
      expect(yield* client.ask(ask("gemini"))).toMatchObject({ text: "HubSpot is", state: "answered", finishReason: "content_filter" })
    }).pipe(Effect.provide(HttpClientLive)))

  it("reads a 429's delay from RetryInfo, and a daily quota or a limit of 0 as quota_exceeded", () => {
    const body = (quotaId: string, quotaValue: string, retryDelay: string) => ({
      error: {
        code: 429,
        status: "RESOURCE_EXHAUSTED",
        message: "You exceeded your current quota",
        details: [
          { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaId, quotaValue }] },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay }
        ]
      }
    })
    const classify = (json: unknown) => classifyGeminiError({ status: 429, json, headers: {} })
    const perMinute = classify(body("GenerateRequestsPerMinutePerProjectPerModel", "1000", "46s"))
    expect(perMinute.kind).toBeUndefined()
    expect(Duration.toMillis(perMinute.retryAfter!)).toBe(46_000)
    expect(classify(body("GenerateRequestsPerDayPerProjectPerModel-FreeTier", "20", "3600s")).kind).toBe("quota_exceeded")
    expect(classify(body("GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "0", "600s")).kind).toBe("quota_exceeded")
    expect(Duration.toMillis(classify(body("X", "5", "0.5s")).retryAfter!)).toBe(500)
    expect(classify({ error: { code: 429, message: "busy" } })).toEqual({ kind: undefined, retryAfter: undefined })
  })
})

describe("claude", () => {
  const claude = providerOf("claude")
  const searchError = (errorCode: string) => ({
    type: "web_search_tool_result",
    tool_use_id: "srvtoolu_1",
    content: { type: "web_search_tool_result_error", error_code: errorCode }
  })
  const turn = (content: ReadonlyArray<unknown>, stop_reason = "end_turn") => ({ status: 200, json: { content, stop_reason, model: "m" } })
  const searchCall = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "crm" } }

  it.scopedLive("a search that failed in a 200 fails the attempt (tried again): unavailable, or rate_limited for too_many_requests", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(claude, [
        turn([searchCall, searchError("unavailable"), { type: "text", text: "From memory: HubSpot." }]),
        turn([searchCall, searchError("too_many_requests"), { type: "text", text: "HubSpot." }])
      ], { maxAttempts: 2 })
      const failure = yield* Effect.flip(client.ask(ask("claude")))
      expect(failure).toMatchObject({ kind: "rate_limited", message: "claude: a web search failed (too_many_requests)" })
      expect(server.requests).toHaveLength(2)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("max_uses_exceeded only ends the searching: the answer is kept", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(claude, [turn([searchCall, searchError("max_uses_exceeded"), { type: "text", text: "HubSpot." }])])
      expect(yield* client.ask(ask("claude"))).toMatchObject({ text: "HubSpot.", state: "answered", searchQueries: ["crm"] })
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("continues a paused turn by sending it back, and answers from the whole turn", () =>
    Effect.gen(function*() {
      const paused = [
        { type: "text", text: "Let me look for HubSpot alternatives." },
        searchCall,
        {
          type: "web_search_tool_result",
          tool_use_id: "srvtoolu_1",
          content: [{ type: "web_search_result", url: ZOHO, title: "Zoho", encrypted_content: "e1" }]
        }
      ]
      const rest = [{ type: "text", text: "Zoho CRM is the cheapest.", citations: [{ type: "web_search_result_location", url: ZOHO, cited_text: "Zoho" }] }]
      const { client, server } = yield* againstFake(claude, [
        { status: 200, json: { content: paused, stop_reason: "pause_turn", usage: { input_tokens: 10, output_tokens: 5 } } },
        { status: 200, json: { content: rest, stop_reason: "end_turn", model: "m", usage: { input_tokens: 20, output_tokens: 7 } } }
      ])
      const answer = yield* client.ask(ask("claude"))
      expect(answer).toMatchObject({
        text: "Let me look for HubSpot alternatives.\n\nZoho CRM is the cheapest.",
        citations: [ZOHO],
        retrieved: [],
        finishReason: "complete",
        // Each request of the turn is billed.
        usage: { inputTokens: 30, outputTokens: 12, costUsd: null }
      })
      expect(server.requests).toHaveLength(2)
      expect(server.requests[1]!.body.messages).toEqual([
        { role: "user", content: question.prompt },
        { role: "assistant", content: paused }
      ])
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("stops continuing a turn that keeps pausing", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(claude, [turn([{ type: "text", text: "Still thinking. " }], "pause_turn")])
      const answer = yield* client.ask(ask("claude"))
      expect(server.requests).toHaveLength(4)
      expect(answer).toMatchObject({ text: "Still thinking. ".repeat(4), finishReason: "other" })
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a 429 the provider says not to retry (x-should-retry: false) is not tried again", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(claude, [{
        status: 429,
        headers: { "x-should-retry": "false" },
        json: { type: "error", error: { type: "rate_limit_error", message: "Organization usage limit reached." } }
      }])
      expect((yield* Effect.flip(client.ask(ask("claude")))).kind).toBe("quota_exceeded")
      expect(server.requests).toHaveLength(1)
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("chatgpt", () => {
  const chatgpt = providerOf("chatgpt")

  it.scopedLive("reads a Retry-After given as an HTTP date", () =>
    Effect.gen(function*() {
      const inFive = new Date(Date.now() + 5_000).toUTCString()
      const { client, waits } = yield* againstFake(chatgpt, [
        { status: 429, headers: { "retry-after": inFive }, json: { error: { message: "Rate limit reached" } } },
        { status: 200, json: chatgpt.grounded.body({ baseUrl: "" }) }
      ])
      yield* client.ask(question)
      // The date has second precision: at least four of the five seconds remain.
      expect(Duration.toMillis(waits[0]!)).toBeGreaterThanOrEqual(3_900)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a response that failed in a 200 is a failure, not an empty answer", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(chatgpt, [{
        status: 200,
        json: { status: "failed", output: [], error: { code: "server_error", message: "The model failed to respond." } }
      }], { maxAttempts: 1 })
      expect(yield* Effect.flip(client.ask(question))).toMatchObject({
        kind: "unavailable",
        message: "chatgpt: the response failed: The model failed to respond."
      })
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("grok", () => {
  it.scopedLive("without url_citation annotations, the inline links of the text are the cited sources; the other citations were retrieved", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(providerOf("grok"), [{
        status: 200,
        json: {
          status: "completed",
          output: [{ type: "message", content: [{ type: "output_text", text: `Zoho is cheap [[1]](${ZOHO}).`, annotations: [] }] }],
          citations: [HUBSPOT, ZOHO]
        }
      }])
      const answer = yield* client.ask(ask("grok"))
      expect(answer.citations).toEqual([ZOHO])
      expect(answer.retrieved).toEqual([HUBSPOT])
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("google_ai_overview", () => {
  const overview = providerOf("google_ai_overview")

  it.scopedLive("fetches a lazily loaded overview with its page token", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(overview, [
        { status: 200, json: { search_metadata: { status: "Success" }, ai_overview: { page_token: "tok-1" } } },
        { status: 200, json: overview.grounded.body({ baseUrl: "" }) }
      ])
      const answer = yield* client.ask(ask("google_ai_overview"))
      expect(answer).toEqual(overview.grounded.answer)
      expect(server.requests).toHaveLength(2)
      const second = new URL(server.requests[1]!.url, "http://fake")
      expect(Object.fromEntries(second.searchParams)).toEqual({ engine: "google_ai_overview", page_token: "tok-1", api_key: KEY })
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a results page without an AI overview is stored as no_answer, an observation, not a failure", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(overview, [
        { status: 200, json: { search_metadata: { status: "Success" }, organic_results: [{ position: 1, link: "https://example.com" }] } },
        { status: 200, json: { search_metadata: { status: "Success" }, ai_overview: { error: "Google hasn't returned an AI Overview." } } }
      ])
      for (const _ of [1, 2]) {
        expect(yield* client.ask(ask("google_ai_overview"))).toMatchObject({ text: "", citations: [], state: "no_answer" })
      }
      expect(server.requests).toHaveLength(2)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("sends the country and its language as Google spells them (the United Kingdom is uk)", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(overview, [{ status: 200, json: overview.grounded.body({ baseUrl: "" }) }])
      for (const country of ["GB", "DE", "BR", "IN"]) yield* client.ask({ ...ask("google_ai_overview"), country })
      expect(server.requests.map((request) => {
        const params = new URL(request.url, "http://fake").searchParams
        return [params.get("gl"), params.get("hl")]
      })).toEqual([["uk", "en"], ["de", "de"], ["br", "pt-BR"], ["in", "en"]])
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("copilot", () => {
  it.scopedLive("an error reported with a 200 becomes the failure's message, without the key", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(providerOf("copilot"), [{
        status: 200,
        json: { search_metadata: { status: "Error" }, error: `Bing Copilot hasn't returned any results (${KEY}).` }
      }])
      const failure = yield* Effect.flip(client.ask(ask("copilot")))
      expect(failure.kind).toBe("malformed")
      expect(failure.message).toBe("copilot: Bing Copilot hasn't returned any results ([redacted]).")
    }).pipe(Effect.provide(HttpClientLive)))

  it.effect("a network error is unavailable, and its message does not carry the URL with the key", () =>
    Effect.gen(function*() {
      // Nothing listens on port 1: the connection is refused.
      const client = yield* makeSerp("copilot", { apiKey: Redacted.make(KEY), baseUrl: "http://127.0.0.1:1" })
      const failure = yield* Effect.flip(client.ask(ask("copilot")))
      expect(failure.kind).toBe("unavailable")
      expect(failure.message).toBe("copilot: network error, no response")
      expect(JSON.stringify(failure)).not.toContain(KEY)
    }).pipe(Effect.provide(HttpClientLive)))
})

describe("logs", () => {
  const capturing = () => {
    const lines: Array<string> = []
    const logger = Logger.replace(Logger.defaultLogger, Logger.map(Logger.logfmtLogger, (line) => void lines.push(line)))
    return { lines, layer: Layer.merge(FetchHttpClient.layer, logger) }
  }

  it.scopedLive("the warning of a retry does not carry the key, even when the provider echoed it", () => {
    const { layer, lines } = capturing()
    return Effect.gen(function*() {
      const chatgpt = providerOf("chatgpt")
      const { client } = yield* againstFake(chatgpt, [
        { status: 429, headers: { "retry-after": "1" }, json: { error: { message: `Rate limit reached for key ${KEY}.` } } },
        { status: 200, json: chatgpt.grounded.body({ baseUrl: "" }) }
      ])
      yield* client.ask(question)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain("trying again")
      expect(lines[0]).toContain("[redacted]")
      expect(lines[0]).not.toContain(KEY)
    }).pipe(Effect.provide(layer))
  })

  it.scopedLive("a provider's deprecation notice (Deprecation or Sunset header) is a warning, once per process", () => {
    const { layer, lines } = capturing()
    return Effect.gen(function*() {
      const claude = providerOf("claude")
      const { client } = yield* againstFake(claude, [{
        status: 200,
        headers: { deprecation: "@1793491200", sunset: "Wed, 31 Dec 2026 23:59:59 GMT" },
        json: claude.grounded.body({ baseUrl: "" })
      }])
      yield* client.ask(ask("claude"))
      yield* client.ask(ask("claude"))
      const warnings = lines.filter((line) => line.includes("deprecated or retired"))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain("platform=claude")
      expect(warnings[0]).toContain("model=test-model")
      expect(warnings[0]).toContain("sunset: Wed, 31 Dec 2026")
    }).pipe(Effect.provide(layer))
  })

  it.scopedLive("an error saying the model is retired is a warning too, and the job fails as rejected", () => {
    const { layer, lines } = capturing()
    return Effect.gen(function*() {
      const { client } = yield* againstFake(providerOf("chatgpt"), [{
        status: 404,
        json: { error: { message: "The model `gpt-5-mini` has been deprecated and is no longer available.", type: "invalid_request_error", code: "model_not_found" } }
      }])
      expect((yield* Effect.flip(client.ask(question))).kind).toBe("rejected")
      expect(lines.filter((line) => line.includes("deprecated or retired") && line.includes("gpt-5-mini"))).toHaveLength(1)
    }).pipe(Effect.provide(layer))
  })
})
