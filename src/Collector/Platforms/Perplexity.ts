import type { HttpClient } from "@effect/platform"
import { Effect, Schema } from "effect"
import type { FinishReason } from "../../Domain/Response.ts"
import type { PlatformClient } from "../Platform.ts"
import { answerOf, count, failedInBody, makeBearerJsonClient, type ProviderSettings } from "./Http.ts"

/**
 * Perplexity through its Agent API (`POST /v1/agent`, OpenAI's Responses format), which replaced the
 * Sonar chat completions on 2026-09-27 (docs.perplexity.ai/docs/agent-api/migrate-from-sonar;
 * perplexityai/api-platform-developers, skill `migrate-sonar-to-agent-api`, `references/request-mapping.md`
 * and `references/response-and-streaming.md`; the types of perplexity-node `src/generated/api.ts`:
 * `ResponsesRequest`, `ResponsesResponse`, `SearchResultsOutputItem`, `WebSearchTool`, `ResponsesUsage`).
 *
 * - The request: `input` (not `messages`), model `perplexity/sonar`, and the `web_search` tool, which
 *   is not implied (a bare model does no search), with the monitor's country as `user_location`. The
 *   API refuses any field it does not know, so nothing else is sent.
 * - The sources: every `search_results` output item (`queries`, `results[]` with `id` and `url`); there
 *   is no top-level `citations` any more. The cited ones are the message's `url_citation` annotations
 *   (often empty, the guide warns) and the results whose `id` the text refers to with `[n]` markers
 *   (the cookbook's "streaming citations": "numbered markers like [1], [2], mapping to the search
 *   result id field"); the other results were retrieved.
 * - A failed or cancelled run can answer HTTP 200 with `status: "failed"` and an `error`: a failure
 *   (`unavailable`, tried again), never an answer. `incomplete` is an answer cut short.
 */

const Annotation = Schema.Struct({ type: Schema.optional(Schema.String), url: Schema.optional(Schema.String) })

const ContentPart = Schema.Struct({
  type: Schema.String,
  text: Schema.optional(Schema.String),
  annotations: Schema.optional(Schema.NullOr(Schema.Array(Annotation)))
})

const SearchResult = Schema.Struct({ id: Schema.optional(Schema.Number), url: Schema.optional(Schema.String) })

/** `message` and `search_results` items are read; others (fetch_url_results, ...) only for their type. */
const OutputItem = Schema.Struct({
  type: Schema.String,
  content: Schema.optional(Schema.NullOr(Schema.Array(ContentPart))),
  queries: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  results: Schema.optional(Schema.NullOr(Schema.Array(SearchResult)))
})

export const AgentBody = Schema.Struct({
  status: Schema.String,
  model: Schema.optional(Schema.NullOr(Schema.String)),
  output: Schema.Array(OutputItem),
  error: Schema.optional(Schema.NullOr(Schema.Struct({ message: Schema.optional(Schema.String), type: Schema.optional(Schema.String) }))),
  incomplete_details: Schema.optional(Schema.NullOr(Schema.Struct({ reason: Schema.optional(Schema.NullOr(Schema.String)) }))),
  usage: Schema.optional(Schema.NullOr(Schema.Struct({
    input_tokens: Schema.optional(Schema.Unknown),
    output_tokens: Schema.optional(Schema.Unknown),
    cost: Schema.optional(Schema.NullOr(Schema.Struct({
      total_cost: Schema.optional(Schema.Unknown),
      currency: Schema.optional(Schema.NullOr(Schema.String))
    })))
  })))
})
type AgentBody = typeof AgentBody.Type

const itemsOf = (body: AgentBody, type: string) => body.output.filter((item) => item.type === type)

const textParts = (body: AgentBody) =>
  itemsOf(body, "message").map((item) => (item.content ?? []).filter((part) => part.type === "output_text"))

/** The `[n]` and `[n, m]` markers of a text, in order. */
export const markersOf = (text: string): ReadonlyArray<number> =>
  [...text.matchAll(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g)].flatMap((match) => match[1]!.split(",").map((n) => Number(n.trim())))

/** The answer read from an Agent API body. */
export const readAgent = (body: AgentBody) => {
  const text = textParts(body).map((parts) => parts.map((part) => part.text ?? "").join("")).filter((t) => t !== "").join("\n\n")
  const results = itemsOf(body, "search_results").flatMap((item) => item.results ?? [])
  // A result is numbered by its `id`, or by its place among all results when it has none.
  const byNumber = new Map(results.flatMap((result, index) => result.url === undefined ? [] : [[result.id ?? index + 1, result.url] as const]))
  const annotated = textParts(body).flat().flatMap((part) => part.annotations ?? []).flatMap((annotation) =>
    annotation.type === "url_citation" && annotation.url !== undefined ? [annotation.url] : []
  )
  const marked = markersOf(text).flatMap((n) => {
    const url = byNumber.get(n)
    return url === undefined ? [] : [url]
  })
  const reason = body.incomplete_details?.reason
  const finishReason: FinishReason = body.status !== "incomplete"
    ? "complete"
    : reason === "max_output_tokens" ? "max_tokens" : reason === "content_filter" ? "content_filter" : "other"
  const cost = body.usage?.cost
  const totalCost = cost?.total_cost
  return answerOf({
    text,
    citations: [...annotated, ...marked],
    model: body.model,
    finishReason,
    usage: {
      inputTokens: count(body.usage?.input_tokens),
      outputTokens: count(body.usage?.output_tokens),
      costUsd: typeof totalCost === "number" && totalCost >= 0 && (cost?.currency ?? "USD") === "USD" ? totalCost : null
    },
    searchQueries: itemsOf(body, "search_results").flatMap((item) => item.queries ?? []),
    retrieved: results.flatMap((result) => result.url === undefined ? [] : [result.url])
  })
}

export const makePerplexity = (settings: ProviderSettings): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  makeBearerJsonClient({
    platform: "perplexity",
    settings,
    path: "/v1/agent",
    body: (question) => ({
      model: settings.model,
      input: question.prompt,
      tools: [{ type: "web_search", user_location: { country: question.country } }]
    }),
    schema: AgentBody,
    read: (body, call) => {
      if (body.status === "failed" || body.status === "cancelled") {
        return Effect.fail(failedInBody(call, "unavailable", `the run ${body.status}: ${body.error?.message ?? "no reason given"}`))
      }
      if (body.status !== "completed" && body.status !== "incomplete") {
        return Effect.fail(failedInBody(call, "unavailable", `the run is still ${body.status}`))
      }
      return Effect.succeed(readAgent(body))
    }
  })
