import type { HttpClient } from "@effect/platform"
import { expect } from "@effect/vitest"
import { type Effect, Redacted } from "effect"
import type { Platform } from "../../../src/Domain/Platform.ts"
import type { PlatformClient, Question } from "../../../src/Collector/Platform.ts"
import { makeAnthropic } from "../../../src/Collector/Platforms/Anthropic.ts"
import { makeGemini } from "../../../src/Collector/Platforms/Gemini.ts"
import { makeOpenAi } from "../../../src/Collector/Platforms/OpenAi.ts"
import { makePerplexity } from "../../../src/Collector/Platforms/Perplexity.ts"
import { makeSerp } from "../../../src/Collector/Platforms/Serp.ts"
import { makeXai } from "../../../src/Collector/Platforms/Xai.ts"
import type { RecordedRequest } from "./FakeServer.ts"

/**
 * Each provider's wire format as its documentation shows it: a successful answer with citations, the
 * answer we expect from it, what its request must carry, and its error body (echoing the key, as some
 * providers partly do, to prove the key never reaches a failure message).
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

export interface ProviderCase {
  readonly platform: Platform
  readonly make: (baseUrl: string) => Effect.Effect<PlatformClient, never, HttpClient.HttpClient>
  readonly success: unknown
  readonly text: string
  readonly citations: ReadonlyArray<string>
  /** Asserts the request carried the key, the model and the country where the provider takes one. */
  readonly checkRequest: (request: RecordedRequest) => void
  readonly errorBody: unknown
  /** A 2xx body in the wrong shape. */
  readonly wrongShape: unknown
}

const provider = { apiKey: Redacted.make(KEY), model: MODEL }

const HUBSPOT = "https://www.hubspot.com/crm"
const PIPEDRIVE = "https://www.pipedrive.com/en/blog/crm-for-agencies"
const ZOHO = "https://www.zoho.com/crm/"

const chatCompletion = (content: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1763700000,
  model: MODEL,
  choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
  usage: { prompt_tokens: 12, completion_tokens: 40, total_tokens: 52 }
})

const serpText = {
  text_blocks: [
    { type: "paragraph", snippet: "HubSpot is the usual first CRM for a small agency." },
    { type: "heading", snippet: "Other options" },
    {
      type: "list",
      list: [
        { snippet: "Pipedrive: simple pipelines.", list: [{ snippet: "Per-seat pricing." }] },
        { snippet: "Zoho CRM: cheap." }
      ]
    }
  ],
  references: [
    { index: 0, title: "HubSpot CRM", link: HUBSPOT, snippet: "Free CRM", source: "HubSpot" },
    { index: 1, title: "Pipedrive", link: PIPEDRIVE, snippet: "CRM for agencies", source: "Pipedrive" },
    { index: 2, title: "Zoho", link: ZOHO, snippet: "Zoho CRM", source: "Zoho" }
  ]
}

const serpAnswer =
  "HubSpot is the usual first CRM for a small agency.\nOther options\nPipedrive: simple pipelines.\nPer-seat pricing.\nZoho CRM: cheap."

const serpError = { error: `Invalid API key ${KEY}. Your API key should be here: https://serpapi.com/manage-api-key` }

const serpRequest = (engine: string, gl: string | undefined) => (request: RecordedRequest) => {
  const url = new URL(request.url, "http://fake")
  expect(request.method).toBe("GET")
  expect(url.pathname).toBe("/search.json")
  expect(url.searchParams.get("engine")).toBe(engine)
  expect(url.searchParams.get("q")).toBe(question.prompt)
  expect(url.searchParams.get("api_key")).toBe(KEY)
  expect(url.searchParams.get("gl") ?? undefined).toBe(gl)
}

