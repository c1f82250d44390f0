import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Duration, Effect, Option, Redacted, Schema } from "effect"
import type { FinishReason } from "../../Domain/Response.ts"
import type { Answer, PlatformClient, Question } from "../Platform.ts"
import { makeRedirectResolver, type RedirectResolver, titleUrl } from "./GroundingRedirects.ts"
import { answerOf, type Call, type Classify, count, endpoint, type ProviderSettings, send } from "./Http.ts"

/**
 * Gemini through the Gemini API's `generateContent` with Grounding with Google Search, read as js-genai's
 * `src/types.ts` types it (`GenerateContentResponse`, `Candidate`, `FinishReason`, `GroundingMetadata`,
 * `GroundingChunkWeb`, `GroundingSupport`, `GenerateContentResponseUsageMetadata`):
 *
 * - the answer is the first candidate's text parts (thought summaries left out); the model that
 *   answered is `modelVersion`;
 * - the cited sources are the grounding chunks some `groundingSupports` entry names (in the order the
 *   text cites them); the other chunks were retrieved. Each chunk's `uri` is a Google redirect link,
 *   resolved to the page's own URL (`GroundingRedirects.ts`);
 * - a prompt blocked (`promptFeedback.blockReason`) or an answer stopped by a safety filter before any
 *   text is a refusal;
 * - a 429's retry delay is in its body (`google.rpc.RetryInfo`), not in a header; a daily quota, or a
 *   tier with no quota at all for the model (`QuotaFailure`), is `quota_exceeded`.
 *
 * The API takes no country for Google Search, so none is sent.
 */

const Part = Schema.Struct({ text: Schema.optional(Schema.String), thought: Schema.optional(Schema.Boolean) })

const Chunk = Schema.Struct({
  web: Schema.optional(Schema.Struct({ uri: Schema.optional(Schema.String), title: Schema.optional(Schema.String) }))
})

const Candidate = Schema.Struct({
  content: Schema.optional(Schema.Struct({ parts: Schema.optional(Schema.Array(Part)) })),
  finishReason: Schema.optional(Schema.String),
  groundingMetadata: Schema.optional(Schema.Struct({
    groundingChunks: Schema.optional(Schema.Array(Chunk)),
    groundingSupports: Schema.optional(Schema.Array(Schema.Struct({
      groundingChunkIndices: Schema.optional(Schema.Array(Schema.Number))
    }))),
    webSearchQueries: Schema.optional(Schema.Array(Schema.String))
  }))
})

export const GenerateContentBody = Schema.Struct({
  candidates: Schema.optional(Schema.Array(Candidate)),
  promptFeedback: Schema.optional(Schema.Struct({ blockReason: Schema.optional(Schema.String) })),
  modelVersion: Schema.optional(Schema.String),
  usageMetadata: Schema.optional(Schema.Struct({
    promptTokenCount: Schema.optional(Schema.Unknown),
    toolUsePromptTokenCount: Schema.optional(Schema.Unknown),
    candidatesTokenCount: Schema.optional(Schema.Unknown),
    thoughtsTokenCount: Schema.optional(Schema.Unknown)
  }))
})
type GenerateContentBody = typeof GenerateContentBody.Type

/** js-genai's `FinishReason` in the service's words. */
export const finishOf = (reason: string | undefined): FinishReason | null => {
  switch (reason) {
    case undefined:
      return null
    case "STOP":
      return "complete"
    case "MAX_TOKENS":
      return "max_tokens"
    case "SAFETY":
    case "RECITATION":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
    case "IMAGE_PROHIBITED_CONTENT":
    case "IMAGE_RECITATION":
      return "content_filter"
    default:
      return "other"
  }
}

/** The grounding chunks of a candidate: those the supports cite (in citing order), and the others. */
export const chunksOf = (candidate: typeof Candidate.Type | undefined) => {
  const chunks = candidate?.groundingMetadata?.groundingChunks ?? []
  const citedIndexes = [
    ...new Set((candidate?.groundingMetadata?.groundingSupports ?? []).flatMap((support) => support.groundingChunkIndices ?? []))
  ].filter((index) => Number.isInteger(index) && index >= 0 && index < chunks.length)
  const cited = new Set(citedIndexes)
  return {
    cited: citedIndexes.map((index) => chunks[index]!),
    retrieved: chunks.filter((_, index) => !cited.has(index))
  }
}

