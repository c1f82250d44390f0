import type { HttpClient } from "@effect/platform"
import { Effect, Schema } from "effect"
import type { FinishReason } from "../../Domain/Response.ts"
import type { Answer, PlatformClient, PlatformFailure } from "../Platform.ts"
import { answerOf, type Call, count, failedInBody, makeBearerJsonClient, type ProviderSettings } from "./Http.ts"

/**
 * ChatGPT through the OpenAI Responses API (`POST /v1/responses`) with the hosted `web_search` tool, read
 * as openai-node's `src/resources/responses/responses.ts` types it (`Response`, `ResponseOutputMessage`,
 * `ResponseFunctionWebSearch`, `ResponseUsage`):
 *
 * - the answer is the `output_text` parts of the final-answer `message` items: a message whose `phase`
 *   is `commentary` is the model thinking aloud between tool calls, not its answer;
 * - the citations are their `url_citation` annotations; what the searches went through
 *   (`web_search_call.action.sources`, asked for with `include`, and pages opened) is retrieved;
 * - a `refusal` part with no answer text is a refusal (stored, not a failure); `status: "incomplete"` is
 *   an answer cut short (`incomplete_details.reason`), `failed` and `cancelled` a failure.
 */

const Annotation = Schema.Struct({ type: Schema.String, url: Schema.optional(Schema.String) })

const ContentPart = Schema.Struct({
  type: Schema.String,
  text: Schema.optional(Schema.String),
  refusal: Schema.optional(Schema.String),
  annotations: Schema.optional(Schema.Array(Annotation))
})

/** A web search call's action: `search` (queries, sources), `open_page` (url) or `find_in_page`. */
const Action = Schema.Struct({
  type: Schema.String,
  query: Schema.optional(Schema.NullOr(Schema.String)),
  queries: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  sources: Schema.optional(Schema.NullOr(Schema.Array(Schema.Struct({ url: Schema.optional(Schema.String) })))),
  url: Schema.optional(Schema.NullOr(Schema.String))
})

/** Items other than `message` and `web_search_call` (reasoning, ...) are read only for their type. */
const OutputItem = Schema.Struct({
  type: Schema.String,
  phase: Schema.optional(Schema.NullOr(Schema.String)),
  content: Schema.optional(Schema.NullOr(Schema.Array(ContentPart))),
  action: Schema.optional(Schema.NullOr(Action))
})

export const ResponsesBody = Schema.Struct({
  status: Schema.optional(Schema.String),
  model: Schema.optional(Schema.NullOr(Schema.String)),
  output: Schema.Array(OutputItem),
  incomplete_details: Schema.optional(Schema.NullOr(Schema.Struct({ reason: Schema.optional(Schema.NullOr(Schema.String)) }))),
  error: Schema.optional(Schema.NullOr(Schema.Struct({ message: Schema.optional(Schema.String), code: Schema.optional(Schema.NullOr(Schema.String)) }))),
  usage: Schema.optional(Schema.NullOr(Schema.Struct({
    input_tokens: Schema.optional(Schema.Unknown),
    output_tokens: Schema.optional(Schema.Unknown)
  })))
})
export type ResponsesBody = typeof ResponsesBody.Type

/** The final-answer messages: every `message` but the commentary. */
const finalMessages = (body: ResponsesBody) =>
  body.output.filter((item) => item.type === "message" && item.phase !== "commentary")

/** The parts of a message of one type, in order. */
const partsOf = (item: typeof OutputItem.Type, type: string) => (item.content ?? []).filter((part) => part.type === type)

/** The answer text: each message's `output_text` parts joined, the messages a paragraph apart. */
export const textOf = (body: ResponsesBody): string =>
  finalMessages(body)
    .map((item) => partsOf(item, "output_text").map((part) => part.text ?? "").join(""))
    .filter((text) => text !== "")
    .join("\n\n")

