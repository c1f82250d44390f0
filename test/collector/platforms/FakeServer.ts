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

/** `replies[n]` answers the n-th request; the last one answers all further requests. */
export const fakeServer = (replies: ReadonlyArray<Reply>): Effect.Effect<FakeServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<{ server: ReturnType<typeof createServer>; fake: FakeServer }>((resume) => {
      const requests: Array<RecordedRequest> = []
      const server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8")
          requests.push({
            method: req.method ?? "",
            url: req.url ?? "",
            headers: req.headers,
            body: raw === "" ? undefined : JSON.parse(raw)
          })
          const reply = replies[Math.min(requests.length, replies.length) - 1]!
          if (reply === "hang") return
          const body = reply.text ?? (reply.json === undefined ? "" : JSON.stringify(reply.json))
          res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
          res.end(body)
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ server, fake: { baseUrl: `http://127.0.0.1:${port}`, requests } }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ fake }) => fake))
