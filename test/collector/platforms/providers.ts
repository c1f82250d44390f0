import type { HttpClient } from "@effect/platform"
import { expect } from "@effect/vitest"
import { type Effect, Redacted } from "effect"
import type { Platform } from "../../../src/Domain/Platform.ts"
import type { Answer, FailureKind, PlatformClient, Question } from "../../../src/Collector/Platform.ts"
import { makeAnthropic } from "../../../src/Collector/Platforms/Anthropic.ts"
import { makeGemini } from "../../../src/Collector/Platforms/Gemini.ts"
import { makeOpenAi } from "../../../src/Collector/Platforms/OpenAi.ts"
import { makePerplexity } from "../../../src/Collector/Platforms/Perplexity.ts"
import { makeSerp } from "../../../src/Collector/Platforms/Serp.ts"
import { makeXai } from "../../../src/Collector/Platforms/Xai.ts"
import type { RecordedRequest, Reply, Route } from "./FakeServer.ts"

/**
 * Each provider's wire format as its documentation and its official SDK's types show it, one fixture per
 * case every adapter is tested on (adapters.test.ts): a grounded answer, one without sources, a refusal
 * and an answer cut short (where the provider has them), a 429 with its retry signal, a quota error, a
 * 5xx, a body in the wrong shape, and a 401 whose error echoes the key (as some providers partly do, to
 * prove the key never reaches a failure message). The comment above each shape names its source; the
 * answer we expect from it is written out whole.
 *
 * Sources (read 2026-11-21):
 * - OpenAI: openai-node `src/resources/responses/responses.ts` (Response, ResponseOutputMessage with
 *   `phase`, ResponseOutputRefusal, ResponseFunctionWebSearch with `action.sources`, ResponseUsage,
 *   Response.IncompleteDetails); error bodies: help.openai.com "Troubleshooting API rate limits and 429
 *   errors" (`insufficient_quota`, `retry-after-ms` read by openai-node `src/client.ts`).
 * - Perplexity: perplexityai/api-platform-developers `skills/migrate-sonar-to-agent-api/references/
 *   response-and-streaming.md` (search_results item, annotations, 200 with status failed, error envelope)
 *   and perplexity-node `src/generated/api.ts` (ResponsesResponse, SearchResultsOutputItem,
 *   ResponsesUsage.cost); docs.perplexity.ai cookbook "streaming citations" ([n] markers → result id).
 * - Gemini: js-genai `src/types.ts` (GenerateContentResponse, Candidate, FinishReason, GroundingMetadata,
 *   GroundingSupport, GroundingChunkWeb, usage metadata, promptFeedback.blockReason); the redirect links:
 *   googleapis/python-genai#1512; 429 bodies: ai.google.dev rate limits (google.rpc.RetryInfo and
 *   QuotaFailure in `error.details`).
 * - Claude: anthropic-sdk-typescript `src/resources/messages/messages.ts` (Message, TextBlock with
 *   CitationsWebSearchResultLocation, ServerToolUseBlock, WebSearchToolResultBlock and
 *   WebSearchToolResultError, StopReason `refusal`, Usage) and `src/resources/shared.ts` (ErrorResponse);
 *   the spend cap: platform.claude.com errors (429 `rate_limit_error`, `details.error_code`
 *   `enforced_spend_limit_reached`).
 * - xAI: xai-sdk-ts `src/types.ts` (OutputMessage, WebSearchCall, UrlCitation, IncompleteDetails) and
 *   `src/errors.ts` (error body `{code, error}`); docs.x.ai/developers/tools/citations (top-level
 *   `citations`: all sources encountered; inline `[[1]](url)` citations); `usage.cost_in_usd_ticks`.
 * - SerpApi: serpapi.com/google-ai-mode-api, /ai-overview, /google-ai-overview-api, /bing-copilot-api
 *   (text_blocks, references, page_token) and /api-status-and-error-codes (429: throughput or out of
 *   searches, `{"error": ...}` bodies).
 */

export const KEY = "sk-test-0123456789abcdef"
export const MODEL = "test-model"

export const question: Question = {
  platform: "chatgpt",
  prompt: "What is the best CRM for a small agency?",
  promptId: 7,
  country: "US",
  day: "2026-11-21",
  brands: []
}

export const HUBSPOT = "https://www.hubspot.com/crm"
export const PIPEDRIVE = "https://www.pipedrive.com/en/blog/crm-for-agencies"
export const ZOHO = "https://www.zoho.com/crm/"

/** What a fixture is built with: the fake's origin (Gemini's redirect links point at it). */
export interface FixtureContext {
  readonly baseUrl: string
}

/** A 2xx body and the answer expected of it, whole. */
export interface AnswerCase {
  readonly body: (context: FixtureContext) => unknown
  readonly answer: Answer
}

/** An error reply and what the adapter must make of it. */
export interface ErrorCase {
  readonly reply: Reply
  readonly kind: FailureKind
  /** The least wait before the next attempt, when the reply carries a retry signal. */
  readonly waitAtLeastMs?: number | undefined
}

