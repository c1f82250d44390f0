import { HttpApp, HttpMiddleware, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, FiberRef, HashMap } from "effect"
import { randomUUID } from "node:crypto"
import { REQUEST_ID } from "./RequestId.ts"

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
    // The request has a fiber of its own: its log annotations are set for the rest of it, with no
    // scope to restore them from (`Effect.annotateLogs` would cost a scope on every request).
    yield* annotate({ [REQUEST_ID]: requestId })
    const logged = app.pipe(
      Effect.onExit((exit) =>
        annotate({
          method: request.method,
          path,
          status: exit._tag === "Success" ? exit.value.status : 499,
          duration_ms: Date.now() - started
        }).pipe(Effect.zipRight(Effect.logInfo("request")))
      )
    )
    // Spans are annotated only when they are made (Observability/Tracing.ts).
    if (!(yield* FiberRef.get(FiberRef.currentTracerEnabled))) return yield* logged
    yield* Effect.annotateCurrentSpan(REQUEST_ID, requestId)
    return yield* Effect.annotateSpans(logged, REQUEST_ID, requestId)
  })
)

/** Adds annotations to every log line of the current fiber from now on. */
const annotate = (values: Record<string, unknown>) =>
  FiberRef.update(FiberRef.currentLogAnnotations, (annotations) =>
    Object.entries(values).reduce((all, [key, value]) => HashMap.set(all, key, value), annotations))