export const providers: ReadonlyArray<ProviderCase> = [
  {
    platform: "chatgpt",
    make: (baseUrl) => makeOpenAi({ ...provider, baseUrl }),
    success: {
      id: "resp_1",
      object: "response",
      status: "completed",
      model: MODEL,
      output: [
        { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "crm agency" } },
        {
          type: "message",
          id: "msg_1",
          status: "completed",
          role: "assistant",
          content: [{
            type: "output_text",
            text: "HubSpot is the usual first CRM ([hubspot.com](https://www.hubspot.com/crm)); Pipedrive is close.",
            annotations: [
              { type: "url_citation", start_index: 36, end_index: 80, url: HUBSPOT, title: "HubSpot" },
              { type: "url_citation", start_index: 82, end_index: 90, url: PIPEDRIVE, title: "Pipedrive" },
              { type: "url_citation", start_index: 91, end_index: 95, url: HUBSPOT, title: "HubSpot again" },
              { type: "file_citation", file_id: "file_1", index: 3 }
            ]
          }]
        }
      ],
      usage: { input_tokens: 10, output_tokens: 30, total_tokens: 40 }
    },
    text: "HubSpot is the usual first CRM ([hubspot.com](https://www.hubspot.com/crm)); Pipedrive is close.",
    citations: [HUBSPOT, PIPEDRIVE],
    checkRequest: (request) => {
      expect(request.method).toBe("POST")
      expect(request.url).toBe("/v1/responses")
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
      expect(request.body.model).toBe(MODEL)
      expect(request.body.input).toBe(question.prompt)
      expect(request.body.tools).toEqual([{ type: "web_search", user_location: { type: "approximate", country: "US" } }])
    },
    errorBody: {
      error: { message: `Incorrect API key provided: ${KEY}.`, type: "invalid_request_error", code: "invalid_api_key" }
    },
    wrongShape: { output: "not a list" }
  },
  {
    platform: "perplexity",
    make: (baseUrl) => makePerplexity({ ...provider, baseUrl }),
    success: {
      ...chatCompletion("HubSpot is the usual first CRM[1]. Pipedrive is close[2]."),
      citations: [HUBSPOT, PIPEDRIVE],
      search_results: [{ title: "HubSpot", url: HUBSPOT }, { title: "Pipedrive", url: PIPEDRIVE }]
    },
    text: "HubSpot is the usual first CRM[1]. Pipedrive is close[2].",
    citations: [HUBSPOT, PIPEDRIVE],
    checkRequest: (request) => {
      expect(request.method).toBe("POST")
      expect(request.url).toBe("/chat/completions")
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
      expect(request.body.model).toBe(MODEL)
      expect(request.body.messages).toEqual([{ role: "user", content: question.prompt }])
      expect(request.body.web_search_options).toEqual({ user_location: { country: "US" } })
    },
    errorBody: { error: { message: `Invalid API key ${KEY}`, type: "invalid_api_key", code: 401 } },
    wrongShape: { choices: [] }
  },
  {
    platform: "gemini",
    make: (baseUrl) => makeGemini({ ...provider, baseUrl }),
    success: {
      candidates: [{
        content: {
          role: "model",
          parts: [{ text: "HubSpot is the usual first CRM. " }, { text: "Pipedrive is close." }]
        },
        finishReason: "STOP",
        groundingMetadata: {
          webSearchQueries: ["best crm small agency"],
          groundingChunks: [
            { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AAA", title: "hubspot.com" } },
            { web: { uri: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/BBB", title: "pipedrive.com" } }
          ],
          groundingSupports: [{ segment: { startIndex: 0, endIndex: 31 }, groundingChunkIndices: [0] }]
        }
      }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 12, totalTokenCount: 22 }
    },
    text: "HubSpot is the usual first CRM. Pipedrive is close.",
    citations: [
      "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AAA",
      "https://vertexaisearch.cloud.google.com/grounding-api-redirect/BBB"
    ],
    checkRequest: (request) => {
      expect(request.method).toBe("POST")
      expect(request.url).toBe(`/v1beta/models/${MODEL}:generateContent`)
      expect(request.headers["x-goog-api-key"]).toBe(KEY)
      expect(request.body.contents).toEqual([{ role: "user", parts: [{ text: question.prompt }] }])
      expect(request.body.tools).toEqual([{ google_search: {} }])
    },
    errorBody: {
      error: { code: 401, message: `API key not valid: ${KEY}. Please pass a valid API key.`, status: "UNAUTHENTICATED" }
    },
    wrongShape: { candidates: [{ content: { parts: "text" } }] }
  },
  {
    platform: "claude",
    make: (baseUrl) => makeAnthropic({ ...provider, baseUrl }),
    success: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: MODEL,
      content: [
        { type: "text", text: "I'll search for CRMs that suit HubSpot-sized agencies." },
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "crm small agency" } },
        {
          type: "web_search_tool_result",
          tool_use_id: "srvtoolu_1",
          content: [{ type: "web_search_result", url: ZOHO, title: "Zoho", encrypted_content: "xyz", page_age: null }]
        },
        {
          type: "text",
          text: "HubSpot is the usual first CRM",
          citations: [{
            type: "web_search_result_location",
            url: HUBSPOT,
            title: "HubSpot",
            encrypted_index: "a",
            cited_text: "HubSpot CRM is free"
          }]
        },
        { type: "text", text: ", and ", citations: null },
        {
          type: "text",
          text: "Pipedrive is close.",
          citations: [
            { type: "web_search_result_location", url: PIPEDRIVE, title: "Pipedrive", encrypted_index: "b", cited_text: "x" },
            { type: "web_search_result_location", url: HUBSPOT, title: "HubSpot", encrypted_index: "c", cited_text: "y" }
          ]
        }
      ],
      stop_reason: "end_turn",
      usage: { input_tokens: 10, output_tokens: 30, server_tool_use: { web_search_requests: 1 } }
    },
    text: "HubSpot is the usual first CRM, and Pipedrive is close.",
    citations: [HUBSPOT, PIPEDRIVE],
    checkRequest: (request) => {
      expect(request.method).toBe("POST")
      expect(request.url).toBe("/v1/messages")
      expect(request.headers["x-api-key"]).toBe(KEY)
      expect(request.headers["anthropic-version"]).toBe("2023-06-01")
      expect(request.body.model).toBe(MODEL)
      expect(request.body.messages).toEqual([{ role: "user", content: question.prompt }])
      expect(request.body.tools).toEqual([{
        type: "web_search_20250305",
        name: "web_search",
        max_uses: 5,
        user_location: { type: "approximate", country: "US" }
      }])
    },
    errorBody: { type: "error", error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` } },
    wrongShape: { content: [{ text: "no type" }] }
  },
  {
    platform: "grok",
    make: (baseUrl) => makeXai({ ...provider, baseUrl }),
    success: {
      id: "resp_x1",
      object: "response",
      status: "completed",
      model: MODEL,
      output: [
        { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "crm agency" } },
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "HubSpot is the usual first CRM; Pipedrive is close.", annotations: [] }]
        }
      ],
      citations: [HUBSPOT, PIPEDRIVE, ZOHO]
    },
    text: "HubSpot is the usual first CRM; Pipedrive is close.",
    citations: [HUBSPOT, PIPEDRIVE, ZOHO],
    checkRequest: (request) => {
      expect(request.method).toBe("POST")
      expect(request.url).toBe("/v1/responses")
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
      expect(request.body.model).toBe(MODEL)
      expect(request.body.input).toBe(question.prompt)
      // xAI's web_search tool takes no country.
      expect(request.body.tools).toEqual([{ type: "web_search" }])
    },
    errorBody: { code: "Client specified an invalid argument", error: `Incorrect API key provided: ${KEY}.` },
    wrongShape: { output: [{ type: "message", content: [{ type: "output_text", text: 42 }] }] }
  },
  {
    platform: "copilot",
    make: (baseUrl) => makeSerp("copilot", { apiKey: Redacted.make(KEY), baseUrl }),
    success: { search_metadata: { id: "s1", status: "Success" }, ...serpText },
    text: serpAnswer,
    citations: [HUBSPOT, PIPEDRIVE, ZOHO],
    checkRequest: serpRequest("bing_copilot", undefined),
    errorBody: serpError,
    wrongShape: { text_blocks: { snippet: "not a list" } }
  },
  {
    platform: "google_ai_mode",
    make: (baseUrl) => makeSerp("google_ai_mode", { apiKey: Redacted.make(KEY), baseUrl }),
    success: { search_metadata: { id: "s1", status: "Success" }, ...serpText },
    text: serpAnswer,
    citations: [HUBSPOT, PIPEDRIVE, ZOHO],
    checkRequest: serpRequest("google_ai_mode", "us"),
    errorBody: serpError,
    wrongShape: { references: [{ link: 42 }] }
  },
  {
    platform: "google_ai_overview",
    make: (baseUrl) => makeSerp("google_ai_overview", { apiKey: Redacted.make(KEY), baseUrl }),
    success: {
      search_metadata: { id: "s1", status: "Success" },
      ai_overview: serpText,
      organic_results: [{ position: 1, title: "Ten CRMs", link: "https://example.com/crms" }]
    },
    text: serpAnswer,
    citations: [HUBSPOT, PIPEDRIVE, ZOHO],
    checkRequest: serpRequest("google", "us"),
    errorBody: serpError,
    wrongShape: { ai_overview: { text_blocks: "none" } }
  }
]
