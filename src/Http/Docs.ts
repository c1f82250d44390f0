import { HttpApi, HttpApiBuilder, HttpServerResponse, OpenApi } from "@effect/platform"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { readFile } from "node:fs/promises"

/**
 * The API reference at `/docs`: Scalar's page over the OpenAPI document, with Scalar's script inlined
 * so that the page loads nothing from the internet.
 *
 * The script is the browser bundle of `@scalar/api-reference` (a build-only package, held to one
 * version in package.json), which `npm run build` copies to dist/server/ (scripts/build-server.ts):
 * the service reads it from there, with runtime dependencies only. `HttpApiScalar.layer` of
 * @effect/platform makes the same page, but at start-up: its 3.4 MB script is then held three times
 * over (the module's source, the string, the page) by every process, ~10 MB, for a page few ever
 * open; bundled, its module also lands in a chunk the server loads at start. Here the script is read
 * on the first request and the page is kept once made (the script is then held once, in the page).
 *
 * The page has a Content-Security-Policy of its own (docs/security.md, "Headers"): its scripts are the
 * page's inline ones, allowed by their hashes, and it may load or send nothing beyond this server.
 */
export const scalarScript = new URL("../../dist/server/scalar-api-reference.js", import.meta.url)

export const layer = (options: { readonly path: `/${string}`; readonly scalar: Record<string, unknown> }) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const { api } = yield* HttpApi.Api
      const spec = OpenApi.fromApi(api)
      let page: Promise<ReturnType<typeof pageOf>> | undefined
      const render = async () => {
        const javascript = await readFile(scalarScript, "utf8")
        return pageOf(spec, { _integration: "html", ...options.scalar }, javascript)
      }
      // A failed read is not kept: the next request tries again.
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
