import { HttpClient } from "@effect/platform"
import { Effect, Schema } from "effect"
import type { PlatformClient } from "../Platform.ts"
import { distinct, makeBearerJsonClient, type ProviderSettings } from "./Http.ts"

/**
 * ChatGPT through the OpenAI Responses API with the hosted `web_search` tool. The answer is the
 * `output_text` parts of the `message` items; the citations are their `url_citation` annotations.
 */

const Annotation = Schema.Struct({ type: Schema.String, url: Schema.optional(Schema.String) })

const ContentPart = Schema.Struct({
  type: Schema.String,
  text: Schema.optional(Schema.String),
  annotations: Schema.optional(Schema.Array(Annotation))
})

/** Items other than `message` (web_search_call, reasoning) are read only for their type. */
const OutputItem = Schema.Struct({
  type: Schema.String,
  content: Schema.optional(Schema.NullOr(Schema.Array(ContentPart)))
})

export const ResponsesBody = Schema.Struct({ output: Schema.Array(OutputItem) })

/** The `output_text` parts of the `message` items, in order. */
const textParts = (body: typeof ResponsesBody.Type) =>
  body.output
    .filter((item) => item.type === "message")
    .flatMap((item) => item.content ?? [])
    .filter((part) => part.type === "output_text")

export const textOf = (body: typeof ResponsesBody.Type): string => textParts(body).map((part) => part.text ?? "").join("")

export const answerOf = (body: typeof ResponsesBody.Type): { text: string; citations: ReadonlyArray<string> } => {
  const parts = textParts(body)
  return {
    text: textOf(body),
    citations: distinct(
      parts.flatMap((part) => part.annotations ?? [])
        .filter((annotation) => annotation.type === "url_citation" && annotation.url !== undefined)
        .map((annotation) => annotation.url!)
    )
  }
}

export const makeOpenAi = (settings: ProviderSettings): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  makeBearerJsonClient({
    platform: "chatgpt",
    settings,
    path: "/v1/responses",
    body: (question) => ({
      model: settings.model,
      input: question.prompt,
      tools: [{ type: "web_search", user_location: { type: "approximate", country: question.country } }]
    }),
    schema: ResponsesBody,
    answerOf
  })