/** `"46s"`, `"0.5s"`: a protobuf Duration in JSON. */
const protoDuration = (value: unknown): Duration.Duration | undefined => {
  if (typeof value !== "string") return undefined
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim())
  return match === null ? undefined : Duration.millis(Math.round(Number(match[1]) * 1000))
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/**
 * Gemini's 429s: `error.details` holds a `google.rpc.RetryInfo` (`retryDelay`) and a
 * `google.rpc.QuotaFailure` naming the quotas exceeded. A per-day quota, or one whose limit is 0 (the
 * key's tier has none for this model), will not pass by trying again within the hour.
 */
export const classifyGeminiError: Classify = ({ json, status }) => {
  const error = isRecord(json) && isRecord(json.error) ? json.error : undefined
  const details = Array.isArray(error?.details) ? error.details.filter(isRecord) : []
  const retryInfo = details.find((detail) => String(detail["@type"] ?? "").endsWith("google.rpc.RetryInfo"))
  const violations = details
    .filter((detail) => String(detail["@type"] ?? "").endsWith("google.rpc.QuotaFailure"))
    .flatMap((detail) => (Array.isArray(detail.violations) ? detail.violations.filter(isRecord) : []))
  const exhausted = violations.some((violation) =>
    /PerDay/i.test(String(violation.quotaId ?? "")) || String(violation.quotaValue ?? "") === "0"
  ) || (typeof error?.message === "string" && /limit: 0\b/.test(error.message))
  return {
    kind: status === 429 && exhausted ? "quota_exceeded" : undefined,
    retryAfter: protoDuration(retryInfo?.retryDelay)
  }
}

/** The answer of a body, its chunks' links resolved. */
export const readGenerateContent = (body: GenerateContentBody, resolver: RedirectResolver): Effect.Effect<Answer> =>
  Effect.gen(function*() {
    const candidate = body.candidates?.[0]
    // Thought summaries, when a model sends them, are not the answer.
    const text = (candidate?.content?.parts ?? []).filter((part) => part.thought !== true).map((part) => part.text ?? "").join("")
    const blocked = body.promptFeedback?.blockReason !== undefined
    const finishReason = blocked ? "content_filter" : finishOf(candidate?.finishReason)
    const refused = text.trim() === "" && (blocked || finishReason === "content_filter")
    const { cited, retrieved } = chunksOf(candidate)
    const urls = (chunks: ReadonlyArray<typeof Chunk.Type>) =>
      Effect.map(
        Effect.forEach(chunks, (chunk) =>
          chunk.web?.uri === undefined
            ? Effect.succeed(titleUrl(chunk.web?.title))
            : resolver.resolve(chunk.web.uri, chunk.web.title), { concurrency: 8 }),
        (resolved) => resolved.flatMap(Option.toArray)
      )
    const usage = body.usageMetadata
    const sum = (...values: ReadonlyArray<unknown>) => {
      const counts = values.map(count)
      return counts.every((value) => value === null) ? null : counts.reduce<number>((total, value) => total + (value ?? 0), 0)
    }
    return answerOf({
      text,
      citations: yield* urls(cited),
      state: refused ? "refused" : undefined,
      model: body.modelVersion,
      finishReason,
      usage: {
        inputTokens: sum(usage?.promptTokenCount, usage?.toolUsePromptTokenCount),
        outputTokens: sum(usage?.candidatesTokenCount, usage?.thoughtsTokenCount),
        costUsd: null
      },
      searchQueries: candidate?.groundingMetadata?.webSearchQueries ?? [],
      retrieved: yield* urls(retrieved)
    })
  })

export interface GeminiOptions {
  /** Where grounding links point (tests: a local stand-in); Google's redirect host otherwise. */
  readonly redirectOrigin?: string | undefined
}

export const makeGemini = (
  settings: ProviderSettings,
  options: GeminiOptions = {}
): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const resolver = yield* makeRedirectResolver({ origin: options.redirectOrigin })
    const call: Call = { platform: "gemini", secrets: [settings.apiKey], model: settings.model, classify: classifyGeminiError }
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
      ).pipe(Effect.flatMap((body) => readGenerateContent(body, resolver)))
    return { platform: "gemini", ask }
  })
