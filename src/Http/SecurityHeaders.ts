import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect, Layer, Option } from "effect"

/**
 * The hardening headers of every answer (docs/security.md, "Headers"). The API's answers are JSON for
 * programs, never a page: a browser that is shown one anyway (a link, a frame, a sniffed type) may run
 * nothing, load nothing and frame nothing. Pages bring their own policy, which is kept: the dashboard
 * (src/Web/Site.ts) and the API reference (src/Http/Docs.ts).
 */
export const apiHeaders: Readonly<Record<string, string>> = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer"
}

const withApiHeaders = (response: HttpServerResponse.HttpServerResponse) =>
  response.headers["content-security-policy"] === undefined ? HttpServerResponse.setHeaders(response, apiHeaders) : response

/**
 * Adds the headers above to every answer of the server that has no policy of its own, errors
 * included. Set once for the server, as the handler its requests start with, rather than per request.
 */
export const layer = Layer.locallyScoped(
  HttpApp.currentPreResponseHandlers,
  Option.some((_request, response) => Effect.succeed(withApiHeaders(response)))
)
