import { HttpClient, type HttpClientError, HttpClientRequest } from "@effect/platform"
import { Clock, Duration, Effect, Option, ParseResult, Redacted, Schema } from "effect"
import type { Platform } from "../../Domain/Platform.ts"
import { type AnswerState, type FinishReason, MAX_RETRIEVED_URLS, MAX_SEARCH_QUERIES, MAX_URL_LENGTH } from "../../Domain/Response.ts"
import { type Answer, type FailureKind, noUsage, PlatformFailure, type PlatformClient, type Question, type Usage } from "../Platform.ts"

/**
 * What every adapter shares: send one request, turn the HTTP outcome into either a decoded body or a
 * `PlatformFailure` of the right kind, and build the `Answer` from what the adapter read. Messages are
 * built here from the status and a short excerpt of the provider's own error text, never from
 * `HttpClientError.message` (it holds the URL, and a SERP URL holds the key), and every secret is
 * scrubbed from them.
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

/**
 * The wait a response asks for: `retry-after-ms` (milliseconds, sent by OpenAI and Anthropic and read
 * first by their SDKs), else `Retry-After`.
 */
export const retryAfterOf = (headers: Readonly<Record<string, string | undefined>>, nowMillis: number) => {
  const millis = headers["retry-after-ms"]?.trim()
  if (millis !== undefined && /^\d+(\.\d+)?$/.test(millis)) return Option.some(Duration.millis(Math.round(Number(millis))))
  return parseRetryAfter(headers["retry-after"], nowMillis)
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** The provider's error text, from the shapes the supported providers use. */
const errorDetail = (json: unknown): string | undefined => {
  if (!isRecord(json)) return undefined
  const error = json.error
  if (typeof error === "string") return error
  if (isRecord(error) && typeof error.message === "string") return error.message
  if (typeof json.message === "string") return json.message
  return undefined
}

/** The failure kind of a non-2xx status. */
export const kindOfStatus = (status: number): FailureKind =>
  status === 429 ? "rate_limited" : status === 402 ? "quota_exceeded" : status === 408 ? "timeout" : status >= 500 ? "unavailable" : "rejected"

/**
 * Codes in an error body (`error.code`, `error.type`, Anthropic's `error.details.error_code`) that say
 * the account is out of money or quota: trying again will not help until someone acts.
 */
const QUOTA_CODES = new Set([
  // OpenAI (help.openai.com, "Troubleshooting API rate limits and 429 errors")
  "insufficient_quota",
  "credit_balance_exhausted",
  "organization_usage_limit_exceeded",
  "organization_spend_limit_exceeded",
  "project_spend_limit_exceeded",
  // Anthropic (platform.claude.com errors: 429 rate_limit_error with details.error_code)
  "enforced_spend_limit_reached",
  // Perplexity and others
  "quota_exceeded",
  "billing_error"
])

/** Words of error messages that say the same, from providers that send no code for it. */
const QUOTA_TEXT = [
  // SerpApi: 429 "Your account has run out of searches." (serpapi.com/api-status-and-error-codes)
  /run out of searches/i,
  // xAI: "... has either used all available credits or reached its monthly spending limit"
  /used all (available )?credits/i,
  /spending limit|spend limit/i,
  // Anthropic: 400 "You have reached your specified API usage limits"
  /reached your specified (workspace )?API usage limits/i,
  /credit balance is too low/i
]

const codesOf = (json: unknown): ReadonlyArray<string> => {
  if (!isRecord(json) || !isRecord(json.error)) return []
  const error = json.error
  const details = isRecord(error.details) ? [error.details.error_code] : []
  return [error.code, error.type, ...details].filter((code): code is string => typeof code === "string")
}

/** Whether an error says the account's quota, credits or spend limit is used up. */
export const isQuotaError = (json: unknown, detail: string | undefined): boolean =>
  codesOf(json).some((code) => QUOTA_CODES.has(code)) ||
  (detail !== undefined && QUOTA_TEXT.some((pattern) => pattern.test(detail)))

/** Words of error messages that say the model asked for is retired or going. */
const DEPRECATION_TEXT = /deprecat|retired|no longer (available|supported)|has been (shut ?down|discontinued|removed)|sunset/i

/** A provider's error response, as the adapters' `classify` hooks read it. */
export interface ProviderError {
  readonly status: number
  /** The body parsed as JSON, when it was JSON. */
  readonly json: unknown
  readonly headers: Readonly<Record<string, string | undefined>>
}

/**
 * What an adapter knows better than the common rules about one of its provider's errors: another kind,
 * or the retry delay its body carries (Gemini's `RetryInfo`). `undefined` fields keep the common reading.
 */
export type Classify = (error: ProviderError) => {
  readonly kind?: FailureKind | undefined
  readonly retryAfter?: Duration.Duration | undefined
}

export interface Call {
  readonly platform: Platform
  /** Scrubbed from every message. */
  readonly secrets: ReadonlyArray<Redacted.Redacted>
  /** The configured model, named in deprecation warnings. */
  readonly model?: string | undefined
  readonly classify?: Classify | undefined
}

const failure = (call: Call, kind: FailureKind, text: string, retryAfter?: Duration.Duration) =>
  new PlatformFailure({
    platform: call.platform,
    kind,
    message: scrub(`${call.platform}: ${text}`, call.secrets),
    retryAfter
  })

export const malformed = (call: Call, reason: string): PlatformFailure => failure(call, "malformed", reason)

/** A failure the adapter found in a 2xx body (a run that failed, a search that failed). */
export const failedInBody = (call: Call, kind: FailureKind, reason: string): PlatformFailure =>
  failure(call, kind, shorten(reason))

const transportFailure = (call: Call, error: HttpClientError.HttpClientError): PlatformFailure =>
  error._tag === "RequestError"
    ? error.reason === "Transport"
      ? failure(call, "unavailable", "network error, no response")
      : failure(call, "rejected", `request could not be built (${error.reason})`)
    : failure(call, "malformed", `response body could not be read (${error.reason})`)

/** Deprecation warnings already logged by this process: one per platform, model and notice. */
const warned = new Set<string>()

/**
 * Logs a warning, once per process for each platform, model and notice, when a provider says the model
 * is deprecated: the `Deprecation` (RFC 9745) or `Sunset` (RFC 8594) headers of any response, or an
 * error whose text says the model is deprecated or retired.
 */
const warnDeprecation = (call: Call, notice: string) => {
  const key = `${call.platform}\u0000${call.model ?? ""}\u0000${notice}`
  if (warned.has(key)) return Effect.void
  warned.add(key)
  return Effect.logWarning("the provider reports the model deprecated or retired: see docs/platforms.md to change it").pipe(
    Effect.annotateLogs({ platform: call.platform, model: call.model ?? "", notice: scrub(shorten(notice), call.secrets) })
  )
}

const deprecationHeaders = (call: Call, headers: Readonly<Record<string, string | undefined>>) => {
  const notices = (["deprecation", "sunset"] as const).flatMap((name) => {
    const value = headers[name]
    return value === undefined ? [] : [`${name}: ${value}`]
  })
  return notices.length === 0 ? Effect.void : warnDeprecation(call, notices.join("; "))
}

/** The failure of a non-2xx response: its kind by status, body codes and the adapter's hook. */
const errorFailure = (call: Call, status: number, headers: Readonly<Record<string, string | undefined>>, body: string) =>
  Effect.gen(function*() {
    let json: unknown
    try {
      json = JSON.parse(body)
    } catch {
      // Not JSON: the status alone says enough.
    }
    const detail = errorDetail(json)
    const now = yield* Clock.currentTimeMillis
    let kind = kindOfStatus(status)
    let retryAfter = Option.getOrUndefined(retryAfterOf(headers, now))
    if ((status === 429 || status === 400 || status === 403) && isQuotaError(json, detail)) kind = "quota_exceeded"
    // The header the OpenAI and Anthropic SDKs obey before anything else.
    const shouldRetry = headers["x-should-retry"]?.trim().toLowerCase()
    if (shouldRetry === "false" && (kind === "rate_limited" || kind === "unavailable" || kind === "timeout")) {
      kind = status === 429 ? "quota_exceeded" : "rejected"
    }
    const hook = call.classify?.({ status, json, headers })
    if (hook?.kind !== undefined) kind = hook.kind
    if (hook?.retryAfter !== undefined) retryAfter = hook.retryAfter
    if (detail !== undefined && status >= 400 && status < 500 && DEPRECATION_TEXT.test(detail)) yield* warnDeprecation(call, detail)
    const text = detail === undefined ? `HTTP ${status}` : `HTTP ${status}: ${shorten(detail)}`
    return failure(call, kind, text, retryAfter)
  })

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
    yield* deprecationHeaders(call, response.headers)
    if (response.status < 200 || response.status >= 300) {
      return yield* Effect.flip(errorFailure(call, response.status, response.headers, body))
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

/** Keeps the first occurrence of each value, in order. */
export const distinct = <A>(values: Iterable<A>): ReadonlyArray<A> => [...new Set(values)]

/** Whether a string is an http(s) URL the service can store as a source. */
const isWebUrl = (value: string): boolean => {
  if (value.length > MAX_URL_LENGTH) return false
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/** What an adapter read from its provider's answer; `answerOf` makes the `Answer` of it. */
export interface Reading {
  readonly text: string
  /** Cited URLs, in the platform's order (repeats are dropped). */
  readonly citations: ReadonlyArray<string>
  /** Default: `answered` when the text has something, `empty` otherwise. */
  readonly state?: AnswerState | undefined
  readonly model?: string | null | undefined
  readonly finishReason?: FinishReason | null | undefined
  readonly usage?: Usage | undefined
  readonly searchQueries?: ReadonlyArray<string> | undefined
  /** Retrieved URLs, cited or not: the cited ones and anything not http(s) are dropped. */
  readonly retrieved?: ReadonlyArray<string> | undefined
}

/**
 * The answer of a reading. A reading without text is an `empty` answer (stored as such, never a failure);
 * a refusal stays `refused` whatever its text. The lists are bounded (docs/api.md, "Limits").
 */
export const answerOf = (reading: Reading): Answer => {
  const citations = distinct(reading.citations)
  const cited = new Set(citations)
  const hasText = reading.text.trim() !== ""
  const state: AnswerState = reading.state === undefined || (reading.state === "answered" && !hasText)
    ? hasText ? "answered" : "empty"
    : reading.state
  return {
    text: reading.text,
    citations,
    simulated: false,
    state,
    model: reading.model === undefined || reading.model === null || reading.model.trim() === "" ? null : reading.model,
    finishReason: reading.finishReason ?? null,
    usage: reading.usage ?? noUsage,
    searchQueries: distinct((reading.searchQueries ?? []).map((query) => query.trim()).filter((query) => query !== ""))
      .map((query) => [...query].slice(0, MAX_URL_LENGTH).join(""))
      .slice(0, MAX_SEARCH_QUERIES),
    retrieved: distinct(reading.retrieved ?? []).filter((url) => !cited.has(url) && isWebUrl(url)).slice(0, MAX_RETRIEVED_URLS)
  }
}

/** A count from a body, when it is one (and fits the column: PostgreSQL's integer). */
export const count = (value: unknown): number | null =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 2_147_483_647 ? value : null

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
 * reads the answer from the decoded body (OpenAI, xAI, Perplexity). `read` may fail: a 2xx can still
 * say the run failed.
 */
export const makeBearerJsonClient = <A, I>(options: {
  readonly platform: Platform
  readonly settings: ProviderSettings
  readonly path: string
  readonly body: (question: Question) => unknown
  readonly schema: Schema.Schema<A, I>
  readonly read: (body: A, call: Call) => Effect.Effect<Answer, PlatformFailure>
  readonly classify?: Classify | undefined
}): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => {
    const { platform, read, schema, settings } = options
    const call: Call = { platform, secrets: [settings.apiKey], model: settings.model, classify: options.classify }
    const ask = (question: Question) =>
      send(
        client,
        call,
        HttpClientRequest.post(endpoint(settings.baseUrl, options.path)).pipe(
          HttpClientRequest.bearerToken(Redacted.value(settings.apiKey)),
          HttpClientRequest.bodyUnsafeJson(options.body(question))
        ),
        schema
      ).pipe(Effect.flatMap((body) => read(body, call)))
    return { platform, ask }
  })
