import { HttpApiBuilder, HttpRouter, HttpServer, type HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import type { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { Api } from "./Api.ts"
import { KeyAuthLive } from "./ApiKeys/Http.ts"
import { mergeAll } from "./Area.ts"
import { areas } from "./Areas.ts"
import * as Collector from "./Collector/Collector.ts"
import { Settings } from "./Config.ts"
import * as Database from "./Database/Database.ts"
import * as Migrations from "./Database/Migrations.ts"
import * as Authorize from "./Http/Authorize.ts"
import * as Docs from "./Http/Docs.ts"
import { errorResponse } from "./Http/ErrorResponse.ts"
import * as Health from "./Http/Health.ts"
import { makeKnownRoutes, methodNotAllowed } from "./Http/KnownRoutes.ts"
import { ProjectContext } from "./Http/ProjectContext.ts"
import { ProjectFromPath } from "./Http/ProjectFromPath.ts"
import { RequestQuota } from "./Http/RequestQuota.ts"
import { makeNodeServer } from "./Http/NodeServer.ts"
import { guardInput } from "./Http/RequestBody.ts"
import * as SecurityHeaders from "./Http/SecurityHeaders.ts"
import { requestLog } from "./Http/RequestLog.ts"
import * as McpHttp from "./Mcp/Http.ts"
import * as Metrics from "./Observability/Metrics.ts"
import { ProjectLookupLive } from "./Projects/Http.ts"
import { Ingestion } from "./Responses/Ingestion.ts"
import * as Repositories from "./Repositories.ts"
import * as Dashboard from "./Web/Dashboard.ts"

const knownRoutes = makeKnownRoutes(Api)

/** Middleware of the API: key checks, project context. Needs the repositories and settings. */
const MiddlewareLive = Layer.mergeAll(Authorize.layer, ProjectContext.layer, ProjectFromPath.layer).pipe(
  Layer.provide(Layer.mergeAll(KeyAuthLive, RequestQuota.layer))
)

/**
 * The API with its handlers, OpenAPI document, health routes and MCP server, behind the input limits:
 * what another Effect app mounts beside its own routes (src/Embedding). The errors the endpoints
 * declare are encoded by the API from their schemas; `errorResponse` answers the rest.
 */
export const ApiRoutesLive = Layer.mergeAll(
  HttpApiBuilder.middlewareOpenApi({ path: "/api/v1/openapi.json" }),
  // The input limits (body size and type, nesting, path) first; a known path asked with another method is a 405.
  HttpApiBuilder.middleware((app) =>
    Effect.catchAllCause(guardInput(app), (cause) =>
      Effect.flatMap(methodNotAllowed(knownRoutes, cause), Option.match({ onNone: () => errorResponse(cause), onSome: Effect.succeed }))) as
      // What fails on is an error some endpoint declares: the API encodes it (its type is the endpoints', not the API's).
      Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>
  ),
  Health.layer,
  Metrics.route,
  // The MCP server for AI assistants at POST /mcp (src/Mcp), with the API's keys.
  McpHttp.layer
).pipe(
  Layer.provideMerge(
    HttpApiBuilder.api(Api).pipe(
      // The handlers of every area (src/Areas.ts).
      Layer.provide(mergeAll(areas.map((area) => area.handlers))),
      Layer.provide(MiddlewareLive),
      Layer.provide([ProjectLookupLive, Ingestion.layer])
    )
  )
)

/**
 * The service's own routes: the API's, its reference at `/docs` (Scalar's script from dist/server/) and
 * the dashboard at `/` (web/dist/).
 */
export const ApiLive = Layer.merge(Docs.layer({ path: "/docs", scalar: { withDefaultFonts: false } }), Dashboard.layer).pipe(
  Layer.provideMerge(ApiRoutesLive)
)

/** The repositories and readiness check on a SQL client, migrated before serving. */
export const onDatabase = <E, R>(client: Layer.Layer<SqlClient.SqlClient, E, R>) =>
  Layer.mergeAll(Repositories.layerSqlServing, Health.Readiness.layerSql).pipe(
    Layer.provideMerge(Migrations.layer),
    Layer.provideMerge(client)
  )

/** The repositories and readiness check on the configured database. */
export const DatabaseLive = onDatabase(Database.layer({ shareRunning: false }))

/** The repositories on one fresh in-memory store, always ready: the reference the tests hold the SQL ones to. */
export const MemoryLive = Layer.merge(Repositories.layerMemory, Health.Readiness.layerAlways)

/**
 * The collector (scheduler and worker) on the configured database and platforms, or nothing when
 * `WORKER=off`: then separate `npm run worker` processes do the work.
 */
export const CollectorLive = Layer.unwrapEffect(Effect.map(Settings, (settings) =>
  settings.worker
    ? Collector.layerLive
    : Layer.empty
))

/** One line once the server listens, with the address to open. */
const AnnounceAddress = Layer.effectDiscard(HttpServer.addressWith((address) =>
  Effect.logInfo(
    address._tag === "TcpAddress"
      ? `listening on http://${address.hostname === "0.0.0.0" || address.hostname === "::" ? "localhost" : address.hostname}:${address.port}`
      : `listening on ${address.path}`
  )
))

/**
 * The HTTP server listening on `address`, serving the API with request ids, access logs and metrics
 * (it needs `Metrics`: one registry per process, shared with the collector's workers).
 */
export const serve = (address: { readonly port: number; readonly host?: string }) =>
  Layer.merge(HttpApiBuilder.serve((app) => requestLog(Metrics.measured(knownRoutes)(app))), AnnounceAddress).pipe(
    Layer.provide(ApiLive),
    // Before the server serves: its requests start with the handler that adds the hardening headers.
    Layer.provide(SecurityHeaders.layer),
    // A path matches a route exactly: another case, a doubled or a trailing slash is no route (404).
    // (The router's defaults ignore all three: `DELETE /api/v1/PROMPTS/38/tags/146` detached the tag.)
    Layer.provide(HttpRouter.setRouterConfig({ caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false })),
    Layer.provideMerge(Layer.unwrapEffect(Effect.map(Settings, ({ requestTimeoutSeconds }) =>
      NodeHttpServer.layer(() => makeNodeServer({ requestTimeoutSeconds }), address))))
  )

/** The HTTP server on `PORT`. */
export const HttpServerLive = Layer.unwrapEffect(Effect.map(Settings, (settings) => serve({ port: settings.port })))
