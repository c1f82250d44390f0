/**
 * The real server stack in this process, on a free loopback port, over the PostgreSQL database of a
 * URL: the SQL repositories, the API with its middleware, the request log (silenced), a rate limit
 * high enough never to answer 429. Built like test/support/TestServer.ts, but on an existing
 * database (migrated, never created or dropped here).
 *
 * The same runtime also gives the services themselves (Analytics, the repositories, the SqlClient),
 * so a benchmark can time the SQL of a request without HTTP, through the same connection pool.
 */
import { HttpServer } from "@effect/platform"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Option, Redacted } from "effect"
import { Settings } from "../../src/Config.ts"
import * as Database from "../../src/Database/Database.ts"
import { Metrics } from "../../src/Observability/Metrics.ts"
import { Analyzer } from "../../src/Responses/Analyzer.ts"
import { onDatabase, serve } from "../../src/Server.ts"

export const startBenchServer = async (databaseUrl: string) => {
  const url = Redacted.make(databaseUrl)
  const layer = serve({ port: 0, host: "127.0.0.1" }).pipe(
    Layer.provide(Metrics.layer),
    Layer.provide(Analyzer.threads()),
    Layer.provideMerge(onDatabase(Database.layerServer(url))),
    Layer.provideMerge(Settings.layerWith({ rateLimitPerMinute: 1_000_000_000, databaseUrl: Option.some(url) })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.None))
  )
  const runtime = ManagedRuntime.make(layer)
  const address = await runtime.runPromise(HttpServer.addressWith(Effect.succeed))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { runtime, baseUrl: `http://127.0.0.1:${address.port}`, close: () => runtime.dispose() }
}

export type BenchServer = Awaited<ReturnType<typeof startBenchServer>>