export interface ProviderCase {
  readonly platform: Platform
  readonly make: (baseUrl: string) => Effect.Effect<PlatformClient, never, HttpClient.HttpClient>
  /** Requests a fake answers by their own path (Gemini's redirect links), whatever the script. */
  readonly route?: Route | undefined
  readonly grounded: AnswerCase
  readonly noSources: AnswerCase
  /** Absent where the provider has no refusal (Perplexity, the SERP pages). */
  readonly refusal?: AnswerCase | undefined
  /** Absent where the provider reports no cut-off (the SERP pages). */
  readonly incomplete?: AnswerCase | undefined
  readonly rateLimited: ErrorCase
  readonly quota: ErrorCase
  readonly serverError: Reply
  /** A 2xx body in the wrong shape. */
  readonly wrongShape: unknown
  /** A 401 whose error text echoes the key. */
  readonly unauthorized: Reply
  /** Asserts the request carried the key, the model, and the country and language where the provider takes them. */
  readonly checkRequest: (request: RecordedRequest) => void
}

const provider = { apiKey: Redacted.make(KEY), model: MODEL }

/** An answer as the adapters build it, `answered` unless said otherwise. */
const expected = (fields: Partial<Answer> & Pick<Answer, "text" | "citations">): Answer => ({
  simulated: false,
  state: "answered",
  model: null,
  finishReason: null,
  usage: { inputTokens: null, outputTokens: null, costUsd: null },
  searchQueries: [],
  retrieved: [],
  ...fields
})

// ---------------------------------------------------------------------------------------------------
// OpenAI

/** openai-node `Response`: an `output` of items, `status`, `model` (the snapshot served), `usage`. */
const openAiResponse = (output: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) => ({
  id: "resp_67ccd2bed1ec8190b14f964abc054267",
  object: "response",
  created_at: 1763700000,
  status: "completed",
  model: "gpt-6.1-terra-2026-10-26",
  output,
  incomplete_details: null,
  error: null,
  usage: {
    input_tokens: 312,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: 148,
    output_tokens_details: { reasoning_tokens: 64 },
    total_tokens: 460
  },
  ...extra
})

/** `ResponseOutputMessage` with `output_text` parts (`ResponseOutputText`, `annotations`). */
const openAiMessage = (text: string, annotations: ReadonlyArray<unknown> = [], phase?: "commentary" | "final_answer") => ({
  type: "message",
  id: `msg_${phase ?? "final"}`,
  status: "completed",
  role: "assistant",
  ...(phase === undefined ? {} : { phase }),
  content: [{ type: "output_text", text, annotations, logprobs: [] }]
})

const openAiUsage = { inputTokens: 312, outputTokens: 148, costUsd: null }

