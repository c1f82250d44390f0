import { HttpApp, HttpMiddleware, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { RequestId } from "./RequestId.ts"

/** A client's own request id is kept when it is a plain token; anything else is replaced. */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Gives every request an id (the client's `X-Request-Id`, or a new UUID), puts it on the response, in
 * every log line and on every span of the request, and writes one access log line per request.
 * Headers are never logged: they carry keys.
 */
export const requestLog = HttpMiddleware.make((app) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const incoming = request.headers["x-request-id"]
    const requestId = incoming !== undefined && CLIENT_ID.test(incoming) ? incoming : randomUUID()
    const started = Date.now()
    yield* HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "x-request-id", requestId))
    )
    const path = request.url.split("?")[0]
    yield* Effect.annotateCurrentSpan("request_id", requestId)
    return yield* app.pipe(
      Effect.onExit((exit) =>
        Effect.logInfo("request").pipe(Effect.annotateLogs({
          method: request.method,
          path,
          status: exit._tag === "Success" ? exit.value.status : 499,
          duration_ms: Date.now() - started
        }))
      ),
      Effect.provideService(RequestId, requestId),
      Effect.annotateLogs("request_id", requestId),
      Effect.annotateSpans("request_id", requestId)
    )
  })
)
