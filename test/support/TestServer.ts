import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Option, Redacted } from "effect"
import { readFileSync } from "node:fs"
import pg from "pg"
import { ApiKeysRepo } from "../../src/ApiKeys/Repo.ts"
import { type WorkerCapabilities, WorkersRepo } from "../../src/Collector/Workers.ts"
import { type AppSettings, Settings } from "../../src/Config.ts"
import * as Database from "../../src/Database/Database.ts"
import { generateKey, hashKey, keyPrefix } from "../../src/Domain/ApiKey.ts"
import { OrganizationsRepo } from "../../src/Organizations/Repo.ts"
import { Analyzer } from "../../src/Responses/Analyzer.ts"
import { Metrics } from "../../src/Observability/Metrics.ts"
import { MemoryLive, onDatabase, serve } from "../../src/Server.ts"
import { deliverDue, type DeliveryOptions, optionsFromSettings } from "../../src/Webhooks/Delivery.ts"
import { clientFor } from "./ApiClient.ts"

/**
 * The whole server stack on a free port, over one of three backends:
 * - memory: the in-memory repositories (the reference implementation);
 * - embedded: PGlite in memory, through the same pg driver as production;
 * - postgres: a fresh database created on the server of DATABASE_URL, dropped afterwards.
 */
export type Backend = "memory" | "embedded" | "postgres"

const snapshots = new Map<string, Blob>()
const snapshotIn = (variable: string): Blob | undefined => {
  const file = process.env[variable]
  if (file === undefined) return undefined
  if (!snapshots.has(file)) snapshots.set(file, new Blob([readFileSync(file)]))
  return snapshots.get(file)
}

/** The migrated embedded database of the run (test/support/globalSetup.ts), read once per worker. */
export const migratedSnapshot = (): Blob | undefined => snapshotIn("BVM_TEST_EMBEDDED_SNAPSHOT")

/** An empty embedded database, as PGlite's initdb leaves it (test/support/globalSetup.ts). */
export const emptySnapshot = (): Blob | undefined => snapshotIn("BVM_TEST_EMBEDDED_EMPTY")

/** The SQL backend of this run: PostgreSQL when DATABASE_URL is set (CI's second pass), else PGlite. */
export const sqlBackend: Backend = process.env.DATABASE_URL ? "postgres" : "embedded"

/**
 * Every backend an HTTP suite runs on: the reference, and the SQL one. CI's second pass, on PostgreSQL
 * (`BVM_TEST_SQL_PASS=1`, .ci/run), leaves out the in-memory reference, which its first pass ran already.
 */
export const backends: ReadonlyArray<Backend> = process.env.BVM_TEST_SQL_PASS === "1" ? [sqlBackend] : ["memory", sqlBackend]

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly text: string
}

export interface RequestOptions {
  readonly key?: string | undefined
  readonly project?: number | string | undefined
  readonly body?: unknown
  /** Sent as is, instead of `body` as JSON. */
  readonly rawBody?: string
  readonly headers?: Record<string, string>
}

export interface TestServer {
  readonly backend: Backend
  readonly baseUrl: string
  readonly request: (method: string, path: string, options?: RequestOptions) => Promise<Reply>
  readonly createOrganization: (name?: string) => Promise<{ readonly id: number; readonly name: string }>
  readonly createKey: (
    organizationId: number,
    abilities: ReadonlyArray<string>,
    options?: { readonly projectIds?: ReadonlyArray<number> | null; readonly expiresAt?: Date | null; readonly name?: string }
  ) => Promise<{ readonly id: number; readonly key: string }>
  /** The API's typed client with a key: for success paths; `request` is for the exact wire format. */
  readonly client: (key: string) => ReturnType<typeof clientFor>
  /** Raw SQL on the backend's database (undefined for memory). */
  readonly sql: ((query: string) => Promise<ReadonlyArray<Record<string, unknown>>>) | undefined
  readonly revokeKey: (id: number) => Promise<void>
  /** A collector worker's heartbeat, as a collector process records it (now, unless `at` says when). */
  readonly heartbeat: (worker: WorkerCapabilities & { readonly id?: string }, at?: Date) => Promise<void>
  /** Every heartbeat forgotten, as if no worker had ever run. */
  readonly forgetWorkers: () => Promise<void>
  /**
   * One pass of the webhook delivery loop at `at` (now by default), as a collector process runs it
   * (Webhooks/Delivery.ts), with the server's settings and `options` over them. `log` gets every line
   * it logs; `signal` stops it where it is, as a process killed then would be. The number of deliveries tried.
   */
  readonly deliverWebhooks: (
    at?: Date,
    options?: Partial<DeliveryOptions> & { readonly log?: (line: string) => void; readonly signal?: AbortSignal }
  ) => Promise<number>
  readonly close: () => Promise<void>
}

/**
 * A fresh database on the PostgreSQL server of `baseUrl`, and how to drop it: migrated already (a copy of
 * the run's template, test/support/globalSetup.ts) unless `empty`.
 */
export const createDatabase = async (baseUrl: string, options: { readonly empty?: boolean } = {}) => {
  const name = `bvm_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  const template = options.empty ? undefined : process.env.BVM_TEST_PG_TEMPLATE
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(template === undefined ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${template}`)
  await admin.end()
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const admin = new pg.Client({ connectionString: baseUrl })
      await admin.connect()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  }
}

/** What the server needs of its data, whichever the store: the repositories and the readiness check. */
type ServerData = Exclude<Layer.Layer.Success<ReturnType<typeof onDatabase>>, SqlClient.SqlClient>

