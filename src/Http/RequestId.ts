import { Effect, FiberRef, HashMap, Option } from "effect"

/** The log annotation that carries the request's id (Http/RequestLog.ts). */
export const REQUEST_ID = "request_id"

/**
 * The id of the request being served: in every log line, the `X-Request-Id` header and 5xx bodies. It
 * is read from the log annotations, where the access log puts it for every line of the request, rather
 * than provided as a service of its own: one context change less on every request. `-` outside one.
 */
export const currentRequestId: Effect.Effect<string> = Effect.map(
  FiberRef.get(FiberRef.currentLogAnnotations),
  (annotations) => Option.getOrElse(Option.map(HashMap.get(annotations, REQUEST_ID), String), () => "-")
)
