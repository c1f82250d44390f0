import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { Settings } from "../Config.ts"
import * as Embedded from "./Embedded.ts"
import { pgTypes } from "./PgTypes.ts"

/**
 * The SQL client of the service: `@effect/sql-pg` over either the PostgreSQL server of `DATABASE_URL`
 * or the embedded PGlite database. One dialect, one driver, two ways to run.
 */

const common = {
  types: pgTypes,
  applicationName: "brand-visibility-monitor",
  connectTimeout: Duration.seconds(5)
} as const

/** PGlite is a single session: more than one connection would share one transaction. */
const embeddedClient = (endpoint: Embedded.EmbeddedEndpoint) =>
  PgClient.layer({
    ...common,
    host: endpoint.host,
    port: endpoint.port,
    username: "postgres",
    database: "postgres",
    maxConnections: 1,
    minConnections: 1
  })

/** The embedded database on a data directory (or in memory), owned by this process. */
export const layerEmbedded = (dataDir: string | undefined) =>
  Layer.unwrapScoped(Effect.map(Embedded.serve({ dataDir }), embeddedClient))

export const layerServer = (url: Redacted.Redacted) => PgClient.layer({ ...common, url, maxConnections: 10 })

/**
 * The database named by the settings. With `shareRunning`, a process that finds the embedded database
 * already served by another process (the CLI beside a running server) connects to that process's
 * socket rather than opening the data directory a second time.
 */
export const layer = (options: { readonly shareRunning: boolean }) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const settings = yield* Settings
    if (Option.isSome(settings.databaseUrl)) {
      return layerServer(settings.databaseUrl.value)
    }
    if (options.shareRunning) {
      const running = yield* Embedded.findRunning(settings.dataDir)
      if (Option.isSome(running)) return embeddedClient(running.value)
    }
    return layerEmbedded(settings.dataDir)
  }))
