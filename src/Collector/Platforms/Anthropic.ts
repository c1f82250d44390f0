import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Redacted, Schema } from "effect"
import type { FinishReason } from "../../Domain/Response.ts"
import type { Answer, PlatformClient, PlatformFailure, Question } from "../Platform.ts"
import { answerOf, type Call, count, decode, endpoint, failedInBody, type ProviderSettings, send } from "./Http.ts"

/**
 * Claude through the Anthropic Messages API (`POST /v1/messages`) with the server-side web search tool
 * (`web_search_20250305`, the basic version every model of the tool's page supports), read as
 * anthropic-sdk-typescript's `src/resources/messages/messages.ts` types it (`Message`, `TextBlock`,
 * `CitationsWebSearchResultLocation`, `ServerToolUseBlock`, `WebSearchToolResultBlock`,
 * `WebSearchToolResultError`, `StopReason`, `Usage`):
 *
 * - the answer is every `text` block of the turn, in order: the API splits the text around each cited
 *   passage, so consecutive blocks join with nothing, and text on either side of a search is a
 *   paragraph apart;
 * - the citations are their `web_search_result_location` entries; the results of the searches that no
 *   text cites were retrieved; the queries are the `server_tool_use` inputs;
 * - a search that failed (`web_search_tool_result_error`, which comes in a 200) fails the attempt: an
 *   answer written without its search is not the platform's answer. `too_many_requests` is a rate
 *   limit, the other codes a failure that may pass; `max_uses_exceeded` only means the answer used all
 *   the searches it was allowed, and is kept;
 * - `stop_reason: "refusal"` is a refusal (stored as such).
 */

export const ANTHROPIC_VERSION = "2023-06-01"

/** How many searches one answer may run: bounds the cost of a question. */
const MAX_SEARCHES = 5

/** The longest answer, in tokens. */
const MAX_TOKENS = 4096

const Citation = Schema.Struct({ type: Schema.String, url: Schema.optional(Schema.NullOr(Schema.String)) })

/** The blocks of a turn: text, the search calls (`input.query`) and their results (a list, or an error). */
const ContentBlock = Schema.Struct({
  type: Schema.String,
  text: Schema.optional(Schema.String),
  citations: Schema.optional(Schema.NullOr(Schema.Array(Citation))),
  name: Schema.optional(Schema.String),
  input: Schema.optional(Schema.Unknown),
  content: Schema.optional(Schema.Unknown)
})
type ContentBlock = typeof ContentBlock.Type

/**
 * The body as sent back: the blocks are kept whole, since a paused turn is continued by sending them
 * back as they came (search results carry encrypted content).
 */
export const MessagesBody = Schema.Struct({
  content: Schema.Array(Schema.Unknown),
  model: Schema.optional(Schema.NullOr(Schema.String)),
  stop_reason: Schema.optional(Schema.NullOr(Schema.String)),
  usage: Schema.optional(Schema.NullOr(Schema.Struct({
    input_tokens: Schema.optional(Schema.Unknown),
    output_tokens: Schema.optional(Schema.Unknown)
  })))
})
type MessagesBody = typeof MessagesBody.Type

/**
 * With server tools, the API may pause a long turn (`stop_reason: "pause_turn"`); sending the turn back
 * lets it go on. This many continuations at most, then the answer is what was written so far.
 */
const MAX_CONTINUATIONS = 3

const SearchResult = Schema.Struct({ type: Schema.String, url: Schema.optional(Schema.String) })
const SearchError = Schema.Struct({ type: Schema.Literal("web_search_tool_result_error"), error_code: Schema.String })

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** The text of a turn: consecutive text blocks joined with nothing, the runs a paragraph apart. */
const textOf = (content: ReadonlyArray<ContentBlock>): string => {
  const runs: Array<string> = []
  let run: string | undefined
  for (const block of content) {
    if (block.type === "text") {
      run = (run ?? "") + (block.text ?? "")
    } else if (run !== undefined) {
      runs.push(run)
      run = undefined
    }
  }
  if (run !== undefined) runs.push(run)
  return runs.filter((text) => text.trim() !== "").join("\n\n")
}

const finishOf = (stopReason: string | null | undefined): FinishReason | null => {
  switch (stopReason) {
    case "end_turn":
    case "stop_sequence":
      return "complete"
    case "max_tokens":
    case "model_context_window_exceeded":
      return "max_tokens"
    case "refusal":
      return "refusal"
    case undefined:
    case null:
      return null
    default:
      return "other"
  }
}

