import { type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Data, Effect, Stream } from "effect"
import type { IncomingMessage } from "node:http"

/**
 * What a request body may be, enforced before any of it is parsed (docs/security.md, "Limits"):
 * - at most `MAX_BODY_BYTES`: a larger `Content-Length` is refused at once, and a body streamed
 *   without one stops being read (and kept) the moment it crosses the limit, so memory stays flat;
 * - JSON: no `Content-Type`, or `application/json`. Forms, multipart and plain text are refused
 *   (415) without being read, so a truncated multipart body cannot hold a request open;
 * - nested at most `MAX_JSON_DEPTH` levels, counted on the raw text before `JSON.parse`, so that
 *   no recursive step (parsing, decoding, error reporting) ever meets a pathological value.
 *
 * The size check by `Content-Length` answers before routing; the others fail when the endpoint
 * reads its payload, after authentication and the project checks, in the documented order.
 */

/** A request body that is not JSON at all (400). */
export class MalformedBody extends Data.TaggedError("MalformedBody")<{}> {
  override get message() {
    return "The request body is not valid JSON."
  }
}

/** A JSON body nested deeper than any request of the API needs (400): refused before it is parsed. */
export class BodyTooDeep extends Data.TaggedError("BodyTooDeep")<{ readonly maxDepth: number }> {
  override get message() {
    return `The request body is nested more than ${this.maxDepth} levels deep.`
  }
}

/** A request body over the size limit (413): refused without being read whole. */
export class PayloadTooLarge extends Data.TaggedError("PayloadTooLarge")<{ readonly maxBytes: number }> {
  override get message() {
    return `The request body must not be larger than ${this.maxBytes} bytes.`
  }
}

/** A request body sent as anything but JSON: a form, multipart, plain text (415). */
export class UnsupportedMediaType extends Data.TaggedError("UnsupportedMediaType")<{}> {
  override get message() {
    return "The request body must be JSON, sent with Content-Type: application/json."
  }
}

/** 1 MiB: five times the largest valid body (a 200,000-character answer with 100 citations). */
export const MAX_BODY_BYTES = 1024 * 1024

/** No body of the API nests more than 3 levels; 32 leaves room and bounds every recursion. */
export const MAX_JSON_DEPTH = 32

const OPEN_BRACKET = 0x5b
const OPEN_BRACE = 0x7b
const CLOSE_BRACKET = 0x5d
const CLOSE_BRACE = 0x7d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/** Whether JSON text nests deeper than `max` arrays and objects (strings skipped, escapes honoured). */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return true
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--
  }
  return false
}

/** Whether a Content-Type announces JSON; an absent one is read as JSON too. */
const isJson = (contentType: string | undefined): boolean => {
  if (contentType === undefined || contentType.trim() === "") return true
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase()
  return mediaType === "application/json"
}

/**
 * Reads a Node request body as UTF-8, keeping at most `maxBytes`: past that it fails and drops what
 * it read; the rest of the body is drained unread (the 413 closes the connection).
 */
const readBounded = (source: IncomingMessage, maxBytes: number) =>
  Effect.async<string, PayloadTooLarge | MalformedBody>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    let settled = false
    const settle = (effect: Effect.Effect<string, PayloadTooLarge | MalformedBody>) => {
      if (settled) return
      settled = true
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
      resume(effect)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        chunks.length = 0
        settle(Effect.fail(new PayloadTooLarge({ maxBytes })))
        source.resume()
      } else chunks.push(chunk)
    }
    const onEnd = () => settle(Effect.succeed(Buffer.concat(chunks).toString("utf8")))
    const onError = () => settle(Effect.fail(new MalformedBody()))
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    return Effect.sync(() => {
      settled = true
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
    })
  })

/** The request as endpoints see it: its body read within the limits above, once. */
const guarded = (request: HttpServerRequest.HttpServerRequest): HttpServerRequest.HttpServerRequest => {
  const json = isJson(request.headers["content-type"])
  const read: Effect.Effect<string, PayloadTooLarge | MalformedBody | UnsupportedMediaType> = json
    ? readBounded(NodeHttpServerRequest.toIncomingMessage(request), MAX_BODY_BYTES)
    : Effect.failSync(() => new UnsupportedMediaType())
  const text = Effect.runSync(Effect.cached(read))
  const parsed = Effect.flatMap(text, (body): Effect.Effect<unknown, BodyTooDeep | MalformedBody> => {
    if (body === "") return Effect.succeed(null)
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) return Effect.fail(new BodyTooDeep({ maxDepth: MAX_JSON_DEPTH }))
    return Effect.try({ try: () => JSON.parse(body) as unknown, catch: () => new MalformedBody() })
  })
  // Errors are made when used: each captures a stack trace, and most requests never use them.
  const unsupported = Effect.failSync(() => new UnsupportedMediaType())
  const overrides: Record<PropertyKey, unknown> = {
    text,
    json: parsed,
    arrayBuffer: unsupported,
    urlParamsBody: unsupported,
    multipart: unsupported,
    multipartStream: Stream.failSync(() => new UnsupportedMediaType()),
    stream: Stream.failSync(() => new UnsupportedMediaType()),
    modify: (options: Parameters<HttpServerRequest.HttpServerRequest["modify"]>[0]) => guarded(request.modify(options))
  }
  return new Proxy(request, {
    get: (target, property) => property in overrides ? overrides[property] : Reflect.get(target, property, target)
  })
}

const methodsWithBody = new Set(["POST", "PUT", "PATCH", "DELETE"])

/**
 * A path with `;` or `#` is no route of the API: routers read them as the end of the path
 * (`/prompts/41;x` would act on prompt 41). Nor is a path with an empty segment (a doubled or a
 * trailing slash): the router would read `/tags/` as `/tags/:tag` with an empty id.
 */
const isNoRoute = (url: string): boolean => {
  const query = url.indexOf("?")
  const path = query === -1 ? url : url.slice(0, query)
  return path.includes(";") || path.includes("#") || path.includes("//") || (path.length > 1 && path.endsWith("/"))
}

/** `POST /traffic-sources/{id}/uploads`: the one body that is not JSON, and has no size limit. */
const LOG_UPLOAD = /^\/api\/v1\/traffic-sources\/[^/?#]+\/uploads(?:\?|$)/

/** Applies the body limits and the path rules above to every request of the app. */
export const guardInput = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (isNoRoute(request.url)) {
      return HttpServerResponse.unsafeJson({ message: "Not found" }, { status: 404 })
    }
    if (!methodsWithBody.has(request.method)) return yield* app
    // A log upload is raw bytes of any size, streamed by its endpoint to a file (src/Traffic/Uploads.ts).
    if (request.method === "POST" && LOG_UPLOAD.test(request.url)) return yield* app
    const length = Number(request.headers["content-length"] ?? "0")
    if (length > MAX_BODY_BYTES) {
      // Answered unread; the connection is closed rather than drained.
      return HttpServerResponse.unsafeJson(
        { message: new PayloadTooLarge({ maxBytes: MAX_BODY_BYTES }).message },
        { status: 413, headers: { connection: "close" } }
      )
    }
    return yield* Effect.provideService(app, HttpServerRequest.HttpServerRequest, guarded(request))
  })
