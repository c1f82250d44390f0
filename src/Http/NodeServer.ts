import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"

/**
 * The Node HTTP server of the service. Requests Node refuses before they reach the API (headers or
 * URL over 16 KiB, a malformed request line, a request that takes too long to arrive) get the same
 * JSON error body as every other error, instead of Node's bodiless default. Requests that arrive in
 * the moment between listening and the API's handler being attached wait for it (Node would leave
 * them unanswered forever).
 */

/** A whole request (headers and body) must arrive within this time; then 408. */
const REQUEST_TIMEOUT_MS = 60_000

const REFUSALS: Record<string, readonly [status: number, reason: string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout"]
}

/** The raw HTTP/1.1 answer to a request Node could not read; the connection closes after it. */
export const clientErrorResponse = (code: string | undefined): string => {
  const [status, reason] = REFUSALS[code ?? ""] ?? [400, "Bad Request"]
  const body = JSON.stringify({ message: reason })
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`
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

export const makeNodeServer = (): Server => {
  const server = createServer({ requestTimeout: REQUEST_TIMEOUT_MS })
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
