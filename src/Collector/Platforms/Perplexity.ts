import { HttpClient } from "@effect/platform"
import { Effect, Schema } from "effect"
import type { PlatformClient } from "../Platform.ts"
import { makeBearerJsonClient, type ProviderSettings } from "./Http.ts"

/**
 * Perplexity through the Sonar chat completions API, which always searches the web. Citations are the
 * top-level `citations` list, or, when a response carries only the newer `search_results`, their URLs,
 * as given (a source list, one entry per source).
 */

export const SonarBody = Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({ message: Schema.Struct({ content: Schema.String }) })),
  citations: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  search_results: Schema.optional(Schema.NullOr(Schema.Array(Schema.Struct({ url: Schema.String }))))
})

export const answerOf = (body: typeof SonarBody.Type) => ({
  text: body.choices[0].message.content,
  citations: body.citations ?? (body.search_results ?? []).map((result) => result.url)
})

export const makePerplexity = (settings: ProviderSettings): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  makeBearerJsonClient({
    platform: "perplexity",
    settings,
    path: "/chat/completions",
    body: (question) => ({
      model: settings.model,
      messages: [{ role: "user", content: question.prompt }],
      web_search_options: { user_location: { country: question.country } }
    }),
    schema: SonarBody,
    answerOf
  })
