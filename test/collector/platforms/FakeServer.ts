import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, type Scope } from "effect"

/**
 * A provider stand-in: a `node:http` server on 127.0.0.1, port 0, answering with scripted replies and
 * recording every request it got.
 */

export interface RecordedRequest {
  readonly method: string
  /** Path and query, as sent. */
  readonly url: string
  readonly headers: IncomingHttpHeaders
  /** The JSON body, or undefined when there was none. */
  readonly body: any
}

export type Reply =
  | { readonly status: number; readonly json?: unknown; readonly text?: string; readonly headers?: Record<string, string> }
  | "hang"

export interface FakeServer {
  readonly baseUrl: string
  readonly requests: ReadonlyArray<RecordedRequest>
}

/**
 * A reply chosen by the request itself (a redirect host's, say); `undefined` leaves the request to the
 * scripted replies. The requests it answers are recorded too.
 */
export type Route = (request: RecordedRequest, baseUrl: string) => Reply | undefined

/**
 * `replies[n]` answers the n-th request the route leaves (or every one, without a route); the last one
 * answers all further requests. Replies that need the fake's origin are given as a function of it.
 */
export const fakeServer = (
  script: ReadonlyArray<Reply> | ((baseUrl: string) => ReadonlyArray<Reply>),
  route?: Route
): Effect.Effect<FakeServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ server: ReturnType<typeof createServer>; fake: FakeServer }>((resume) => {
      const requests: Array<RecordedRequest> = []
      let scripted = 0
      let baseUrl = ""
      let replies: ReadonlyArray<Reply> = []
      const server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8")
          const recorded: RecordedRequest = {
            method: req.method ?? "",
            url: req.url ?? "",
            headers: req.headers,
            body: raw === "" ? undefined : JSON.parse(raw)
          }
          requests.push(recorded)
          const routed = route?.(recorded, baseUrl)
          const reply = routed ?? replies[Math.min(++scripted, replies.length) - 1]!
          if (reply === "hang") return
          const body = reply.text ?? (reply.json === undefined ? "" : JSON.stringify(reply.json))
          res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
          res.end(body)
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        baseUrl = `http://127.0.0.1:${port}`
        replies = typeof script === "function" ? script(baseUrl) : script
        resume(Effect.succeed({ server, fake: { baseUrl, requests } }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ fake }) => fake))
