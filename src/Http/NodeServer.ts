import { createServer, type IncomingMessage, type Server, ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { apiHeaders } from "./SecurityHeaders.ts"

/**
 * The Node HTTP server of the service. Requests Node refuses before they reach the API (headers or
 * URL over 16 KiB, a malformed request line, a request that takes too long to arrive) get the same
 * JSON error body as every other error, instead of Node's bodiless default. Requests that arrive in
 * the moment between listening and the API's handler being attached wait for it (Node would leave
 * them unanswered forever).
 *
 * A whole request (headers and body) must arrive within `REQUEST_TIMEOUT_SECONDS`, then it gets its
 * 408. Node checks the requests in progress on a timer (every 30 s by default, which made a 60 s
 * timeout fire at up to 90 s); here it checks every `CHECK_INTERVAL_MS`, so the 408 is at most that late.
 *
 * An answer sent before its request's body has all arrived (a 401, a 413, `/health` given a body)
 * closes the connection after it (`Connection: close`): Node would otherwise read and discard the rest
 * of the body, however large, to keep the connection for the next request.
 */

/** How often Node looks for requests past their timeout: the most a 408 is late. */
export const CHECK_INTERVAL_MS = 250

const REFUSALS: Record<string, readonly [status: number, reason: string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout"]
}

/** The raw HTTP/1.1 answer to a request Node could not read, with the API's headers; the connection closes after it. */
export const clientErrorResponse = (code: string | undefined): string => {
  const [status, reason] = REFUSALS[code ?? ""] ?? [400, "Bad Request"]
  const body = JSON.stringify({ message: reason })
  const headers = Object.entries(apiHeaders).map(([name, value]) => `${name}: ${value}\r\n`).join("")
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `${headers}Connection: close\r\n\r\n${body}`
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void

/** Holds the requests that come before the first handler, and hands them to it once it is attached. */
const holdUntilHandled = (server: Server) => {
  let held: Array<Parameters<Handler>> | undefined = []
  const hold: Handler = (request, response) => held?.push([request, response])
  server.on("newListener", (event: string | symbol, listener: Handler) => {
    if (event !== "request" || listener === hold || held === undefined) return
    const waiting = held
    held = undefined
    // `newListener` is emitted before the listener is added: hand the requests over right after.
    process.nextTick(() => {
      server.off("request", hold)
      for (const [request, response] of waiting) listener(request, response)
    })
  })
  server.on("request", hold)
}

/**
 * Whether some of the request's body has yet to arrive. A request has a body only with a
 * `Content-Length` or a `Transfer-Encoding` (`complete` alone is not enough: a request without a body is
 * marked complete only after the handler has been called, which may answer at once).
 */
const bodyToCome = (request: IncomingMessage) =>
  !request.complete && (request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? "0") > 0)

/** A response that closes the connection when it is sent before its request's body has all arrived. */
class ClosingResponse extends ServerResponse {
  // Every response goes through writeHead (`end()` without it calls it too), before its head is written.
  override writeHead(statusCode: number, ...rest: Array<any>): this {
    if (!this.headersSent && bodyToCome(this.req)) this.setHeader("connection", "close")
    return Reflect.apply(super.writeHead, this, [statusCode, ...rest])
  }
}

/** The server, refusing a request that has not arrived whole after `requestTimeoutSeconds`. */
export const makeNodeServer = (options: { readonly requestTimeoutSeconds: number }): Server => {
  const requestTimeout = options.requestTimeoutSeconds * 1000
  const server = createServer({
    requestTimeout,
    // Headers are part of the request: the same deadline (Node's default would be the lower of it and 60 s).
    headersTimeout: requestTimeout,
    connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, requestTimeout),
    ServerResponse: ClosingResponse as typeof ServerResponse
  })
  holdUntilHandled(server)
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection reset by the client, or one already answering, has nobody to tell.
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy()
      return
    }
    socket.end(clientErrorResponse(error.code))
  })
  return server
}
