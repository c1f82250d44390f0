import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Redacted, Schema } from "effect"
import type { PlatformClient, Question } from "../Platform.ts"
import { answer, type Call, endpoint, type ProviderSettings, send } from "./Http.ts"

/**
 * Grok through xAI's chat completions API with Live Search switched on for the web, in the monitor's
 * country. The citations are the top-level `citations` list Live Search returns.
 */

export const ChatBody = Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({ message: Schema.Struct({ content: Schema.NullOr(Schema.String) }) })),
  citations: Schema.optional(Schema.NullOr(Schema.Array(Schema.String)))
})

export const answerOf = (body: typeof ChatBody.Type) => ({
  text: body.choices[0].message.content ?? "",
  citations: body.citations ?? []
})

export const makeXai = (settings: ProviderSettings): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => {
    const call: Call = { platform: "grok", secrets: [settings.apiKey] }
    const ask = (question: Question) =>
      send(
        client,
        call,
        HttpClientRequest.post(endpoint(settings.baseUrl, "/v1/chat/completions")).pipe(
          HttpClientRequest.bearerToken(Redacted.value(settings.apiKey)),
          HttpClientRequest.bodyUnsafeJson({
            model: settings.model,
            messages: [{ role: "user", content: question.prompt }],
            search_parameters: {
              mode: "on",
              return_citations: true,
              sources: [{ type: "web", country: question.country }]
            }
          })
        ),
        ChatBody
      ).pipe(Effect.flatMap((body) => answer(call, answerOf(body))))
    return { platform: "grok", ask }
  })
