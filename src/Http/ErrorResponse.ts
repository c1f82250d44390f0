import { HttpApiError, HttpServerResponse } from "@effect/platform"
import { SqlError } from "@effect/sql"
import { Cause, Effect, Option } from "effect"
import {
  Conflict,
  fieldErrors,
  Forbidden,
  InvalidProjectHeader,
  MissingProjectHeader,
  NotFound,
  TooManyRequests,
  Unauthenticated,
  ValidationError
} from "../Domain/Errors.ts"
import { BodyTooDeep, MalformedBody, PayloadTooLarge, UnsupportedMediaType } from "./RequestBody.ts"
import { currentRequestId } from "./RequestId.ts"

export { fieldErrors } from "../Domain/Errors.ts"

/**
 * What the declared errors of the API leave: the platform's own failures and the 5xx.
 *
 * The errors of docs/api.md are declared on the endpoints that raise them (Domain/Errors.ts) and
 * encoded by the API from their schemas (ErrorSchemas.ts); they pass through here untouched. What
 * the platform raises is translated: undecodable input becomes the 422 of docs/api.md, an unknown
 * route the 404 `Not found`, and the input limits (RequestBody.ts) their 400, 413 and 415. Anything
 * else is a 5xx that shows nothing of its cause, only the request id under which the cause is logged.
 */

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(body, { status, headers })



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
    const requestId = yield* currentRequestId
    yield* Effect.logError(status === 503 ? "database unavailable" : "request failed", cause)
    return json(status, { message: status === 503 ? "Service Unavailable" : "Server Error", request_id: requestId })
  })

/** The errors encoded by the API itself, from their schemas. */
const declared = [Unauthenticated, Forbidden, MissingProjectHeader, InvalidProjectHeader, NotFound, ValidationError, Conflict, TooManyRequests]

/** A failure the API encodes itself. */
export type DeclaredError = InstanceType<(typeof declared)[number]>

const isDeclared = (error: unknown): boolean => declared.some((declaredError) => error instanceof declaredError)

const fromError = (error: unknown, cause: Cause.Cause<unknown>): Effect.Effect<HttpServerResponse.HttpServerResponse, DeclaredError> => {
  if (isDeclared(error)) return Effect.failCause(cause as Cause.Cause<DeclaredError>)
  if (error instanceof HttpApiError.HttpApiDecodeError) return Effect.fail(new ValidationError({ errors: fieldErrors(error.issues) }))
  if (typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "RouteNotFound") {
    return Effect.succeed(json(404, { message: "Not found" }))
  }
  if (error instanceof MalformedBody || error instanceof BodyTooDeep) return Effect.succeed(json(400, { message: error.message }))
  if (isMalformedJson(error)) return Effect.succeed(json(400, { message: new MalformedBody().message }))
  // The rest of an oversized body is not read: the connection closes after the answer.
  if (error instanceof PayloadTooLarge) return Effect.succeed(json(413, { message: error.message }, { connection: "close" }))
  if (error instanceof UnsupportedMediaType) return Effect.succeed(json(415, { message: error.message }))
  if (error instanceof SqlError.SqlError && isUnavailable(error)) return serverFailure(503, cause)
  return serverFailure(500, cause)
}

/**
 * The response for a failed request, or the failure for the API to encode (a declared error, or one a
 * platform failure was translated to); a request interrupted by its client stays interrupted.
 */
export const errorResponse = (cause: Cause.Cause<unknown>): Effect.Effect<HttpServerResponse.HttpServerResponse, DeclaredError> => {
  // An interruption holds no error to answer; the server answers it (499/503) itself.
  if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return fromError(failure.value, cause)
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect)) return fromError(defect.value, cause)
  return serverFailure(500, cause)
}