const openAi: ProviderCase = {
  platform: "chatgpt",
  make: (baseUrl) => makeOpenAi({ ...provider, baseUrl }),
  grounded: {
    body: () =>
      openAiResponse([
        { type: "reasoning", id: "rs_1", summary: [] },
        // `ResponseFunctionWebSearch.Search`: `queries`, and `sources` when `include` asks for them.
        {
          type: "web_search_call",
          id: "ws_1",
          status: "completed",
          action: {
            type: "search",
            queries: ["best crm small agency"],
            sources: [{ type: "url", url: HUBSPOT }, { type: "url", url: ZOHO }, { type: "url", url: PIPEDRIVE }]
          }
        },
        // `ResponseFunctionWebSearch.OpenPage`: a page the model opened.
        { type: "web_search_call", id: "ws_2", status: "completed", action: { type: "open_page", url: "https://www.capterra.com/crm-software/" } },
        // `phase: "commentary"`: the model thinking aloud between tool calls, not its answer.
        openAiMessage("Let me compare HubSpot and Zoho first.", [], "commentary"),
        openAiMessage(
          "HubSpot is the usual first CRM ([hubspot.com](https://www.hubspot.com/crm)); Pipedrive is close.",
          [
            { type: "url_citation", start_index: 36, end_index: 80, url: HUBSPOT, title: "HubSpot" },
            { type: "url_citation", start_index: 82, end_index: 90, url: PIPEDRIVE, title: "Pipedrive" },
            { type: "url_citation", start_index: 91, end_index: 95, url: HUBSPOT, title: "HubSpot again" },
            { type: "file_citation", file_id: "file_1", filename: "notes.pdf", index: 3 }
          ],
          "final_answer"
        )
      ]),
    answer: expected({
      text: "HubSpot is the usual first CRM ([hubspot.com](https://www.hubspot.com/crm)); Pipedrive is close.",
      citations: [HUBSPOT, PIPEDRIVE],
      model: "gpt-6.1-terra-2026-10-26",
      finishReason: "complete",
      usage: openAiUsage,
      searchQueries: ["best crm small agency"],
      retrieved: [ZOHO, "https://www.capterra.com/crm-software/"]
    })
  },
  noSources: {
    body: () => openAiResponse([openAiMessage("HubSpot is a common first CRM.")]),
    answer: expected({ text: "HubSpot is a common first CRM.", citations: [], model: "gpt-6.1-terra-2026-10-26", finishReason: "complete", usage: openAiUsage })
  },
  refusal: {
    // `ResponseOutputRefusal`: `{type: "refusal", refusal}` in place of the text.
    body: () =>
      openAiResponse([{
        type: "message",
        id: "msg_1",
        status: "completed",
        role: "assistant",
        content: [{ type: "refusal", refusal: "I'm sorry, but I can't help with that." }]
      }]),
    answer: expected({
      text: "I'm sorry, but I can't help with that.",
      citations: [],
      state: "refused",
      model: "gpt-6.1-terra-2026-10-26",
      finishReason: "refusal",
      usage: openAiUsage
    })
  },
  incomplete: {
    // `status: "incomplete"` with `incomplete_details.reason` `max_output_tokens` (or `content_filter`).
    body: () =>
      openAiResponse([openAiMessage("HubSpot is the usual first CRM, and")], {
        status: "incomplete",
        incomplete_details: { reason: "max_output_tokens" }
      }),
    answer: expected({
      text: "HubSpot is the usual first CRM, and",
      citations: [],
      model: "gpt-6.1-terra-2026-10-26",
      finishReason: "max_tokens",
      usage: openAiUsage
    })
  },
  rateLimited: {
    // openai-node reads `retry-after-ms` before `Retry-After`.
    reply: {
      status: 429,
      headers: { "retry-after-ms": "1500", "x-ratelimit-remaining-requests": "0" },
      json: { error: { message: "Rate limit reached for requests. Please try again in 1.5s.", type: "requests", param: null, code: "rate_limit_exceeded" } }
    },
    kind: "rate_limited",
    waitAtLeastMs: 1_500
  },
  quota: {
    reply: {
      status: 429,
      json: {
        error: {
          message: "You exceeded your current quota, please check your plan and billing details.",
          type: "insufficient_quota",
          param: null,
          code: "insufficient_quota"
        }
      }
    },
    kind: "quota_exceeded"
  },
  serverError: { status: 500, json: { error: { message: "The server had an error while processing your request.", type: "server_error" } } },
  wrongShape: { output: "not a list" },
  unauthorized: {
    status: 401,
    json: { error: { message: `Incorrect API key provided: ${KEY}.`, type: "invalid_request_error", code: "invalid_api_key" } }
  },
  checkRequest: (request) => {
    expect(request.method).toBe("POST")
    expect(request.url).toBe("/v1/responses")
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(request.body).toEqual({
      model: MODEL,
      input: question.prompt,
      tools: [{ type: "web_search", user_location: { type: "approximate", country: "US" } }],
      include: ["web_search_call.action.sources"],
      store: false
    })
  }
}

// ---------------------------------------------------------------------------------------------------
// Perplexity

/** perplexity-node `ResponsesResponse`: status, model, output (`search_results` and `message` items), usage with cost. */
const agentResponse = (output: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) => ({
  id: "resp_0b1a2c3d",
  object: "response",
  created_at: 1763700000,
  model: "perplexity/sonar",
  status: "completed",
  output,
  usage: {
    input_tokens: 18,
    output_tokens: 96,
    total_tokens: 114,
    tool_calls_details: { search_web: { invocation: 1 } },
    cost: { currency: "USD", input_cost: 0.00002, output_cost: 0.0001, tool_calls_cost: 0.005, total_cost: 0.00512 }
  },
  ...extra
})

/** `SearchResultsOutputItem`: the queries run and their results (`id`, `url`, `title`, `snippet`, ...). */
const searchResults = {
  type: "search_results",
  queries: ["best crm small agency"],
  results: [
    { id: 1, url: HUBSPOT, title: "HubSpot CRM", snippet: "Free CRM", date: "2026-10-01", last_updated: "2026-11-01", source: "web" },
    { id: 2, url: PIPEDRIVE, title: "Pipedrive for agencies", snippet: "CRM for agencies", source: "web" },
    { id: 3, url: ZOHO, title: "Zoho CRM", snippet: "Cheap CRM", source: "web" }
  ]
}

/** `MessageOutputItem` with `output_text` content parts. */
const agentMessage = (text: string, annotations: ReadonlyArray<unknown> = []) => ({
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations }]
})

const perplexityUsage = { inputTokens: 18, outputTokens: 96, costUsd: 0.00512 }

