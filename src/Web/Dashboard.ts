import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { fileURLToPath } from "node:url"
import { pages } from "../../web/routes.ts"
import { answerFile, loadSite, type Site } from "./Site.ts"

/** Where scripts/build-web.ts writes the dashboard. */
export const distDir = fileURLToPath(new URL("../../web/dist/", import.meta.url))

const toResponse = (answer: ReturnType<typeof answerFile>) =>
  answer.body === undefined
    ? HttpServerResponse.empty({ status: answer.status, headers: answer.headers })
    : HttpServerResponse.uint8Array(answer.body, {
      status: answer.status,
      headers: answer.headers,
      contentType: answer.headers["content-type"]!
    })

const serve = (site: Site | undefined, path: (request: HttpServerRequest.HttpServerRequest) => string) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
    toResponse(answerFile(site, path(request), {
      "accept-encoding": request.headers["accept-encoding"],
      "if-none-match": request.headers["if-none-match"]
    })))

/**
 * The web dashboard at `/`: its HTML page on every path of web/routes.ts (the browser draws the page,
 * so that a reload of any of them works) and its built assets under `/assets/`. Any other path,
 * /api/v1/... included, is not routed here and keeps the API's JSON 404. The build is read once,
 * when the server starts; without one, the pages answer 503 saying how to build it.
 */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const site = yield* Effect.promise(() => loadSite(distDir))
    if (site === undefined) yield* Effect.logWarning(`the dashboard is not built (no ${distDir}index.html): run npm run build:web`)
    for (const pattern of new Set(Object.values(pages))) {
      yield* router.get(pattern, serve(site, () => "/index.html"))
    }
    yield* router.get("/assets/*", serve(site, (request) => request.url.split("?")[0]!))
  })
)
