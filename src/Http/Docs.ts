import { HttpApi, HttpApiBuilder, HttpServerResponse, OpenApi } from "@effect/platform"
import { Effect } from "effect"

/**
 * The API reference at `/docs`: Scalar's page over the OpenAPI document, with Scalar's script inlined
 * so that the page loads nothing from the internet.
 *
 * `HttpApiScalar.layer` of @effect/platform makes the same page, but at start-up: its 3.4 MB script is
 * then held three times over (the module's source, the string, the page) by every process, ~10 MB, for
 * a page few ever open. Here the script's module is imported on the first request (the bundler gives
 * it a chunk of its own) and the page is kept once made (then the script is held twice: the module's
 * source and the page).
 */
export const layer = (options: { readonly path: `/${string}`; readonly scalar: Record<string, unknown> }) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const { api } = yield* HttpApi.Api
      const spec = OpenApi.fromApi(api)
      let page: Promise<string> | undefined
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
      yield* router.get(options.path, Effect.map(Effect.promise(made), (html) => HttpServerResponse.html(html)))
    })
  )

/** JSON inside a `<script>`: nothing in it may close the element or end a JavaScript string early. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, "\\u003c").replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"))

const text = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
const attribute = (value: string) => text(value).replace(/"/g, "&quot;").replace(/'/g, "&#39;")

const pageOf = (spec: OpenApi.OpenAPISpec, configuration: Record<string, unknown>, script: string) => {
  const description = spec.info.description
  return `<!doctype html>
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
    <script>
      document.getElementById('api-reference').dataset.configuration = JSON.stringify(${scriptJson(configuration)})
    </script>
    <script>${script}</script>
  </body>
</html>`
}
