import type { HttpClient } from "@effect/platform"
import { Effect, Schema } from "effect"
import { citationsFromText } from "../../Detection/Citations.ts"
import type { PlatformClient } from "../Platform.ts"
import { makeBearerJsonClient, type ProviderSettings } from "./Http.ts"
import { readResponses, ResponsesBody, textOf, urlCitationsOf } from "./OpenAi.ts"

/**
 * Grok through xAI's Responses API (`POST /v1/responses`) with its server-side `web_search` tool. xAI
 * retired Live Search (`search_parameters` on chat completions answers 410 Gone); the tool that replaced
 * it takes no country, so none is sent. The body is OpenAI's Responses shape (xai-sdk-ts
 * `src/types.ts`: `OutputMessage`, `WebSearchCall`, `UrlCitation`), read as `OpenAi.ts` reads it, with
 * xAI's two kinds of citations (docs.x.ai/developers/tools/citations):
 *
 * - the inline citations are the cited sources: the `url_citation` annotations of the answer, or, when
 *   the response carries none, the markdown links the model wrote into its text (`[[1]](url)`);
 * - the top-level `citations` list is "all citations": every source the agent encountered, cited or
 *   not. Those not cited are retrieved.
 *
 * `usage.cost_in_usd_ticks` is the request's cost in 1e-10 USD.
 */

export const XaiResponsesBody = Schema.Struct({
  ...ResponsesBody.fields,
  citations: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  usage: Schema.optional(Schema.NullOr(Schema.Struct({
    input_tokens: Schema.optional(Schema.Unknown),
    output_tokens: Schema.optional(Schema.Unknown),
    cost_in_usd_ticks: Schema.optional(Schema.Unknown)
  })))
})
type XaiResponsesBody = typeof XaiResponsesBody.Type

/** One USD is 1e10 ticks. */
const USD_PER_TICK = 1e-10

/** The inline citations: the annotations, or the links of the text when there are none. */
export const inlineCitationsOf = (body: XaiResponsesBody): ReadonlyArray<string> => {
  const annotated = urlCitationsOf(body)
  return annotated.length > 0 ? annotated : citationsFromText(textOf(body))
}

export const makeXai = (settings: ProviderSettings): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  makeBearerJsonClient({
    platform: "grok",
    settings,
    path: "/v1/responses",
    body: (question) => ({
      model: settings.model,
      input: question.prompt,
      tools: [{ type: "web_search" }],
      // Nothing to continue later (the API keeps responses 30 days by default).
      store: false
    }),
    schema: XaiResponsesBody,
    read: (body, call) =>
      Effect.map(
        readResponses(body, call, () => ({ cited: inlineCitationsOf(body), retrieved: body.citations ?? [] })),
        (answer) => ({ ...answer, usage: { ...answer.usage, costUsd: costOf(body.usage?.cost_in_usd_ticks) } })
      )
  })

/** The cost in USD of a tick count, when it is one. */
const costOf = (ticks: unknown): number | null =>
  typeof ticks === "number" && Number.isFinite(ticks) && ticks >= 0 ? ticks * USD_PER_TICK : null