/** The answer of a whole turn (its blocks over every continuation, the last body's stop reason and model). */
export const readTurn = (
  call: Call,
  content: ReadonlyArray<ContentBlock>,
  last: Pick<MessagesBody, "model" | "stop_reason">,
  usage: { readonly input: number | null; readonly output: number | null }
): Effect.Effect<Answer, PlatformFailure> => {
  const errors = content.flatMap((block) =>
    block.type === "web_search_tool_result" && Schema.is(SearchError)(block.content) ? [block.content.error_code] : []
  )
  const failed = errors.filter((code) => code !== "max_uses_exceeded")
  if (failed.length > 0) {
    const kind = failed.includes("too_many_requests") ? "rate_limited" : "unavailable"
    return Effect.fail(failedInBody(call, kind, `a web search failed (${failed.join(", ")})`))
  }
  const refused = last.stop_reason === "refusal"
  return Effect.succeed(answerOf({
    text: textOf(content),
    citations: content.filter((block) => block.type === "text").flatMap((block) => block.citations ?? []).flatMap((citation) =>
      citation.type === "web_search_result_location" && typeof citation.url === "string" ? [citation.url] : []
    ),
    state: refused ? "refused" : undefined,
    model: last.model,
    finishReason: finishOf(last.stop_reason),
    usage: { inputTokens: usage.input, outputTokens: usage.output, costUsd: null },
    searchQueries: content.flatMap((block) =>
      block.type === "server_tool_use" && block.name === "web_search" && isRecord(block.input) && typeof block.input.query === "string"
        ? [block.input.query]
        : []
    ),
    retrieved: content.flatMap((block) =>
      block.type === "web_search_tool_result" && Array.isArray(block.content)
        ? block.content.flatMap((result) => Schema.is(SearchResult)(result) && result.url !== undefined ? [result.url] : [])
        : []
    )
  }))
}

/** Tokens summed over the continuations of a turn (each request is billed). */
const add = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0))

export const makeAnthropic = (
  settings: ProviderSettings
): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => {
    const call: Call = { platform: "claude", secrets: [settings.apiKey], model: settings.model }
    const request = (question: Question, turnSoFar: ReadonlyArray<unknown>) =>
      HttpClientRequest.post(endpoint(settings.baseUrl, "/v1/messages")).pipe(
        HttpClientRequest.setHeaders({
          "x-api-key": Redacted.value(settings.apiKey),
          "anthropic-version": ANTHROPIC_VERSION
        }),
        HttpClientRequest.bodyUnsafeJson({
          model: settings.model,
          max_tokens: MAX_TOKENS,
          messages: [
            { role: "user", content: question.prompt },
            ...(turnSoFar.length === 0 ? [] : [{ role: "assistant", content: turnSoFar }])
          ],
          tools: [{
            type: "web_search_20250305",
            name: "web_search",
            max_uses: MAX_SEARCHES,
            user_location: { type: "approximate", country: question.country }
          }]
        })
      )

    interface Turn {
      readonly blocks: ReadonlyArray<unknown>
      readonly last: MessagesBody
      readonly input: number | null
      readonly output: number | null
    }

    /** The assistant's whole turn: its blocks, over as many continuations as it was paused. */
    const turn = (question: Question, soFar: Turn | undefined, continuations: number): Effect.Effect<Turn, PlatformFailure> =>
      Effect.flatMap(send(client, call, request(question, soFar?.blocks ?? []), MessagesBody), (body) => {
        const next: Turn = {
          blocks: [...(soFar?.blocks ?? []), ...body.content],
          last: body,
          input: add(soFar?.input ?? null, count(body.usage?.input_tokens)),
          output: add(soFar?.output ?? null, count(body.usage?.output_tokens))
        }
        return body.stop_reason === "pause_turn" && continuations < MAX_CONTINUATIONS
          ? turn(question, next, continuations + 1)
          : Effect.succeed(next)
      })

    const ask = (question: Question) =>
      turn(question, undefined, 0).pipe(
        Effect.flatMap((whole) =>
          Effect.flatMap(
            decode(call, Schema.Array(ContentBlock), whole.blocks),
            (content) => readTurn(call, content, whole.last, { input: whole.input, output: whole.output })
          )
        )
      )
    return { platform: "claude", ask }
  })
