import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Data, Effect, Option, Schema } from "effect"
import * as Fs from "node:fs/promises"
import * as Net from "node:net"
import * as Path from "node:path"

/**
 * The embedded PostgreSQL: PGlite, served on loopback by pglite-socket so that the service talks to it
 * through the same `pg` driver as to a real server.
 *
 * PGlite is one session in one process, and its data directory must never be opened by two processes.
 * The process that opens it publishes its socket in `<DATA_DIR>/embedded-server.json`; another process
 * (the CLI while the server runs) finds that file and connects to the socket instead of opening the
 * directory. pglite-socket queues the queries of several connections onto the one session and keeps a
 * transaction's queries on the connection that opened it.
 */

export class EmbeddedDatabaseError extends Data.TaggedError("EmbeddedDatabaseError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

const Publication = Schema.parseJson(Schema.Struct({ pid: Schema.Int, host: Schema.String, port: Schema.Int }))
type Publication = typeof Publication.Type

const publicationFile = (dataDir: string) => Path.join(dataDir, "embedded-server.json")

export interface EmbeddedEndpoint {
  readonly host: string
  readonly port: number
}

const isProcessAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const canConnect = (host: string, port: number) =>
  Effect.async<boolean>((resume) => {
    const socket = Net.connect({ host, port })
    const done = (ok: boolean) => {
      socket.destroy()
      resume(Effect.succeed(ok))
    }
    socket.setTimeout(1000, () => done(false))
    socket.once("connect", () => done(true))
    socket.once("error", () => done(false))
    return Effect.sync(() => socket.destroy())
  })

/** The socket of a live process that holds `dataDir`, if there is one. */
export const findRunning = (dataDir: string): Effect.Effect<Option.Option<EmbeddedEndpoint>> =>
  Effect.tryPromise(() => Fs.readFile(publicationFile(dataDir), "utf8")).pipe(
    Effect.flatMap(Schema.decodeUnknown(Publication)),
    Effect.option,
    Effect.flatMap(Option.match({
      onNone: () => Effect.succeedNone,
      onSome: (published: Publication) =>
        published.pid !== process.pid && isProcessAlive(published.pid)
          ? Effect.map(
            canConnect(published.host, published.port),
            (ok) => (ok ? Option.some({ host: published.host, port: published.port }) : Option.none())
          )
          : Effect.succeedNone
    }))
  )

/**
 * Opens PGlite (in memory when `dataDir` is undefined) and serves it on a free loopback port for the
 * lifetime of the scope. With a data directory, the socket is published for other processes.
 */
export const serve = (options: { readonly dataDir: string | undefined; readonly maxConnections?: number }) =>
  Effect.gen(function*() {
    const dataDir = options.dataDir === undefined ? undefined : Path.resolve(options.dataDir)
    if (dataDir !== undefined) {
      const running = yield* findRunning(dataDir)
      if (Option.isSome(running)) {
        return yield* new EmbeddedDatabaseError({
          message:
            `The embedded database in ${dataDir} is in use by another process (socket ${running.value.host}:${running.value.port}). ` +
            `Stop that process, or point DATA_DIR elsewhere.`
        })
      }
      yield* Effect.tryPromise({
        try: () => Fs.mkdir(dataDir, { recursive: true }),
        catch: (cause) => new EmbeddedDatabaseError({ message: `Cannot create DATA_DIR ${dataDir}`, cause })
      })
    }
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => PGlite.create(dataDir === undefined ? undefined : Path.join(dataDir, "pgdata")),
        catch: (cause) => new EmbeddedDatabaseError({ message: "Cannot open the embedded database", cause })
      }),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
    const server = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const server = new PGLiteSocketServer({
            db,
            host: "127.0.0.1",
            port: 0,
            maxConnections: options.maxConnections ?? 16
          })
          await server.start()
          return server
        },
        catch: (cause) => new EmbeddedDatabaseError({ message: "Cannot serve the embedded database", cause })
      }),
      (server) => Effect.promise(() => server.stop()).pipe(Effect.ignore)
    )
    const [host, port] = server.getServerConn().split(":")
    const endpoint: EmbeddedEndpoint = { host: host!, port: Number(port) }
    if (dataDir !== undefined) {
      const file = publicationFile(dataDir)
      const published: Publication = { pid: process.pid, ...endpoint }
      yield* Effect.acquireRelease(
        Effect.promise(() => Fs.writeFile(file, Schema.encodeSync(Publication)(published))),
        () => Effect.promise(() => Fs.rm(file, { force: true })).pipe(Effect.ignore)
      )
    }
    return endpoint
  })
