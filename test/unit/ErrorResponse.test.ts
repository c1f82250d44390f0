import { HttpApiError } from "@effect/platform"
import { SqlError } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Logger, LogLevel } from "effect"
import { Forbidden, NotFound, TooManyRequests, Unauthenticated, ValidationError } from "../../src/Domain/Errors.ts"
import { errorResponse, fieldErrors } from "../../src/Http/ErrorResponse.ts"

/** The response for a failure, as status, headers and parsed body. */
const respond = (cause: Cause.Cause<unknown>) =>
  errorResponse(cause).pipe(
    Effect.map((response) => {
      const body = response.body._tag === "Uint8Array" ? JSON.parse(new TextDecoder().decode(response.body.body)) : undefined
      return { status: response.status, headers: response.headers, body }
    }),
    Effect.annotateLogs("request_id", "req-123"),
    Logger.withMinimumLogLevel(LogLevel.None)
  )

const sqlError = (cause: unknown) => new SqlError.SqlError({ cause, message: "Failed to execute statement" })

describe("errorResponse", () => {
  it.effect("passes the errors the endpoints declare on to the API, which encodes them from their schemas", () =>
    Effect.gen(function*() {
      for (
        const error of [
          new Unauthenticated(),
          new Forbidden({ requiredAbility: "tags:write" }),
          new NotFound({ resource: "Prompt" }),
          ValidationError.field("name", "The name has already been taken."),
          new TooManyRequests()
        ]
      ) {
        expect(yield* Effect.flip(respond(Cause.fail(error)))).toBe(error)
      }
    }))

  it.effect("turns the platform's decoding failure into the documented 422", () =>
    Effect.gen(function*() {
      const decodeError = new HttpApiError.HttpApiDecodeError({
        message: "",
        issues: [{ _tag: "Missing", path: ["name"], message: "is missing" }]
      })
      const failure = yield* Effect.flip(respond(Cause.fail(decodeError)))
      expect(failure).toBeInstanceOf(ValidationError)
      expect((failure as ValidationError).errors).toEqual({ name: ["The name field is required."] })
    }))

  it.effect("answers 503 when the database cannot be reached, 500 for a failed query, with the request id only", () =>
    Effect.gen(function*() {
      const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })
      expect(yield* respond(Cause.fail(sqlError(refused)))).toMatchObject({
        status: 503,
        body: { message: "Service Unavailable", request_id: "req-123" }
      })
      expect((yield* respond(Cause.die(sqlError({ code: "57P01", message: "terminating connection" })))).status).toBe(503)
      const syntax = yield* respond(Cause.fail(sqlError({ code: "42601", message: "syntax error at or near \"SELEC\"" })))
      expect(syntax).toEqual({ status: 500, headers: syntax.headers, body: { message: "Server Error", request_id: "req-123" } })
      const defect = yield* respond(Cause.die(new Error("secret internals: password=hunter2")))
      expect(defect.body).toEqual({ message: "Server Error", request_id: "req-123" })
    }))

  it.effect("answers 400 to a body that is not JSON, and 404 Not found to an unknown route", () =>
    Effect.gen(function*() {
      const malformed = yield* respond(Cause.die({ _tag: "RequestError", reason: "Decode" }))
      expect(malformed).toMatchObject({ status: 400, body: { message: "The request body is not valid JSON." } })
      expect(yield* respond(Cause.fail({ _tag: "RouteNotFound" }))).toMatchObject({ status: 404, body: { message: "Not found" } })
    }))

  it.effect("leaves a client's interruption alone", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(errorResponse(Cause.interrupt(1 as never)))
      expect(exit._tag).toBe("Failure")
    }))
})

describe("fieldErrors", () => {
  it("keeps the client-facing sentences, drops union noise, names array items by index", () => {
    expect(fieldErrors([
      { _tag: "Type", path: ["domain"], message: "The domain field must be a string." },
      { _tag: "Type", path: ["domain"], message: "Expected null, actual 5" },
      { _tag: "Type", path: ["schedule"], message: "Expected \"daily\", actual \"hourly\"" },
      { _tag: "Type", path: ["schedule"], message: "Expected \"weekly\", actual \"hourly\"" },
      { _tag: "Missing", path: ["monitor_id"], message: "is missing" },
      { _tag: "Refinement", path: ["tags", 0], message: "The tags item field must be an integer." },
      { _tag: "Type", path: [], message: "Expected an object" }
    ])).toEqual({
      domain: ["The domain field must be a string."],
      schedule: ["The selected schedule is invalid."],
      monitor_id: ["The monitor id field is required."],
      "tags.0": ["The tags item field must be an integer."],
      body: ["The request body must be a JSON object."]
    })
  })
})