const perplexity: ProviderCase = {
  platform: "perplexity",
  make: (baseUrl) => makePerplexity({ ...provider, baseUrl }),
  grounded: {
    // The text's [n] markers name the results by `id`; annotations are "often an empty array".
    body: () => agentResponse([searchResults, agentMessage("HubSpot is the usual first CRM[1]. Pipedrive is close[2].")]),
    answer: expected({
      text: "HubSpot is the usual first CRM[1]. Pipedrive is close[2].",
      citations: [HUBSPOT, PIPEDRIVE],
      model: "perplexity/sonar",
      finishReason: "complete",
      usage: perplexityUsage,
      searchQueries: ["best crm small agency"],
      retrieved: [ZOHO]
    })
  },
  noSources: {
    // "Even forced, an occasional run returns zero sources."
    body: () => agentResponse([agentMessage("HubSpot is a common first CRM.")]),
    answer: expected({ text: "HubSpot is a common first CRM.", citations: [], model: "perplexity/sonar", finishReason: "complete", usage: perplexityUsage })
  },
  incomplete: {
    // `incomplete_details.reason: "max_output_tokens"` replaces Sonar's `finish_reason: "length"`.
    body: () =>
      agentResponse([searchResults, agentMessage("HubSpot is the usual first CRM[1], and")], {
        status: "incomplete",
        incomplete_details: { reason: "max_output_tokens" }
      }),
    answer: expected({
      text: "HubSpot is the usual first CRM[1], and",
      citations: [HUBSPOT],
      model: "perplexity/sonar",
      finishReason: "max_tokens",
      usage: perplexityUsage,
      searchQueries: ["best crm small agency"],
      retrieved: [PIPEDRIVE, ZOHO]
    })
  },
  rateLimited: {
    // The guide: 429 `request_rate_limit_exceeded`, "retry with backoff". The fake adds HTTP's
    // Retry-After (RFC 9110) to check it is honoured; without one the backoff applies.
    reply: {
      status: 429,
      headers: { "retry-after": "3", "x-ratelimit-remaining": "0" },
      json: { error: { message: "Rate limit exceeded", type: "request_rate_limit_exceeded", code: 429 } }
    },
    kind: "rate_limited",
    waitAtLeastMs: 3_000
  },
  quota: {
    // The error table lists no quota error; out of credits is HTTP's 402 Payment Required in the
    // documented envelope (the status matches `code`).
    reply: { status: 402, json: { error: { message: "Insufficient credits", type: "insufficient_credits", code: 402 } } },
    kind: "quota_exceeded"
  },
  serverError: { status: 502, json: { error: { message: "bad gateway", type: "bad_gateway", code: 502 } } },
  wrongShape: { status: "completed", output: [{ type: "message", content: "text" }] },
  unauthorized: { status: 401, json: { error: { message: `Invalid API key ${KEY}`, type: "forbidden", code: 401 } } },
  checkRequest: (request) => {
    expect(request.method).toBe("POST")
    expect(request.url).toBe("/v1/agent")
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
    // The Agent API refuses any field it does not know: exactly these.
    expect(request.body).toEqual({
      model: MODEL,
      input: question.prompt,
      tools: [{ type: "web_search", user_location: { country: "US" } }]
    })
  }
}

// ---------------------------------------------------------------------------------------------------
// Gemini

/** Where the grounding links point: Google's redirect host, stood in for by the fake. */
export const redirectLink = (baseUrl: string, id: string) => `${baseUrl}/grounding-api-redirect/${id}`

/** The redirect host: each link's `Location`, answered to a HEAD (or GET) by the fake. */
export const geminiRedirects: Record<string, string> = { AAA: HUBSPOT, BBB: ZOHO, CCC: PIPEDRIVE }

export const geminiRoute: Route = (request) => {
  const match = /^\/grounding-api-redirect\/(\w+)$/.exec(request.url)
  if (match === null) return undefined
  const location = geminiRedirects[match[1]!]
  return location === undefined ? { status: 404, text: "" } : { status: 302, headers: { location }, text: "" }
}

/** js-genai `GenerateContentResponse`: candidates, usage metadata, the model version served. */
const generateContent = (candidate: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) => ({
  ...(candidate === undefined ? {} : { candidates: [{ index: 0, ...candidate }] }),
  usageMetadata: { promptTokenCount: 10, toolUsePromptTokenCount: 80, candidatesTokenCount: 12, thoughtsTokenCount: 30, totalTokenCount: 132 },
  modelVersion: "gemini-3.8-flash",
  responseId: "abc123",
  ...extra
})

const geminiUsage = { inputTokens: 90, outputTokens: 42, costUsd: null }

