import { HttpClient, type HttpClientError, HttpClientRequest } from "@effect/platform"
import { Clock, Duration, Effect, Option, ParseResult, Redacted, Schema } from "effect"
import type { Platform } from "../../Domain/Platform.ts"
import { type Answer, type FailureKind, PlatformFailure, type PlatformClient, type Question } from "../Platform.ts"

/**
 * What every adapter shares: send one request, turn the HTTP outcome into either a decoded body or a
 * `PlatformFailure` of the right kind. Messages are built here from the status and a short excerpt of
 * the provider's own error text, never from `HttpClientError.message` (it holds the URL, and a SERP
 * URL holds the key), and every secret is scrubbed from them.
 */

/** Longest excerpt of a provider's error text kept in a failure message. */
const MAX_DETAIL = 200

/** Replaces each secret's value in `text`, so that a provider echoing a key does not leak it. */
export const scrub = (text: string, secrets: ReadonlyArray<Redacted.Redacted>): string =>
  secrets.reduce((acc, secret) => {
    const value = Redacted.value(secret)
    return value.length >= 4 ? acc.split(value).join("[redacted]") : acc
  }, text)

const shorten = (text: string): string => {
  const oneLine = text.replace(/\s+/g, " ").trim()
  return oneLine.length > MAX_DETAIL ? `${oneLine.slice(0, MAX_DETAIL)}…` : oneLine
}

/**
 * `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). A date in the past means
 * "now" (zero); anything unreadable is ignored.
 */
export const parseRetryAfter = (value: string | undefined, nowMillis: number): Option.Option<Duration.Duration> => {
  if (value === undefined) return Option.none()
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Option.some(Duration.seconds(Number(trimmed)))
  // Every HTTP date form names its month; this keeps Date.parse from reading "1.5" as a day in 2001.
  const at = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN
  if (Number.isNaN(at)) return Option.none()
  return Option.some(Duration.millis(Math.max(0, at - nowMillis)))
}

/** The provider's error text, from the shapes the supported providers use. */
const errorDetail = (body: string): string | undefined => {
  try {
    const json: unknown = JSON.parse(body)
    if (typeof json === "object" && json !== null && "error" in json) {
      const error = (json as { error: unknown }).error
      if (typeof error === "string") return error
      if (typeof error === "object" && error !== null && "message" in error) {
        const message = (error as { message: unknown }).message
        if (typeof message === "string") return message
      }
    }
    if (typeof json === "object" && json !== null && "message" in json) {
      const message = (json as { message: unknown }).message
      if (typeof message === "string") return message
    }
  } catch {
    // Not JSON: the status alone says enough.
  }
  return undefined
}

/** The failure kind of a non-2xx status. */
export const kindOfStatus = (status: number): FailureKind =>
  status === 429 ? "rate_limited" : status === 408 ? "timeout" : status >= 500 ? "unavailable" : "rejected"

export interface Call {
  readonly platform: Platform
  /** Scrubbed from every message. */
  readonly secrets: ReadonlyArray<Redacted.Redacted>
}

const failure = (call: Call, kind: FailureKind, text: string, retryAfter?: Duration.Duration) =>
  new PlatformFailure({
    platform: call.platform,
    kind,
    message: scrub(`${call.platform}: ${text}`, call.secrets),
    retryAfter
  })

export const malformed = (call: Call, reason: string): PlatformFailure => failure(call, "malformed", reason)

const transportFailure = (call: Call, error: HttpClientError.HttpClientError): PlatformFailure =>
  error._tag === "RequestError"
    ? error.reason === "Transport"
      ? failure(call, "unavailable", "network error, no response")
      : failure(call, "rejected", `request could not be built (${error.reason})`)
    : failure(call, "malformed", `response body could not be read (${error.reason})`)

/**
 * Sends `request` and decodes a 2xx JSON body with `schema`. Redirects are left to the client; a body
 * that is not JSON or not in the schema's shape is `malformed` with the first schema complaint.
 */