/** The `url_citation` annotations of the answer, in order. */
export const urlCitationsOf = (body: ResponsesBody): ReadonlyArray<string> =>
  finalMessages(body).flatMap((item) =>
    partsOf(item, "output_text").flatMap((part) => part.annotations ?? []).flatMap((annotation) =>
      annotation.type === "url_citation" && annotation.url !== undefined ? [annotation.url] : []
    )
  )

/** The refusal of the answer, when the model declined. */
const refusalOf = (body: ResponsesBody): string =>
  finalMessages(body).flatMap((item) => partsOf(item, "refusal")).map((part) => part.refusal ?? part.text ?? "").join("\n\n")

/** The searches run (`action.queries`, or the older single `action.query`), in order. */
export const searchQueriesOf = (body: ResponsesBody): ReadonlyArray<string> =>
  body.output.flatMap((item) =>
    item.type === "web_search_call" && item.action?.type === "search"
      ? item.action.queries ?? (item.action.query === undefined || item.action.query === null ? [] : [item.action.query])
      : []
  )

/** What the searches went through: their sources and the pages opened. */
const retrievedOf = (body: ResponsesBody): ReadonlyArray<string> =>
  body.output.flatMap((item) => {
    if (item.type !== "web_search_call" || item.action === undefined || item.action === null) return []
    const sources = (item.action.sources ?? []).flatMap((source) => source.url === undefined ? [] : [source.url])
    return item.action.url === undefined || item.action.url === null ? sources : [...sources, item.action.url]
  })

/** `incomplete_details.reason` in the service's words. */
const finishOf = (body: ResponsesBody, refused: boolean): FinishReason => {
  if (refused) return "refusal"
  if (body.status !== "incomplete") return "complete"
  const reason = body.incomplete_details?.reason
  return reason === "max_output_tokens" ? "max_tokens" : reason === "content_filter" ? "content_filter" : "other"
}

/** A Responses body (OpenAI's, or xAI's, which has the same shape) read into an answer, or the failure it reports. */
export const readResponses = (
  body: ResponsesBody,
  call: Call,
  citations: (body: ResponsesBody) => { readonly cited: ReadonlyArray<string>; readonly retrieved: ReadonlyArray<string> }
): Effect.Effect<Answer, PlatformFailure> => {
  if (body.status === "failed" || body.status === "cancelled") {
    return Effect.fail(failedInBody(call, "unavailable", `the response ${body.status}: ${body.error?.message ?? "no reason given"}`))
  }
  if (body.status === "in_progress" || body.status === "queued") {
    return Effect.fail(failedInBody(call, "unavailable", `the response is still ${body.status}`))
  }
  const text = textOf(body)
  const refusal = refusalOf(body)
  const refused = text.trim() === "" && refusal.trim() !== ""
  const { cited, retrieved } = citations(body)
  return Effect.succeed(answerOf({
    text: refused ? refusal : text,
    citations: cited,
    state: refused ? "refused" : undefined,
    model: body.model,
    finishReason: finishOf(body, refused),
    usage: {
      inputTokens: count(body.usage?.input_tokens),
      outputTokens: count(body.usage?.output_tokens),
      costUsd: null
    },
    searchQueries: searchQueriesOf(body),
    retrieved
  }))
}

export const makeOpenAi = (settings: ProviderSettings): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  makeBearerJsonClient({
    platform: "chatgpt",
    settings,
    path: "/v1/responses",
    body: (question) => ({
      model: settings.model,
      input: question.prompt,
      tools: [{ type: "web_search", user_location: { type: "approximate", country: question.country } }],
      // The sources each search went through, which the response leaves out unless asked.
      include: ["web_search_call.action.sources"],
      // Nothing to continue later: the answer is not kept on OpenAI's side.
      store: false
    }),
    schema: ResponsesBody,
    read: (body, call) =>
      readResponses(body, call, (body) => ({ cited: urlCitationsOf(body), retrieved: retrievedOf(body) }))
  })