const gemini: ProviderCase = {
  platform: "gemini",
  make: (baseUrl) => makeGemini({ ...provider, baseUrl }, { redirectOrigin: baseUrl }),
  route: geminiRoute,
  grounded: {
    // `GroundingMetadata`: the chunks (redirect `uri`, `title` = the page's domain), and the supports
    // naming the chunks each segment rests on: chunks 0 and 2 are cited, 1 only retrieved.
    body: ({ baseUrl }) =>
      generateContent({
        content: { role: "model", parts: [{ text: "HubSpot is the usual first CRM. " }, { text: "Pipedrive is close." }] },
        finishReason: "STOP",
        groundingMetadata: {
          webSearchQueries: ["best crm small agency"],
          searchEntryPoint: { renderedContent: "<div></div>" },
          groundingChunks: [
            { web: { uri: redirectLink(baseUrl, "AAA"), title: "hubspot.com" } },
            { web: { uri: redirectLink(baseUrl, "BBB"), title: "zoho.com" } },
            { web: { uri: redirectLink(baseUrl, "CCC"), title: "pipedrive.com" } }
          ],
          groundingSupports: [
            { segment: { startIndex: 0, endIndex: 31, text: "HubSpot is the usual first CRM." }, groundingChunkIndices: [0], confidenceScores: [0.93] },
            { segment: { startIndex: 32, endIndex: 51, text: "Pipedrive is close." }, groundingChunkIndices: [2, 0], confidenceScores: [0.8, 0.6] }
          ]
        }
      }),
    answer: expected({
      text: "HubSpot is the usual first CRM. Pipedrive is close.",
      citations: [HUBSPOT, PIPEDRIVE],
      model: "gemini-3.8-flash",
      finishReason: "complete",
      usage: geminiUsage,
      searchQueries: ["best crm small agency"],
      retrieved: [ZOHO]
    })
  },
  noSources: {
    body: () => generateContent({ content: { role: "model", parts: [{ text: "HubSpot." }] }, finishReason: "STOP" }),
    answer: expected({ text: "HubSpot.", citations: [], model: "gemini-3.8-flash", finishReason: "complete", usage: geminiUsage })
  },
  refusal: {
    // A blocked prompt: no candidates, `promptFeedback.blockReason`.
    body: () => generateContent(undefined, { promptFeedback: { blockReason: "PROHIBITED_CONTENT" } }),
    answer: expected({ text: "", citations: [], state: "refused", model: "gemini-3.8-flash", finishReason: "content_filter", usage: geminiUsage })
  },
  incomplete: {
    body: () => generateContent({ content: { role: "model", parts: [{ text: "HubSpot is the usual first CRM, and" }] }, finishReason: "MAX_TOKENS" }),
    answer: expected({ text: "HubSpot is the usual first CRM, and", citations: [], model: "gemini-3.8-flash", finishReason: "max_tokens", usage: geminiUsage })
  },
  rateLimited: {
    // No header: the delay is the body's `google.rpc.RetryInfo`.
    reply: {
      status: 429,
      json: {
        error: {
          code: 429,
          message: "You exceeded your current quota, please check your plan and billing details. Please retry in 46.5s.",
          status: "RESOURCE_EXHAUSTED",
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.QuotaFailure",
              violations: [{
                quotaMetric: "generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count",
                quotaId: "GenerateContentPaidTierInputTokensPerModelPerMinute",
                quotaDimensions: { location: "global", model: "gemini-3.8-flash" },
                quotaValue: "4000000"
              }]
            },
            { "@type": "type.googleapis.com/google.rpc.Help", links: [{ description: "Learn more", url: "https://ai.google.dev/gemini-api/docs/rate-limits" }] },
            { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "46.5s" }
          ]
        }
      }
    },
    kind: "rate_limited",
    waitAtLeastMs: 46_500
  },
  quota: {
    // A daily quota: waiting minutes will not help.
    reply: {
      status: 429,
      json: {
        error: {
          code: 429,
          message: "You exceeded your current quota, please check your plan and billing details.",
          status: "RESOURCE_EXHAUSTED",
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.QuotaFailure",
              violations: [{
                quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
                quotaValue: "20"
              }]
            },
            { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "35640s" }
          ]
        }
      }
    },
    kind: "quota_exceeded"
  },
  serverError: { status: 503, json: { error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } } },
  wrongShape: { candidates: [{ content: { parts: "text" } }] },
  unauthorized: {
    status: 401,
    json: { error: { code: 401, message: `API key not valid: ${KEY}. Please pass a valid API key.`, status: "UNAUTHENTICATED" } }
  },
  checkRequest: (request) => {
    expect(request.method).toBe("POST")
    expect(request.url).toBe(`/v1beta/models/${MODEL}:generateContent`)
    expect(request.headers["x-goog-api-key"]).toBe(KEY)
    expect(request.body).toEqual({
      contents: [{ role: "user", parts: [{ text: question.prompt }] }],
      tools: [{ google_search: {} }]
    })
  }
}

// ---------------------------------------------------------------------------------------------------
// Claude

/** anthropic-sdk-typescript `Message`. */
const message = (content: ReadonlyArray<unknown>, stopReason: string, extra: Record<string, unknown> = {}) => ({
  id: "msg_01XFDUDYJgAACzvnptvVoYEL",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-5-5-20261015",
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage: {
    input_tokens: 2048,
    output_tokens: 310,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    server_tool_use: { web_search_requests: 1 }
  },
  ...extra
})

