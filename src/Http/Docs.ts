import { HttpApi, HttpApiBuilder, HttpServerResponse, OpenApi } from "@effect/platform"
import { Effect } from "effect"
import { createHash } from "node:crypto"

/**
 * The API reference at `/docs`: Scalar's page over the OpenAPI document, with Scalar's script inlined
 * so that the page loads nothing from the internet.
 *
 * `HttpApiScalar.layer` of @effect/platform makes the same page, but at start-up: its 3.4 MB script is
 * then held three times over (the module's source, the string, the page) by every process, ~10 MB, for
 * a page few ever open. Here the script's module is imported on the first request (the bundler gives
 * it a chunk of its own) and the page is kept once made (then the script is held twice: the module's
 * source and the page).
 *
 * The page has a Content-Security-Policy of its own (docs/security.md, "Headers"): its scripts are the
 * page's inline ones, allowed by their hashes, and it may load or send nothing beyond this server.
 */
export const layer = (options: { readonly path: `/${string}`; readonly scalar: Record<string, unknown> }) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const { api } = yield* HttpApi.Api
      const spec = OpenApi.fromApi(api)
      let page: Promise<ReturnType<typeof pageOf>> | undefined
      const render = async () => {
        // @ts-expect-error: @effect/platform's own module of the script, which it does not export (nor type).
        const { javascript } = (await import("../../node_modules/@effect/platform/dist/esm/internal/httpApiScalar.js")) as {
          readonly javascript: string
        }
        return pageOf(spec, { _integration: "html", ...options.scalar }, javascript)
      }
      // A failed import is not kept: the next request tries again.
      const made = () => (page ??= render().catch((error) => {
        page = undefined
        throw error
      }))
      yield* router.get(
        options.path,
        Effect.map(Effect.promise(made), (page) => HttpServerResponse.setHeaders(HttpServerResponse.html(page.html), page.headers))
      )
    })
  )

/** JSON inside a `<script>`: nothing in it may close the element or end a JavaScript string early. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, "\\u003c").replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"))

const text = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
const attribute = (value: string) => text(value).replace(/"/g, "&quot;").replace(/'/g, "&#39;")

/** A `script-src` source allowing exactly this inline script. */
const hashOf = (script: string) => `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`

/**
 * The page's policy: its two inline scripts by hash (no other script, no `eval`), styles inline (Scalar
 * sets them from its script), images and fonts from the page itself, requests to this server only
 * (Scalar's "try it" sends them), no frame, form, plugin or base URL elsewhere.
 */
const policyOf = (scripts: ReadonlyArray<string>) =>
  [
    "default-src 'none'",
    `script-src ${scripts.map(hashOf).join(" ")} 'wasm-unsafe-eval'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")

const pageOf = (spec: OpenApi.OpenAPISpec, configuration: Record<string, unknown>, script: string) => {
  const description = spec.info.description
  const configure = `
      document.getElementById('api-reference').dataset.configuration = JSON.stringify(${scriptJson(configuration)})
    `
  const html = `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>${text(spec.info.title)}</title>
    ${description ? `<meta name="description" content="${attribute(description)}"/>` : ""}
    ${description ? `<meta name="og:description" content="${attribute(description)}"/>` : ""}
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <script id="api-reference" type="application/json">
      ${scriptJson(spec)}
    </script>
    <script>${configure}</script>
    <script>${script}</script>
  </body>
</html>`
  const headers = {
    "content-security-policy": policyOf([configure, script]),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer"
  }
  return { html, headers }
}
