/**
 * The real server stack in this process, on a free loopback port, over the PostgreSQL database of a
 * URL: the SQL repositories, the API with its middleware, the request log (silenced), a rate limit
 * high enough never to answer 429. Built like test/support/TestServer.ts, but on an existing
 * database (migrated, never created or dropped here).
 *
 * The same runtime also gives the services themselves (Analytics, the repositories, the SqlClient),
 * so a benchmark can time the SQL of a request without HTTP, through the same connection pool.
 */
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Option, Redacted } from "effect"
import { createServer } from "node:http"
import { Settings } from "../../src/Config.ts"
import * as Database from "../../src/Database/Database.ts"
import * as Migrations from "../../src/Database/Migrations.ts"
import * as Health from "../../src/Http/Health.ts"
import { requestLog } from "../../src/Http/RequestLog.ts"
import * as Repositories from "../../src/Repositories.ts"
import { ApiLive } from "../../src/Server.ts"

export const startBenchServer = async (databaseUrl: string) => {
  const url = Redacted.make(databaseUrl)
  const dataLayer = Layer.mergeAll(Repositories.layerSql, Health.Readiness.layerSql).pipe(
    Layer.provideMerge(Migrations.layer),
    Layer.provideMerge(Database.layerServer(url))
  )
  const serverLayer = HttpApiBuilder.serve(requestLog).pipe(
    Layer.provide(ApiLive),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
  )
  const layer = serverLayer.pipe(
    Layer.provideMerge(dataLayer),
    Layer.provideMerge(Settings.layerWith({ rateLimitPerMinute: 1_000_000_000, databaseUrl: Option.some(url) })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.None))
  )
  const runtime = ManagedRuntime.make(layer)
  const address = await runtime.runPromise(HttpServer.addressWith(Effect.succeed))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { runtime, baseUrl: `http://127.0.0.1:${address.port}`, close: () => runtime.dispose() }
}

export type BenchServer = Awaited<ReturnType<typeof startBenchServer>>
