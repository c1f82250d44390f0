import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Redacted, Schema } from "effect"
import type { PlatformClient, Question } from "../Platform.ts"
import { answer, type Call, endpoint, send } from "./Http.ts"

/**
 * Copilot, Google AI Mode and Google AI Overviews have no public API: a SERP provider (SerpApi, or any
 * service answering in its JSON shape) reads them. One key and base URL serve all three.
 *
 * - `copilot`: engine `bing_copilot`; the answer is the body's `text_blocks` and `references`.
 * - `google_ai_mode`: engine `google_ai_mode`; the same fields.
 * - `google_ai_overview`: engine `google`; the same fields inside `ai_overview`. When Google loads the
 *   overview lazily, `ai_overview` holds only a `page_token`, fetched at once with engine
 *   `google_ai_overview` (the token lives a few minutes).
 */

export type SerpPlatform = "copilot" | "google_ai_mode" | "google_ai_overview"

export const serpPlatforms: ReadonlyArray<SerpPlatform> = ["copilot", "google_ai_mode", "google_ai_overview"]

export interface SerpSettings {
  readonly apiKey: Redacted.Redacted
  readonly baseUrl: string
}

interface ListItem {
  readonly snippet?: string | undefined
  readonly list?: ReadonlyArray<ListItem> | undefined
}

const ListItem: Schema.Schema<ListItem> = Schema.Struct({
  snippet: Schema.optional(Schema.String),
  list: Schema.optional(Schema.Array(Schema.suspend(() => ListItem)))
})

const TextBlock = Schema.Struct({
  type: Schema.optional(Schema.String),
  snippet: Schema.optional(Schema.String),
  list: Schema.optional(Schema.Array(ListItem))
})

const Reference = Schema.Struct({ link: Schema.optional(Schema.String) })

/** The answer fields, at the top of the body or inside `ai_overview`. */
const AnswerFields = {
  text_blocks: Schema.optional(Schema.Array(TextBlock)),
  references: Schema.optional(Schema.Array(Reference))
}

export const SerpBody = Schema.Struct({
  ...AnswerFields,
  ai_overview: Schema.optional(Schema.Struct({ ...AnswerFields, page_token: Schema.optional(Schema.String) })),
  /** SerpApi reports some failures (no results, search failed) with a 200 and this field. */
  error: Schema.optional(Schema.String)
})

type SerpBody = typeof SerpBody.Type

const snippetsOf = (items: ReadonlyArray<ListItem>): ReadonlyArray<string> =>
  items.flatMap((item) => [...(item.snippet === undefined ? [] : [item.snippet]), ...snippetsOf(item.list ?? [])])

/** The blocks' snippets, one a line, list items after their heading block. */
export const answerOf = (fields: {
  readonly text_blocks?: ReadonlyArray<typeof TextBlock.Type> | undefined
  readonly references?: ReadonlyArray<typeof Reference.Type> | undefined
}) => ({
  text: snippetsOf(fields.text_blocks ?? []).join("\n"),
  citations: (fields.references ?? []).flatMap((reference) => reference.link === undefined ? [] : [reference.link])
})

const engineOf: Record<SerpPlatform, string> = {
  copilot: "bing_copilot",
  google_ai_mode: "google_ai_mode",
  google_ai_overview: "google"
}

export const makeSerp = (
  platform: SerpPlatform,
  settings: SerpSettings
): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => {
    const call: Call = { platform, secrets: [settings.apiKey] }
    const search = (params: Record<string, string>) =>
      send(
        client,
        call,
        HttpClientRequest.get(endpoint(settings.baseUrl, "/search.json"), {
          urlParams: { ...params, api_key: Redacted.value(settings.apiKey) }
        }),
        SerpBody
      )

    const emptyReason = (body: SerpBody) => body.error ?? "response has no answer text"

    const ask = (question: Question) => {
      // Google's engines take the country as `gl`; SerpApi's Bing Copilot engine takes no location.
      const country: Record<string, string> = platform === "copilot" ? {} : { gl: question.country.toLowerCase() }
      const first = search({ engine: engineOf[platform], q: question.prompt, ...country })
      if (platform !== "google_ai_overview") {
        return Effect.flatMap(first, (body) => answer(call, answerOf(body), emptyReason(body)))
      }
      return Effect.flatMap(first, (body) => {
        const overview = body.ai_overview
        if (overview === undefined) {
          return answer(call, { text: "", citations: [] }, body.error ?? "Google showed no AI overview for this query")
        }
        if ((overview.text_blocks ?? []).length === 0 && overview.page_token !== undefined) {
          return Effect.flatMap(
            search({ engine: "google_ai_overview", page_token: overview.page_token }),
            // SerpApi nests the answer in `ai_overview` here too; a provider that does not is read as well.
            (next) => answer(call, answerOf(next.ai_overview ?? next), emptyReason(next))
          )
        }
        return answer(call, answerOf(overview), emptyReason(body))
      })
    }
    return { platform, ask }
  })
