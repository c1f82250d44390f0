import type { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import pg from "pg"
import { Duration, Effect, Layer, Option, Redacted, Runtime } from "effect"
import { Settings } from "../Config.ts"
import * as Embedded from "./Embedded.ts"
import { pgTypes } from "./PgTypes.ts"

/**
 * The SQL client of the service: `@effect/sql-pg` over either the PostgreSQL server of `DATABASE_URL`
 * or the embedded PGlite database. One dialect, one driver, two ways to run.
 */

/**
 * A pool whose every wait is bounded, so that a database that stops answering (frozen, a network
 * partition) turns requests into 503s instead of holding them for as long as it lasts:
 * - `statement_timeout`, on the server, ends a statement that runs too long (PostgreSQL only);
 * - `query_timeout`, in the client, gives up on an answer that does not come (a frozen server never
 *   ends its own statement), a little after the statement timeout;
 * - `connectionTimeoutMillis` bounds the wait for a connection.
 */
const makePool = (config: pg.PoolConfig, statementTimeoutMs: number, serverSide: boolean) =>
  Effect.acquireRelease(
    Effect.map(Effect.runtime<never>(), (runtime) => {
      const pool = new pg.Pool({
        ...config,
        types: pgTypes,
        application_name: "brand-visibility-monitor",
        connectionTimeoutMillis: 5_000,
        query_timeout: statementTimeoutMs + 5_000,
        ...(serverSide ? { statement_timeout: statementTimeoutMs, idle_in_transaction_session_timeout: statementTimeoutMs * 2 } : {})
      })
      // An idle connection the server closes (a restart, a failover, an idle timeout on the way) is an
      // `error` event of the pool, which Node would otherwise turn into the end of the process. The pool
      // has dropped that connection already; the next statement opens another.
      pool.on("error", (error) =>
        Runtime.runFork(runtime)(
          Effect.logWarning("the database closed an idle connection; the next statement opens another", error.message)
        ))
      return pool
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption(1_000))
  ).pipe(
    // Checked once, so that an unreachable database fails the start-up with its reason.
    Effect.tap((pool) =>
      Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
      }).pipe(
        Effect.timeoutFail({
          duration: Duration.seconds(5),
          onTimeout: () => new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
        })
      )
    )
  )

const clientOf = (acquire: ReturnType<typeof makePool>) =>
  PgClient.layerFromPool({ acquire, applicationName: "brand-visibility-monitor", types: pgTypes })

/** PGlite is a single session: more than one connection would share one transaction. */
const embeddedClient = (endpoint: Embedded.EmbeddedEndpoint, statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS) =>
  clientOf(makePool({ host: endpoint.host, port: endpoint.port, user: "postgres", database: "postgres", max: 1, min: 1 }, statementTimeoutMs, false))

/** How long a statement may run when the settings say nothing (tests, scripts). */
const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000

/** The embedded database on a data directory (or in memory), owned by this process. */
export const layerEmbedded = (dataDir: string | undefined, statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS, snapshot?: Blob) =>
  Layer.unwrapScoped(Effect.map(Embedded.serve({ dataDir, snapshot }), (endpoint) => embeddedClient(endpoint, statementTimeoutMs)))

/**
 * An in-memory embedded database after `prepare` (the migrations), as a snapshot that fresh ones start
 * from in a fraction of the time (the tests: one migration for the whole run, not one per file).
 */
export const embeddedSnapshot = <E>(prepare: Layer.Layer<never, E, SqlClient.SqlClient>) =>
  Effect.scoped(Effect.gen(function*() {
    const opened = yield* Embedded.open({ dataDir: undefined })
    yield* Layer.build(prepare.pipe(Layer.provide(embeddedClient(opened.endpoint))))
    return yield* opened.dump
  }))

export const layerServer = (url: Redacted.Redacted, statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS) =>
  clientOf(makePool({ connectionString: Redacted.value(url), max: 10 }, statementTimeoutMs, true))

/**
 * The database named by the settings. With `shareRunning`, a process that finds the embedded database
 * already served by another process (the CLI beside a running server) connects to that process's
 * socket rather than opening the data directory a second time.
 */
export const layer = (options: { readonly shareRunning: boolean }) =>
  Layer.unwrapEffect(Effect.gen(function*() {
    const settings = yield* Settings
    const timeoutMs = settings.databaseStatementTimeoutSeconds * 1000
    if (Option.isSome(settings.databaseUrl)) {
      return layerServer(settings.databaseUrl.value, timeoutMs)
    }
    if (options.shareRunning) {
      const running = yield* Embedded.findRunning(settings.dataDir)
      if (Option.isSome(running)) return embeddedClient(running.value, timeoutMs)
    }
    return layerEmbedded(settings.dataDir, timeoutMs)
  }))