/** `ServerToolUseBlock` and `WebSearchToolResultBlock` (results with `encrypted_content`). */
const searchBlocks = [
  { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "crm small agency" } },
  {
    type: "web_search_tool_result",
    tool_use_id: "srvtoolu_01",
    content: [
      { type: "web_search_result", url: HUBSPOT, title: "HubSpot", encrypted_content: "e1", page_age: "April 30, 2026" },
      { type: "web_search_result", url: ZOHO, title: "Zoho", encrypted_content: "e2", page_age: null },
      { type: "web_search_result", url: PIPEDRIVE, title: "Pipedrive", encrypted_content: "e3", page_age: null }
    ]
  }
]

/** A `TextBlock` with its `CitationsWebSearchResultLocation` entries. */
const cited = (text: string, urls: ReadonlyArray<string>) => ({
  type: "text",
  text,
  citations: urls.map((url, i) => ({ type: "web_search_result_location", url, title: "t", encrypted_index: `i${i}`, cited_text: "…" }))
})

const claudeUsage = { inputTokens: 2048, outputTokens: 310, costUsd: null }

const claude: ProviderCase = {
  platform: "claude",
  make: (baseUrl) => makeAnthropic({ ...provider, baseUrl }),
  grounded: {
    body: () =>
      message([
        { type: "text", text: "I'll search for CRMs that suit small agencies." },
        ...searchBlocks,
        cited("HubSpot is the usual first CRM", [HUBSPOT]),
        { type: "text", text: ", and ", citations: null },
        cited("Pipedrive is close.", [PIPEDRIVE, HUBSPOT])
      ], "end_turn"),
    answer: expected({
      text: "I'll search for CRMs that suit small agencies.\n\nHubSpot is the usual first CRM, and Pipedrive is close.",
      citations: [HUBSPOT, PIPEDRIVE],
      model: "claude-sonnet-5-5-20261015",
      finishReason: "complete",
      usage: claudeUsage,
      searchQueries: ["crm small agency"],
      retrieved: [ZOHO]
    })
  },
  noSources: {
    body: () => message([{ type: "text", text: "HubSpot, " }, { type: "text", text: "mostly." }], "end_turn"),
    answer: expected({ text: "HubSpot, mostly.", citations: [], model: "claude-sonnet-5-5-20261015", finishReason: "complete", usage: claudeUsage })
  },
  refusal: {
    // `StopReason` `refusal`: the model declined.
    body: () => message([], "refusal"),
    answer: expected({ text: "", citations: [], state: "refused", model: "claude-sonnet-5-5-20261015", finishReason: "refusal", usage: claudeUsage })
  },
  incomplete: {
    body: () => message([...searchBlocks, cited("HubSpot is the usual first CRM, and", [HUBSPOT])], "max_tokens"),
    answer: expected({
      text: "HubSpot is the usual first CRM, and",
      citations: [HUBSPOT],
      model: "claude-sonnet-5-5-20261015",
      finishReason: "max_tokens",
      usage: claudeUsage,
      searchQueries: ["crm small agency"],
      retrieved: [ZOHO, PIPEDRIVE]
    })
  },
  rateLimited: {
    reply: {
      status: 429,
      headers: { "retry-after": "7", "anthropic-ratelimit-requests-remaining": "0" },
      json: {
        type: "error",
        error: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit" },
        request_id: "req_011CSHoEeqs5C35K2UUqR7Fy"
      }
    },
    kind: "rate_limited",
    waitAtLeastMs: 7_000
  },
  quota: {
    // The monthly spend cap: a 429 without retry-after that trying again will not pass.
    reply: {
      status: 429,
      json: {
        type: "error",
        error: {
          type: "rate_limit_error",
          message: "Your organization has reached its monthly usage limit.",
          details: { error_code: "enforced_spend_limit_reached" }
        },
        request_id: "req_011CSHoEeqs5C35K2UUqR7Fz"
      }
    },
    kind: "quota_exceeded"
  },
  serverError: { status: 529, json: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
  wrongShape: { content: [{ text: "no type" }], stop_reason: "end_turn" },
  unauthorized: { status: 401, json: { type: "error", error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` } } },
  checkRequest: (request) => {
    expect(request.method).toBe("POST")
    expect(request.url).toBe("/v1/messages")
    expect(request.headers["x-api-key"]).toBe(KEY)
    expect(request.headers["anthropic-version"]).toBe("2023-06-01")
    expect(request.body).toEqual({
      model: MODEL,
      max_tokens: 4096,
      messages: [{ role: "user", content: question.prompt }],
      tools: [{
        type: "web_search_20250305",
        name: "web_search",
        max_uses: 5,
        user_location: { type: "approximate", country: "US" }
      }]
    })
  }
}

// ---------------------------------------------------------------------------------------------------
// xAI

/** xAI's Responses body: OpenAI's shape, with the top-level `citations` (all sources encountered). */
const xaiResponse = (output: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) => ({
  id: "resp_x1",
  object: "response",
  created_at: 1763700000,
  model: "grok-4.7",
  status: "completed",
  output,
  usage: {
    input_tokens: 9202,
    output_tokens: 3417,
    total_tokens: 12629,
    num_sources_used: 4,
    num_server_side_tools_used: 1,
    cost_in_usd_ticks: 318319000
  },
  ...extra
})

const xaiUsage = { inputTokens: 9202, outputTokens: 3417, costUsd: 0.0318319 }

const xai: ProviderCase = {
  platform: "grok",
  make: (baseUrl) => makeXai({ ...provider, baseUrl }),
  grounded: {
    body: () =>
      xaiResponse([
        { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "best crm small agency" } },
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{
            type: "output_text",
            text: `HubSpot is the usual first CRM [[1]](${HUBSPOT}); Pipedrive is close [[2]](${PIPEDRIVE}).`,
            annotations: [
              { type: "url_citation", url: HUBSPOT, start_index: 31, end_index: 66, title: "1" },
              { type: "url_citation", url: PIPEDRIVE, start_index: 82, end_index: 134, title: "2" }
            ]
          }]
        }
      ], { citations: [HUBSPOT, ZOHO, PIPEDRIVE, "https://x.com/i/status/1975607901571199086"] }),
    answer: expected({
      text: `HubSpot is the usual first CRM [[1]](${HUBSPOT}); Pipedrive is close [[2]](${PIPEDRIVE}).`,
      citations: [HUBSPOT, PIPEDRIVE],
      model: "grok-4.7",
      finishReason: "complete",
      usage: xaiUsage,
      searchQueries: ["best crm small agency"],
      retrieved: [ZOHO, "https://x.com/i/status/1975607901571199086"]
    })
  },
  noSources: {
    body: () =>
      xaiResponse([{ type: "message", id: "m", role: "assistant", status: "completed", content: [{ type: "output_text", text: "HubSpot.", annotations: [] }] }]),
    answer: expected({ text: "HubSpot.", citations: [], model: "grok-4.7", finishReason: "complete", usage: xaiUsage })
  },
  refusal: {
    // xAI's Responses follow OpenAI's, refusal part included (xai-sdk-ts `OutputMessage`).
    body: () =>
      xaiResponse([{ type: "message", id: "m", role: "assistant", status: "completed", content: [{ type: "refusal", refusal: "I can't help with that." }] }]),
    answer: expected({ text: "I can't help with that.", citations: [], state: "refused", model: "grok-4.7", finishReason: "refusal", usage: xaiUsage })
  },
  incomplete: {
    body: () =>
      xaiResponse(
        [{ type: "message", id: "m", role: "assistant", status: "incomplete", content: [{ type: "output_text", text: "HubSpot is", annotations: [] }] }],
        { status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, citations: [ZOHO] }
      ),
    answer: expected({ text: "HubSpot is", citations: [], model: "grok-4.7", finishReason: "max_tokens", usage: xaiUsage, retrieved: [ZOHO] })
  },
  rateLimited: {
    // xai-sdk-ts `src/http.ts` honours `retry-after`.
    reply: { status: 429, headers: { "retry-after": "2" }, json: { code: "Some resource has been exhausted", error: "Too many requests" } },
    kind: "rate_limited",
    waitAtLeastMs: 2_000
  },
  quota: {
    reply: {
      status: 429,
      json: {
        code: "Some resource has been exhausted",
        error: "Your team has either used all available credits or reached its monthly spending limit. Purchase more credits or raise the limit."
      }
    },
    kind: "quota_exceeded"
  },
  serverError: { status: 529, json: { code: "Service overloaded", error: "The service is overloaded" } },
  wrongShape: { output: [{ type: "message", content: [{ type: "output_text", text: 42 }] }] },
  unauthorized: { status: 401, json: { code: "Client specified an invalid argument", error: `Incorrect API key provided: ${KEY}.` } },
  checkRequest: (request) => {
    expect(request.method).toBe("POST")
    expect(request.url).toBe("/v1/responses")
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
    // xAI's web_search tool takes no country.
    expect(request.body).toEqual({ model: MODEL, input: question.prompt, tools: [{ type: "web_search" }], store: false })
  }
}

// ---------------------------------------------------------------------------------------------------
// SerpApi

/** `text_blocks` as the engines give them: paragraphs, headings, lists with titled items, a table, code. */
const serpBlocks = [
  { type: "paragraph", snippet: "HubSpot is the usual first CRM for a small agency.", reference_indexes: [0] },
  { type: "heading", snippet: "Other options" },
  {
    type: "list",
    list: [
      { title: "Pipedrive:", snippet: "simple pipelines.", reference_indexes: [1], list: [{ snippet: "Per-seat pricing." }] },
      { title: "Zoho CRM", snippet: "cheap.", reference_indexes: [2] }
    ]
  },
  { type: "table", table: [["CRM", "Free plan"], ["HubSpot", "Yes"], ["Pipedrive", "No"]], reference_indexes: [0, 1] },
  { type: "code_blocks", language: "bash", code: "curl https://api.hubapi.com/crm/v3/objects/contacts\n" }
]

const serpText = [
  "HubSpot is the usual first CRM for a small agency.",
  "Other options",
  "- Pipedrive: simple pipelines.",
  "  - Per-seat pricing.",
  "- Zoho CRM: cheap.",
  "| CRM | Free plan |",
  "| --- | --- |",
  "| HubSpot | Yes |",
  "| Pipedrive | No |",
  "```bash",
  "curl https://api.hubapi.com/crm/v3/objects/contacts",
  "```"
].join("\n")

const references = [
  { index: 0, title: "HubSpot CRM", link: HUBSPOT, snippet: "Free CRM", source: "HubSpot" },
  { index: 1, title: "Pipedrive", link: PIPEDRIVE, snippet: "CRM for agencies", source: "Pipedrive" },
  { index: 2, title: "Zoho", link: ZOHO, snippet: "Zoho CRM", source: "Zoho" }
]

const serpMetadata = { search_metadata: { id: "s1", status: "Success", total_time_taken: 3.1 } }

const serpRequest = (engine: string, locale: { readonly gl: string; readonly hl: string } | undefined) => (request: RecordedRequest) => {
  const url = new URL(request.url, "http://fake")
  expect(request.method).toBe("GET")
  expect(url.pathname).toBe("/search.json")
  expect(Object.fromEntries(url.searchParams)).toEqual({ engine, q: question.prompt, ...locale, api_key: KEY })
}

const serpErrors = {
  // serpapi.com/api-status-and-error-codes: 429 is throughput (tried again after the backoff: SerpApi
  // documents no retry header) or no searches left (not tried again).
  rateLimited: {
    reply: { status: 429, json: { error: "Your account has exceeded the hourly searches limit." } },
    kind: "rate_limited" as const,
    waitAtLeastMs: 0
  },
  quota: { reply: { status: 429, json: { error: "Your account has run out of searches." } }, kind: "quota_exceeded" as const },
  serverError: { status: 503, json: { error: "Something went wrong." } },
  unauthorized: {
    status: 401,
    json: { error: `Invalid API key ${KEY}. Your API key should be here: https://serpapi.com/manage-api-key` }
  }
}

const serpAnswer = (text: string, citations: ReadonlyArray<string>) => expected({ text, citations })

export const serpKey = { apiKey: Redacted.make(KEY) }

const copilot: ProviderCase = {
  platform: "copilot",
  make: (baseUrl) => makeSerp("copilot", { ...serpKey, baseUrl }),
  grounded: {
    body: () => ({ ...serpMetadata, header: "Best CRM", text_blocks: serpBlocks, references }),
    answer: serpAnswer(serpText, [HUBSPOT, PIPEDRIVE, ZOHO])
  },
  noSources: {
    body: () => ({ ...serpMetadata, text_blocks: [{ type: "paragraph", snippet: "HubSpot." }] }),
    answer: serpAnswer("HubSpot.", [])
  },
  ...serpErrors,
  wrongShape: { text_blocks: { snippet: "not a list" } },
  // The Bing Copilot engine takes neither a location nor a language.
  checkRequest: serpRequest("bing_copilot", undefined)
}

const googleAiMode: ProviderCase = {
  platform: "google_ai_mode",
  make: (baseUrl) => makeSerp("google_ai_mode", { ...serpKey, baseUrl }),
  grounded: {
    body: () => ({ ...serpMetadata, text_blocks: serpBlocks, references }),
    answer: serpAnswer(serpText, [HUBSPOT, PIPEDRIVE, ZOHO])
  },
  noSources: {
    body: () => ({ ...serpMetadata, text_blocks: [{ type: "paragraph", snippet: "HubSpot." }] }),
    answer: serpAnswer("HubSpot.", [])
  },
  ...serpErrors,
  wrongShape: { references: [{ link: 42 }] },
  checkRequest: serpRequest("google_ai_mode", { gl: "us", hl: "en" })
}

const googleAiOverview: ProviderCase = {
  platform: "google_ai_overview",
  make: (baseUrl) => makeSerp("google_ai_overview", { ...serpKey, baseUrl }),
  grounded: {
    body: () => ({
      ...serpMetadata,
      ai_overview: { text_blocks: serpBlocks, references },
      organic_results: [{ position: 1, title: "Ten CRMs", link: "https://example.com/crms" }]
    }),
    answer: serpAnswer(serpText, [HUBSPOT, PIPEDRIVE, ZOHO])
  },
  noSources: {
    body: () => ({ ...serpMetadata, ai_overview: { text_blocks: [{ type: "paragraph", snippet: "HubSpot." }] } }),
    answer: serpAnswer("HubSpot.", [])
  },
  ...serpErrors,
  wrongShape: { ai_overview: { text_blocks: "none" } },
  checkRequest: serpRequest("google", { gl: "us", hl: "en" })
}

export const providers: ReadonlyArray<ProviderCase> = [openAi, perplexity, gemini, claude, xai, copilot, googleAiMode, googleAiOverview]

export const providerOf = (platform: Platform): ProviderCase => providers.find((candidate) => candidate.platform === platform)!