/**
 * The whole server (the Layers of src/Server.ts) on `data`, on a free loopback port, with the test settings.
 * Answers are analysed in the test's own thread unless `analyzer` says otherwise (test/http/analysis-threads.test.ts).
 */
const serverOn = (data: Layer.Layer<ServerData, unknown, Settings>, settings: Partial<AppSettings>, analyzer: Layer.Layer<Analyzer>) =>
  serve({ port: 0, host: "127.0.0.1" }).pipe(
    Layer.provide(Metrics.layer),
    Layer.provide(analyzer),
    Layer.provideMerge(data),
    Layer.provideMerge(Settings.layerWith({ rateLimitPerMinute: 1_000_000, ...settings })),
    Layer.provide(Logger.minimumLogLevel(process.env.TEST_LOG ? LogLevel.All : LogLevel.None))
  )

export const startServer = async <Overridden extends ServerData = never>(
  backend: Backend,
  settings: Partial<AppSettings> = {},
  /** Services to use instead of the backend's (a repository that fails, to see what a client is told). */
  overrides?: Layer.Layer<Overridden>,
  analyzer: Layer.Layer<Analyzer> = Analyzer.inProcess
): Promise<TestServer> => {
  let drop = async () => {}
  const data: Layer.Layer<ServerData, unknown, Settings> = backend === "memory"
    ? MemoryLive
    : onDatabase(
      backend === "embedded"
        ? Database.layerEmbedded(undefined, undefined, migratedSnapshot())
        : await createDatabase(process.env.DATABASE_URL!).then((db) => {
          drop = db.drop
          return Database.layerServer(Redacted.make(db.url))
        })
    )
  const runtime = ManagedRuntime.make(serverOn(overrides === undefined ? data : Layer.merge(data, overrides), settings, analyzer))
  const address = await runtime.runPromise(HttpServer.addressWith(Effect.succeed))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const baseUrl = `http://127.0.0.1:${address.port}`

  const sqlRuntime = backend === "memory"
    ? undefined
    : (query: string) =>
      runtime.runPromise(
        Effect.serviceOption(SqlClient.SqlClient).pipe(
          Effect.flatMap((sql) => Option.getOrThrow(sql).unsafe<Record<string, unknown>>(query)),
          Effect.orDie
        )
      )

  let organizationCount = 0
  return {
    backend,
    baseUrl,
    request: async (method, path, options = {}) => {
      const headers: Record<string, string> = { accept: "application/json", ...options.headers }
      if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
      if (options.project !== undefined) headers["service-project-id"] = String(options.project)
      let body: string | undefined
      if (options.rawBody !== undefined) body = options.rawBody
      else if (options.body !== undefined) {
        body = JSON.stringify(options.body)
        headers["content-type"] ??= "application/json"
      }
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body })
      const text = await response.text()
      let parsed: unknown = undefined
      try {
        parsed = text === "" ? undefined : JSON.parse(text)
      } catch {
        parsed = undefined
      }
      return { status: response.status, headers: response.headers, body: parsed, text }
    },
    createOrganization: (name) =>
      runtime.runPromise(
        Effect.flatMap(OrganizationsRepo, (repo) => repo.create(name ?? `Organization ${++organizationCount}`)).pipe(Effect.orDie)
      ),
    createKey: (organizationId, abilities, options = {}) => {
      const key = generateKey()
      return runtime.runPromise(
        Effect.flatMap(ApiKeysRepo, (repo) =>
          repo.create({
            organization_id: organizationId,
            name: options.name ?? "test key",
            key_hash: hashKey(key),
            prefix: keyPrefix(key),
            abilities,
            project_ids: options.projectIds ?? null,
            expires_at: options.expiresAt ?? null
          })).pipe(Effect.orDie, Effect.map((created) => ({ id: created.id, key })))
      )
    },
    revokeKey: (id) => runtime.runPromise(Effect.flatMap(ApiKeysRepo, (repo) => repo.revoke(id)).pipe(Effect.orDie, Effect.asVoid)),
    heartbeat: (worker, at = new Date()) =>
      runtime.runPromise(Effect.flatMap(WorkersRepo, (workers) =>
        workers.beat({ id: worker.id ?? "test-worker", startedAt: at, providers: worker.providers, simulated: worker.simulated }, at))),
    forgetWorkers: () =>
      runtime.runPromise(Effect.flatMap(WorkersRepo, (workers) =>
        // Seen from the epoch, every remembered worker is "alive": all are listed.
        Effect.flatMap(workers.status(new Date(0)), (status) => Effect.forEach(status.alive, (worker) => workers.leave(worker.id), { discard: true })))),
    deliverWebhooks: (at, { log, signal, ...options } = {}) =>
      runtime.runPromise(Effect.flatMap(optionsFromSettings, (settings) => deliverDue({ ...settings, ...options }, at)).pipe(
        // Every line the loop logs, with its annotations, to `log`.
        log === undefined ? (effect) => effect : (effect) =>
          effect.pipe(
            Effect.provide(Logger.replace(Logger.defaultLogger, Logger.make(({ annotations, message }) =>
              log(JSON.stringify({ message, annotations: Object.fromEntries(annotations) }))))),
            Logger.withMinimumLogLevel(LogLevel.All)
          )
      ), signal === undefined ? undefined : { signal }),
    client: (key) => clientFor(baseUrl, key),
    sql: sqlRuntime,
    close: async () => {
      await runtime.dispose()
      await drop()
    }
  }
}
