/**
 * One bounded load of `npm run bench:http`: autocannon over loopback, keep-alive connections, one
 * request at a time per connection, for a fixed duration.
 */
import autocannon from "autocannon"

export interface LoadRequest {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers: Record<string, string>
  /** POST bodies, sent in turn. */
  readonly bodies?: ReadonlyArray<string>
}

export interface LoadResult {
  /** Answers with a 2xx status per second of the run. */
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  /** Answers with another status, and connection errors or timeouts. */
  readonly failures: number
  readonly statuses: Readonly<Record<string, number>>
}

export const load = async (baseUrl: string, request: LoadRequest, options: { readonly connections: number; readonly seconds: number }) => {
  let next = 0
  const bodies = request.bodies
  const result = await autocannon({
    url: `${baseUrl}${request.path}`,
    connections: options.connections,
    duration: options.seconds,
    // An answer slower than this counts as a timeout (a failure), not as a latency sample.
    timeout: 30,
    requests: [{
      method: request.method,
      path: request.path,
      headers: request.headers,
      ...(bodies === undefined ? {} : { setupRequest: (req: any) => ({ ...req, body: bodies[next++ % bodies.length] }) })
    }]
  })
  const statuses: Record<string, number> = {}
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count ?? 0
  return {
    requestsPerSecond: result["2xx"] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors,
    statuses
  } satisfies LoadResult
}
