import * as http from "node:http"
import * as https from "node:https"
import { ATTEMPT_TIMEOUT_MS, parseRetryAfter, resultOfError, resultOfStatus, type AttemptResult } from "../Integrations/DeliverySchedule.ts"
import { checkUrl, guardedLookup, type OutboundPolicy, OutboundRefused, type Resolver, systemResolver } from "../Integrations/OutboundUrl.ts"

/**
 * One HTTP attempt of a webhook delivery: a POST of `body` with `headers`, answered within 10 s or
 * failed. No redirect is followed (a 3xx is a failure). The host is resolved by the guarded lookup
 * (Integrations/OutboundUrl.ts), so the connection goes only to addresses just checked against the
 * policy: a name that turned private since the webhook was saved is refused here. The answer's body
 * is read (up to a small bound) and dropped.
 *
 * What an attempt reports never holds the URL or the request: a receiver's URL can carry a token (a
 * Slack webhook's path is its secret), so errors name what failed, not where.
 */
export interface Sent {
  readonly result: AttemptResult
  /** Seconds the receiver asked to wait (Retry-After), if it did. */
  readonly retryAfterSeconds: number | null
  readonly durationMs: number
}

/** At most this much of an answer is read before the connection is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024

/** A network error as words without the host or address (Node puts them in `message`). */
const describe = (error: NodeJS.ErrnoException): AttemptResult => {
  if (error instanceof OutboundRefused || error.code === "EOUTBOUNDREFUSED") return resultOfError("refused", error.message)
  if (error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") return resultOfError("network", "the host does not resolve")
  if (error.code === "ECONNREFUSED") return resultOfError("network", "connection refused")
  if (error.code === "ECONNRESET") return resultOfError("network", "connection reset")
  if (typeof error.code === "string" && /^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED)/.test(error.code)) {
    return resultOfError("network", `TLS: ${error.code}`)
  }
  return resultOfError("network", typeof error.code === "string" ? error.code : "the request failed")
}

export const send = (
  url: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  policy: OutboundPolicy,
  options: { readonly resolver?: Resolver; readonly timeoutMs?: number; readonly now?: () => Date } = {}
): Promise<Sent> => {
  const started = Date.now()
  const elapsed = () => Date.now() - started
  const checked = checkUrl(url, policy)
  if (checked instanceof OutboundRefused) {
    return Promise.resolve({ result: resultOfError("refused", checked.message), retryAfterSeconds: null, durationMs: 0 })
  }
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS
  const client = checked.protocol === "https:" ? https : http
  const payload = Buffer.from(body, "utf8")
  return new Promise<Sent>((resolve) => {
    let settled = false
    const finish = (sent: Omit<Sent, "durationMs">) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...sent, durationMs: elapsed() })
    }
    const request = client.request(checked, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "content-length": String(payload.length) },
      lookup: guardedLookup(policy, options.resolver ?? systemResolver) as never,
      // A connection of its own: a pooled socket would skip the guarded lookup.
      agent: false
    }, (response) => {
      const status = response.statusCode ?? 0
      const retryAfter = parseRetryAfter(response.headers["retry-after"] ?? null, options.now?.() ?? new Date())
      let read = 0
      response.on("data", (chunk: Buffer) => {
        read += chunk.length
        if (read > MAX_ANSWER_BYTES) response.destroy()
      })
      response.on("error", () => finish({ result: resultOfStatus(status), retryAfterSeconds: retryAfter }))
      response.on("close", () => finish({ result: resultOfStatus(status), retryAfterSeconds: retryAfter }))
      response.on("end", () => finish({ result: resultOfStatus(status), retryAfterSeconds: retryAfter }))
    })
    const timer = setTimeout(() => {
      finish({ result: resultOfError("timeout"), retryAfterSeconds: null })
      request.destroy()
    }, timeoutMs)
    request.on("error", (error: NodeJS.ErrnoException) => finish({ result: describe(error), retryAfterSeconds: null }))
    request.end(payload)
  })
}
