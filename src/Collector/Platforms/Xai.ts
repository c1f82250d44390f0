import { HttpClient } from "@effect/platform"
import { Effect, Schema } from "effect"
import type { PlatformClient } from "../Platform.ts"
import { makeBearerJsonClient, type ProviderSettings } from "./Http.ts"
import { ResponsesBody, textOf } from "./OpenAi.ts"

/**
 * Grok through xAI's Responses API with its server-side `web_search` tool. xAI retired Live Search
 * (`search_parameters` on chat completions now answers 410 Gone), and the tool that replaced it takes no
 * country, so none is sent. The body is shaped like OpenAI's Responses; the citations are xAI's
 * top-level `citations`: every source the search went through, in its order.
 */

export const XaiResponsesBody = Schema.Struct({
  ...ResponsesBody.fields,
  citations: Schema.optional(Schema.NullOr(Schema.Array(Schema.String)))
})

export const answerOf = (body: typeof XaiResponsesBody.Type) => ({
  text: textOf(body),
  citations: body.citations ?? []
})

export const makeXai = (settings: ProviderSettings): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  makeBearerJsonClient({
    platform: "grok",
    settings,
    path: "/v1/responses",
    body: (question) => ({ model: settings.model, input: question.prompt, tools: [{ type: "web_search" }] }),
    schema: XaiResponsesBody,
    answerOf
  })
