import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Array as Arr, Effect, Option, Redacted, Schema } from "effect"
import type { PlatformClient, PlatformFailure, Question } from "../Platform.ts"
import { answer, type Call, decode, distinct, endpoint, type ProviderSettings, send } from "./Http.ts"

/**
 * Claude through the Anthropic Messages API with the server-side web search tool. The answer is the
 * `text` blocks after the last search, in order (the API splits text around each cited passage, so
 * they join with nothing); the citations are their `web_search_result_location` entries.
 */

export const ANTHROPIC_VERSION = "2023-06-01"

/** How many searches one answer may run: bounds the cost of a question. */
const MAX_SEARCHES = 5

const Citation = Schema.Struct({ type: Schema.String, url: Schema.optional(Schema.NullOr(Schema.String)) })

/** Blocks other than `text` (server_tool_use, web_search_tool_result) are read only for their type. */
const ContentBlock = Schema.Struct({
  type: Schema.String,
  text: Schema.optional(Schema.String),
  citations: Schema.optional(Schema.NullOr(Schema.Array(Citation)))
})

/**
 * The body as sent back: the blocks are kept whole, since a paused turn is continued by sending them
 * back as they came (search results carry encrypted content).
 */
export const MessagesBody = Schema.Struct({
  content: Schema.Array(Schema.Unknown),
  stop_reason: Schema.optional(Schema.NullOr(Schema.String))
})

/**
 * With server tools, the API may pause a long turn (`stop_reason: "pause_turn"`); sending the turn back
 * lets it go on. This many continuations at most, then the answer is what was written so far.
 */
const MAX_CONTINUATIONS = 3

/** Blocks of the server-side search: the answer proper is the text that follows the last of them. */
const isSearchBlock = (block: { readonly type: string }) =>
  block.type === "server_tool_use" || block.type === "web_search_tool_result"

export const answerOf = (body: { readonly content: ReadonlyArray<typeof ContentBlock.Type> }) => {
  // Text before a search is the model's preamble ("I'll search for ..."), not its answer, and would
  // count its brand names as mentions.
  const answerStart = Option.match(Arr.findLastIndex(body.content, isSearchBlock), {
    onNone: () => 0,
    onSome: (index) => index + 1
  })
  const texts = body.content.slice(answerStart).filter((block) => block.type === "text")
  return {
    text: texts.map((block) => block.text ?? "").join(""),
    citations: distinct(
      texts.flatMap((block) => block.citations ?? []).flatMap((citation) =>
        citation.type === "web_search_result_location" && typeof citation.url === "string" ? [citation.url] : []
      )
    )
  }
}

export const makeAnthropic = (
  settings: ProviderSettings
): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => {
    const call: Call = { platform: "claude", secrets: [settings.apiKey] }
    const request = (question: Question, turnSoFar: ReadonlyArray<unknown>) =>
      HttpClientRequest.post(endpoint(settings.baseUrl, "/v1/messages")).pipe(
        HttpClientRequest.setHeaders({
          "x-api-key": Redacted.value(settings.apiKey),
          "anthropic-version": ANTHROPIC_VERSION
        }),
        HttpClientRequest.bodyUnsafeJson({
          model: settings.model,
          max_tokens: 4096,
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

    /** The assistant's whole turn: its blocks, over as many continuations as it was paused. */
    const turn = (
      question: Question,
      soFar: ReadonlyArray<unknown>,
      continuations: number
    ): Effect.Effect<ReadonlyArray<unknown>, PlatformFailure> =>
      Effect.flatMap(send(client, call, request(question, soFar), MessagesBody), (body) => {
        const blocks = [...soFar, ...body.content]
        return body.stop_reason === "pause_turn" && continuations < MAX_CONTINUATIONS
          ? turn(question, blocks, continuations + 1)
          : Effect.succeed(blocks)
      })

    const ask = (question: Question) =>
      turn(question, [], 0).pipe(
        Effect.flatMap((blocks) => decode(call, Schema.Array(ContentBlock), blocks)),
        Effect.flatMap((content) => answer(call, answerOf({ content })))
      )
    return { platform: "claude", ask }
  })
