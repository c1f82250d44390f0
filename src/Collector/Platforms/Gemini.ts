import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Redacted, Schema } from "effect"
import type { PlatformClient, Question } from "../Platform.ts"
import { answer, type Call, endpoint, type ProviderSettings, send } from "./Http.ts"

/**
 * Gemini through the Gemini API's `generateContent` with Google Search grounding. The grounding chunks
 * are the sources the answer rests on. The API takes no country for Google Search, so none is sent.
 */

const Part = Schema.Struct({ text: Schema.optional(Schema.String), thought: Schema.optional(Schema.Boolean) })

const Candidate = Schema.Struct({
  content: Schema.optional(Schema.Struct({ parts: Schema.optional(Schema.Array(Part)) })),
  groundingMetadata: Schema.optional(Schema.Struct({
    groundingChunks: Schema.optional(Schema.Array(Schema.Struct({
      web: Schema.optional(Schema.Struct({ uri: Schema.optional(Schema.String) }))
    })))
  }))
})

export const GenerateContentBody = Schema.Struct({ candidates: Schema.NonEmptyArray(Candidate) })

export const answerOf = (body: typeof GenerateContentBody.Type) => {
  const candidate = body.candidates[0]
  return {
    // Thought summaries, when a model sends them, are not the answer.
    text: (candidate.content?.parts ?? []).filter((part) => part.thought !== true).map((part) => part.text ?? "")
      .join(""),
    citations: (candidate.groundingMetadata?.groundingChunks ?? []).flatMap((chunk) =>
      chunk.web?.uri === undefined ? [] : [chunk.web.uri]
    )
  }
}

export const makeGemini = (settings: ProviderSettings): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => {
    const call: Call = { platform: "gemini", secrets: [settings.apiKey] }
    const path = `/v1beta/models/${encodeURIComponent(settings.model)}:generateContent`
    const ask = (question: Question) =>
      send(
        client,
        call,
        HttpClientRequest.post(endpoint(settings.baseUrl, path)).pipe(
          HttpClientRequest.setHeader("x-goog-api-key", Redacted.value(settings.apiKey)),
          HttpClientRequest.bodyUnsafeJson({
            contents: [{ role: "user", parts: [{ text: question.prompt }] }],
            tools: [{ google_search: {} }]
          })
        ),
        GenerateContentBody
      ).pipe(Effect.flatMap((body) => answer(call, answerOf(body))))
    return { platform: "gemini", ask }
  })