export const send = <A, I>(
  client: HttpClient.HttpClient,
  call: Call,
  request: HttpClientRequest.HttpClientRequest,
  schema: Schema.Schema<A, I>
): Effect.Effect<A, PlatformFailure> =>
  Effect.gen(function*() {
    const response = yield* client.execute(request)
    const body = yield* response.text
    if (response.status < 200 || response.status >= 300) {
      const now = yield* Clock.currentTimeMillis
      const retryAfter = parseRetryAfter(response.headers["retry-after"], now)
      const detail = errorDetail(body)
      const text = detail === undefined ? `HTTP ${response.status}` : `HTTP ${response.status}: ${shorten(detail)}`
      return yield* Effect.fail(failure(call, kindOfStatus(response.status), text, Option.getOrUndefined(retryAfter)))
    }
    let json: unknown
    try {
      json = JSON.parse(body)
    } catch {
      return yield* Effect.fail(malformed(call, "response body is not JSON"))
    }
    return yield* decode(call, schema, json)
  }).pipe(
    Effect.scoped,
    Effect.catchTags({
      RequestError: (error) => Effect.fail(transportFailure(call, error)),
      ResponseError: (error) => Effect.fail(transportFailure(call, error))
    }),
    // A SERP request carries its key in the query string, which the tracer would record as `url.full`.
    Effect.locally(HttpClient.currentTracerDisabledWhen, () => true)
  )

/** Decodes part of a body; a value not in the schema's shape is `malformed`, with the first complaint. */
export const decode = <A, I>(call: Call, schema: Schema.Schema<A, I>, value: unknown): Effect.Effect<A, PlatformFailure> =>
  Schema.decodeUnknown(schema)(value).pipe(
    Effect.mapError((error) => malformed(call, `response body not in the expected shape: ${shorten(firstIssue(error))}`))
  )

const firstIssue = (error: ParseResult.ParseError): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]
  return first === undefined ? "invalid" : `${first.path.length > 0 ? first.path.join(".") + ": " : ""}${first.message}`
}

/** Keeps the first occurrence of each URL, in order. */
export const distinct = (urls: Iterable<string>): ReadonlyArray<string> => [...new Set(urls)]

/** An answer with text, or `malformed`: the worker cannot store an empty answer. */
export const answer = (
  call: Call,
  found: { readonly text: string; readonly citations: ReadonlyArray<string> },
  whyEmpty = "response has no answer text"
): Effect.Effect<Answer, PlatformFailure> =>
  found.text.trim() === ""
    ? Effect.fail(malformed(call, whyEmpty))
    : Effect.succeed({ text: found.text, citations: found.citations, simulated: false })

/** One provider's connection: who we are, which model, where. */
export interface ProviderSettings {
  readonly apiKey: Redacted.Redacted
  readonly model: string
  /** The provider's origin, e.g. `https://api.openai.com`; paths are appended to it. */
  readonly baseUrl: string
}

/**
 * `base` + `path`. A base given the SDK way, ending in `/v1`, is taken as the origin when `path` starts
 * with `/v1/` too, so `OPENAI_BASE_URL=https://api.openai.com/v1` works as well as without the `/v1`.
 */
export const endpoint = (base: string, path: string): string => {
  const trimmed = base.replace(/\/+$/, "")
  const origin = path.startsWith("/v1/") && trimmed.endsWith("/v1") ? trimmed.slice(0, -3) : trimmed
  return `${origin}${path}`
}

/**
 * An adapter that answers a question with one JSON POST to `path`, the key as its bearer token, and
 * reads the answer from the decoded body (OpenAI, xAI, Perplexity).
 */
export const makeBearerJsonClient = <A, I>(options: {
  readonly platform: Platform
  readonly settings: ProviderSettings
  readonly path: string
  readonly body: (question: Question) => unknown
  readonly schema: Schema.Schema<A, I>
  readonly answerOf: (body: A) => { readonly text: string; readonly citations: ReadonlyArray<string> }
}): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => {
    const { answerOf, platform, schema, settings } = options
    const call: Call = { platform, secrets: [settings.apiKey] }
    const ask = (question: Question) =>
      send(
        client,
        call,
        HttpClientRequest.post(endpoint(settings.baseUrl, options.path)).pipe(
          HttpClientRequest.bearerToken(Redacted.value(settings.apiKey)),
          HttpClientRequest.bodyUnsafeJson(options.body(question))
        ),
        schema
      ).pipe(Effect.flatMap((body) => answer(call, answerOf(body))))
    return { platform, ask }
  })
