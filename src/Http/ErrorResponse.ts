import { HttpApiError, HttpServerResponse } from "@effect/platform"
import { SqlError } from "@effect/sql"
import { Cause, Effect, Option } from "effect"
import {
  BodyTooDeep,
  Forbidden,
  InvalidProjectHeader,
  MalformedBody,
  MissingProjectHeader,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  TooManyRequests,
  Unauthenticated,
  UnsupportedMediaType,
  ValidationError,
  type FieldErrors
} from "../Domain/Errors.ts"
import { RequestId } from "./RequestId.ts"

/**
 * The one place where a failure becomes a response: every status and body of docs/api.md.
 * Typed errors of the API map to their status; the platform's own failures (undecodable input,
 * unknown route) are translated to the documented ones; anything else is a 5xx that shows nothing
 * of its cause, only the request id under which the cause is logged.
 */

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(body, { status, headers })

/**
 * Schema decoding issues as the `errors` object of a 422: `tags.0`, `name`, ...
 *
 * The field schemas (Http/Fields.ts) carry client-facing sentences ("The name field ..."). A union
 * (a nullable field, a set of allowed values) also reports one technical line per member it did not
 * match; those are dropped, and a field left with none gets the generic sentence.
 */
export const fieldErrors = (issues: HttpApiError.HttpApiDecodeError["issues"]): FieldErrors => {
  const byField = new Map<string, Array<string>>()
  for (const issue of issues) {
    const field = issue.path.map(String).join(".")
    const key = field === "" ? "body" : field
    const text = field === ""
      ? "The request body must be a JSON object."
      : issue._tag === "Missing"
      ? `The ${label(field)} field is required.`
      : issue.message
    const texts = byField.get(key)
    if (texts !== undefined) texts.push(text)
    // A 422 lists at most MAX_FIELDS fields: a list of a million bad items is not a million messages.
    else if (byField.size < MAX_FIELDS) byField.set(key, [text])
  }
  const errors: Record<string, ReadonlyArray<string>> = {}
  for (const [field, texts] of byField) {
    const sentences = [...new Set(texts.filter((text) => text.startsWith("The ")))]
    errors[field] = sentences.length > 0 ? sentences : [`The selected ${label(field)} is invalid.`]
  }
  return errors
}

const label = (field: string) => field.replaceAll("_", " ")

/** The most fields one 422 lists. */
const MAX_FIELDS = 100

const CONNECTION_ERRORS = ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]

/** A database that cannot be reached, as opposed to a query that failed. */
const isUnavailable = (error: SqlError.SqlError): boolean => {
  const cause = error.cause as { readonly code?: unknown; readonly message?: unknown } | undefined
  const code = typeof cause?.code === "string" ? cause.code : ""
  const text = typeof cause?.message === "string" ? cause.message : ""
  return CONNECTION_ERRORS.includes(code) ||
    code.startsWith("08") || // connection_exception
    code === "57P01" || code === "57P03" || // admin_shutdown, cannot_connect_now
    /timeout|terminated|Connection closed/i.test(text)
}

const isMalformedJson = (defect: unknown): boolean =>
  typeof defect === "object" && defect !== null && (defect as { _tag?: unknown })._tag === "RequestError" &&
  (defect as { reason?: unknown }).reason === "Decode"

const serverFailure = (status: 500 | 503, cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    const requestId = yield* RequestId
    yield* Effect.logError(status === 503 ? "database unavailable" : "request failed", cause)
    return json(status, { message: status === 503 ? "Service Unavailable" : "Server Error", request_id: requestId })
  })

const fromError = (error: unknown, cause: Cause.Cause<unknown>): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  if (error instanceof Unauthenticated) {
    return Effect.succeed(json(401, { message: error.message }, { "www-authenticate": "Bearer" }))
  }
  if (error instanceof Forbidden) {
    return Effect.succeed(json(403, { message: error.message, required_ability: error.requiredAbility }))
  }
  if (
    error instanceof MissingProjectHeader || error instanceof InvalidProjectHeader || error instanceof MalformedBody ||
    error instanceof BodyTooDeep
  ) {
    return Effect.succeed(json(400, { message: error.message }))
  }
  if (error instanceof NotFound) return Effect.succeed(json(404, { message: error.message }))
  // The rest of an oversized body is not read: the connection closes after the answer.
  if (error instanceof PayloadTooLarge) return Effect.succeed(json(413, { message: error.message }, { connection: "close" }))
  if (error instanceof UnsupportedMediaType) return Effect.succeed(json(415, { message: error.message }))
  if (error instanceof ValidationError) {
    return Effect.succeed(json(422, { message: error.message, errors: error.errors }))
  }
  if (error instanceof HttpApiError.HttpApiDecodeError) {
    const validation = new ValidationError({ errors: fieldErrors(error.issues) })
    return Effect.succeed(json(422, { message: validation.message, errors: validation.errors }))
  }
  if (error instanceof TooManyRequests) {
    return Effect.succeed(json(429, { message: error.message }, {
      "retry-after": String(error.retryAfterSeconds),
      "x-ratelimit-limit": String(error.limit),
      "x-ratelimit-remaining": "0"
    }))
  }
  if (typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "RouteNotFound") {
    return Effect.succeed(json(404, { message: "Not found" }))
  }
  if (isMalformedJson(error)) return Effect.succeed(json(400, { message: new MalformedBody().message }))
  if (error instanceof ServiceUnavailable) return serverFailure(503, cause)
  if (error instanceof SqlError.SqlError && isUnavailable(error)) return serverFailure(503, cause)
  return serverFailure(500, cause)
}

/** The response for a failed request; a request interrupted by its client stays interrupted. */
export const errorResponse = (cause: Cause.Cause<unknown>): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  // An interruption holds no error to answer; the server answers it (499/503) itself.
  if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return fromError(failure.value, cause)
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect)) return fromError(defect.value, cause)
  return serverFailure(500, cause)
}
