import { Data, Duration, Effect, Option, Runtime, Schedule, Schema } from "effect"
import * as Fs from "node:fs/promises"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Backup from "./Backup.ts"

/**
 * The embedded PostgreSQL: PGlite, served by pglite-socket so that the service talks to it through the
 * same `pg` driver as to a real server. It is served on a Unix socket in a directory only this OS user
 * can open (PGlite itself accepts any user and password), never on a network port.
 *
 * PGlite is one session in one process, and its data directory must never be opened by two processes.
 * The process that opens it publishes its socket in `<DATA_DIR>/embedded-server.json`; another process
 * (the CLI while the server runs) finds that file and connects to the socket instead of opening the
 * directory. pglite-socket queues the queries of several connections onto the one session and keeps a
 * transaction's queries on the connection that opened it.
 *
 * Opening takes seconds, so the directory is claimed first with an exclusive lock file
 * (`embedded.lock`, holding the owner's pid and start time): a second process never opens it, even
 * during that time, and a lock whose process is gone is taken over, even if its pid was reused.
 */

export class EmbeddedDatabaseError extends Data.TaggedError("EmbeddedDatabaseError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

const Publication = Schema.parseJson(Schema.Struct({ pid: Schema.Int, host: Schema.String, port: Schema.Int }))
type Publication = typeof Publication.Type

const publicationFile = (dataDir: string) => Path.join(dataDir, "embedded-server.json")
const lockFile = (dataDir: string) => Path.join(dataDir, "embedded.lock")

/**
 * When a process started, in clock ticks since boot (Linux: field 22 of /proc/<pid>/stat), or
 * undefined where that cannot be read. With the pid it names a process for good: a pid reused by
 * another process has another start time.
 */
const startTimeOf = async (pid: number): Promise<string | undefined> => {
  try {
    const stat = await Fs.readFile(`/proc/${pid}/stat`, "utf8")
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]
  } catch {
    return undefined
  }
}

/** The holder a lock file names: its pid, and its start time where the system tells it. */
const readHolder = (file: string) =>
  Effect.tryPromise(() => Fs.readFile(file, "utf8")).pipe(
    Effect.map((text) => {
      const [pid, startTime] = text.trim().split("\n")
      return { pid: Number.parseInt(pid ?? "", 10), startTime: startTime?.trim() || undefined }
    }),
    Effect.option,
    Effect.map(Option.filter((holder) => Number.isSafeInteger(holder.pid)))
  )

/** Whether the lock's holder is still running: its pid is alive and is the same process. */
const isHolderAlive = (holder: { readonly pid: number; readonly startTime: string | undefined }) =>
  Effect.promise(async () => {
    if (holder.pid === process.pid || !isProcessAlive(holder.pid)) return false
    if (holder.startTime === undefined) return true
    const now = await startTimeOf(holder.pid)
    return now === undefined || now === holder.startTime
  })

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

/** The Unix socket of an endpoint: `host` is its directory, as the pg client reads it. */
const socketPath = (endpoint: EmbeddedEndpoint) => Path.join(endpoint.host, `.s.PGSQL.${endpoint.port}`)

const canConnect = (host: string, port: number) =>
  Effect.async<boolean>((resume) => {
    const socket = Net.connect({ path: socketPath({ host, port }) })
    const done = (ok: boolean) => {
      socket.destroy()
      resume(Effect.succeed(ok))
    }
    socket.setTimeout(1000, () => done(false))
    socket.once("connect", () => done(true))
    socket.once("error", () => done(false))
    return Effect.sync(() => socket.destroy())
  })

/**
 * The socket of a live process that holds `dataDir`, if there is one. A holder that is still opening
 * the database is waited for (up to a minute) until it publishes its socket.
 */
export const findRunning = (dataDir: string): Effect.Effect<Option.Option<EmbeddedEndpoint>> =>
  Effect.gen(function*() {
    const published = yield* readPublication(dataDir)
    if (Option.isSome(published)) return published
    const holder = yield* readHolder(lockFile(dataDir))
    if (Option.isNone(holder) || !(yield* isHolderAlive(holder.value))) return Option.none()
    yield* Effect.logInfo(`waiting for process ${holder.value.pid} to open the embedded database`)
    return yield* readPublication(dataDir).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail("not yet"), onSome: (endpoint) => Effect.succeed(Option.some(endpoint)) })),
      Effect.retry(Schedule.spaced(Duration.millis(250)).pipe(Schedule.upTo(Duration.minutes(1)))),
      Effect.orElseSucceed(() => Option.none<EmbeddedEndpoint>())
    )
  })

const readPublication = (dataDir: string): Effect.Effect<Option.Option<EmbeddedEndpoint>> =>
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

/** The first byte of the extended-query messages that must reach PGlite together, up to their Sync. */
const EXTENDED_QUERY = new Set(["P", "B", "D", "E", "C", "H"].map((c) => c.charCodeAt(0)))

/**
 * pglite-socket queues protocol messages one by one, and keeps a connection's messages together only
 * while PGlite is in a transaction. Outside one, another connection's Parse could land between this
 * one's Parse and Bind and replace the unnamed statement. This view of the database also reports "in a
 * transaction" while a connection's extended query (Parse ... Sync) is under way, so the queue serves
 * that connection alone until its Sync.
 */
const wholeQueries = <DB extends {
  isInTransaction(): boolean
  execProtocolRawStream(message: Uint8Array, options?: any): Promise<unknown>
  exec(query: string, options?: any): Promise<unknown>
}>(db: DB): DB => {
  let queryOpen = false
  return new Proxy(db, {
    get(target, property, receiver) {
      switch (property) {
        case "isInTransaction":
          return () => queryOpen || target.isInTransaction()
        case "execProtocolRawStream":
          return async (message: Uint8Array, options?: unknown) => {
            queryOpen = message.length > 0 && EXTENDED_QUERY.has(message[0]!)
            return target.execProtocolRawStream(message, options)
          }
        case "exec":
          // The queue's own ROLLBACK for a connection that left mid-query closes that query too.
          return (query: string, options?: unknown) => {
            queryOpen = false
            return target.exec(query, options)
          }
        default: {
          const value = Reflect.get(target, property, receiver)
          return typeof value === "function" ? value.bind(target) : value
        }
      }
    }
  })
}

/**
 * Claims `dataDir` for this process; a lock left by a process that is gone (dead, or its pid now
 * another process's) is taken over.
 */
const lock = (dataDir: string): Effect.Effect<void, EmbeddedDatabaseError> =>
  Effect.tryPromise({
    try: async () => {
      const startTime = await startTimeOf(process.pid)
      await Fs.writeFile(lockFile(dataDir), `${process.pid}\n${startTime ?? ""}\n`, { flag: "wx", mode: 0o600 })
    },
    catch: (cause) => cause as NodeJS.ErrnoException
  }).pipe(
    Effect.catchAll((error) =>
      error.code !== "EEXIST"
        ? Effect.fail(new EmbeddedDatabaseError({ message: `Cannot lock ${lockFile(dataDir)}`, cause: error }))
        : Effect.flatMap(readHolder(lockFile(dataDir)), (holder) =>
          Effect.flatMap(Option.isSome(holder) ? isHolderAlive(holder.value) : Effect.succeed(false), (alive) =>
            alive && Option.isSome(holder)
              ? Effect.fail(
                new EmbeddedDatabaseError({
                  message: `The embedded database in ${dataDir} is in use by process ${holder.value.pid}. ` +
                    `Stop that process, or point DATA_DIR elsewhere.`
                })
              )
              : Effect.promise(() => Fs.rm(lockFile(dataDir), { force: true })).pipe(Effect.zipRight(lock(dataDir)))))
    )
  )

/** `0755` for a mode's permission bits. */
const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, "0")

/**
 * Every directory under `root` made 0700 and every file stripped of its group and other bits, without
 * following links. PGlite writes its initial files with mode 0666 whatever the umask (it copies them
 * from its in-memory template with their modes), and a data directory from an older version of the
 * service may have them too; the files PostgreSQL makes later are 0600. A few ms for the ~1,000 files
 * of a fresh database.
 */
const tightenTree = async (root: string): Promise<void> => {
  for (const entry of await Fs.readdir(root, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue
    const path = Path.join(root, entry.name)
    const { mode } = await Fs.lstat(path)
    if (entry.isDirectory()) {
      if ((mode & 0o777) !== 0o700) await Fs.chmod(path, 0o700)
      await tightenTree(path)
    } else if ((mode & 0o077) !== 0) {
      await Fs.chmod(path, mode & 0o700)
    }
  }
}

/**
 * `dataDir` as a directory only this OS user can open (0700), whatever the umask and whatever mode it
 * was made with, and everything already in it private too, before the database is opened: another
 * local user must not read its files (a key's SHA-256 and tenants' names are in the WAL) or write them.
 * A directory that cannot be made private is refused with the reason.
 */
const makePrivate = (dataDir: string): Effect.Effect<void, EmbeddedDatabaseError> =>
  Effect.gen(function*() {
    const fail = (message: string) => (cause: unknown) => new EmbeddedDatabaseError({ message, cause })
    yield* Effect.tryPromise({
      try: () => Fs.mkdir(dataDir, { recursive: true, mode: 0o700 }),
      catch: fail(`Cannot create DATA_DIR ${dataDir}`)
    }).pipe(Effect.catchIf((error) => (error.cause as NodeJS.ErrnoException).code === "EEXIST", () => Effect.void))
    const info = yield* Effect.tryPromise({ try: () => Fs.stat(dataDir), catch: fail(`Cannot read DATA_DIR ${dataDir}`) })
    if (!info.isDirectory()) return yield* new EmbeddedDatabaseError({ message: `DATA_DIR ${dataDir} is not a directory.` })
    if ((info.mode & 0o077) !== 0) {
      yield* Effect.tryPromise({
        try: () => Fs.chmod(dataDir, 0o700),
        catch: fail(
          `DATA_DIR ${dataDir} is open to other users (mode ${octal(info.mode)}) and cannot be made private (0700): ` +
            `give it to the service's OS user, or point DATA_DIR elsewhere`
        )
      })
      yield* Effect.logWarning(`DATA_DIR ${dataDir} was open to other users (mode ${octal(info.mode)}); it is now 0700`)
    }
    yield* Effect.tryPromise({
      try: () => tightenTree(dataDir),
      catch: fail(`Cannot make the files of DATA_DIR ${dataDir} private`)
    })
  })

/** The port number that names the socket file (`.s.PGSQL.<port>`), as PostgreSQL's do. */
const SOCKET_PORT = 5432

/** Unix socket paths are limited to about 107 bytes; a longer one goes to a private temporary directory. */
const MAX_SOCKET_PATH = 100

/**
 * A directory only this user can open (0700), for the socket: `DATA_DIR/run`, or a fresh temporary
 * one (removed at the end) for an in-memory database or a DATA_DIR too deep for a socket path.
 */
const socketDirectory = (dataDir: string | undefined) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const inData = dataDir === undefined ? undefined : Path.join(dataDir, "run")
        if (inData !== undefined && Path.join(inData, `.s.PGSQL.${SOCKET_PORT}`).length <= MAX_SOCKET_PATH) {
          await Fs.mkdir(inData, { recursive: true, mode: 0o700 })
          await Fs.chmod(inData, 0o700)
          // A socket file left by a process that was killed (this process holds the lock now).
          await Fs.rm(Path.join(inData, `.s.PGSQL.${SOCKET_PORT}`), { force: true })
          return { path: inData, temporary: false }
        }
        return { path: await Fs.mkdtemp(Path.join(Os.tmpdir(), "bvm-db-")), temporary: true }
      },
      catch: (cause) => new EmbeddedDatabaseError({ message: "Cannot make the embedded database's socket directory", cause })
    }),
    (directory) =>
      directory.temporary ? Effect.promise(() => Fs.rm(directory.path, { recursive: true, force: true })).pipe(Effect.ignore) : Effect.void
  )

export interface EmbeddedOptions {
  readonly dataDir: string | undefined
  readonly maxConnections?: number
  /**
   * A new database starts as this snapshot (a tar of a data directory, `dump`) instead of empty: the
   * tests' migrated one in memory, or a backup restored into an empty DATA_DIR.
   */
  readonly snapshot?: Blob | undefined
}

/**
 * Opens PGlite (in memory when `dataDir` is undefined) and serves it on its private Unix socket for the
 * lifetime of the scope. With a data directory, the socket is published for other processes.
 */
export const serve = (options: EmbeddedOptions) => Effect.map(open(options), (opened) => opened.endpoint)

/** `serve`, and a way to take a snapshot of the database as it is (an in-memory one, for tests). */
export const open = (options: EmbeddedOptions) =>
  Effect.gen(function*() {
    const dataDir = options.dataDir === undefined ? undefined : Path.resolve(options.dataDir)
    if (dataDir !== undefined) {
      yield* makePrivate(dataDir)
      yield* Effect.acquireRelease(lock(dataDir), () => Effect.promise(() => Fs.rm(lockFile(dataDir), { force: true })).pipe(Effect.ignore))
    }
    // Loaded only here: a process on DATABASE_URL or on another process's socket never needs it.
    const { PGlite } = yield* Effect.promise(() => import("@electric-sql/pglite"))
    const { PGLiteSocketServer } = yield* Effect.promise(() => import("@electric-sql/pglite-socket"))
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => {
          const start = options.snapshot === undefined ? {} : { loadDataDir: options.snapshot }
          return dataDir === undefined ? PGlite.create(start) : PGlite.create(Path.join(dataDir, "pgdata"), start)
        },
        catch: (cause) => new EmbeddedDatabaseError({ message: "Cannot open the embedded database", cause })
      }),
      (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
    )
    // The files PGlite has just written (0666 for a new database) made private too; DATA_DIR was 0700 before.
    if (dataDir !== undefined) yield* makePrivate(dataDir)
    // A Unix socket in a directory only this user can open: no other local user can connect (PGlite
    // itself accepts any user and password), and nothing listens on the network.
    const directory = yield* socketDirectory(dataDir)
    const endpoint: EmbeddedEndpoint = { host: directory.path, port: SOCKET_PORT }
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const server = new PGLiteSocketServer({
            db: wholeQueries(db),
            path: socketPath(endpoint),
            maxConnections: options.maxConnections ?? 16
          })
          await server.start()
          // Made with the umask's mode; its directory already keeps others out.
          await Fs.chmod(socketPath(endpoint), 0o600)
          return server
        },
        catch: (cause) => new EmbeddedDatabaseError({ message: "Cannot serve the embedded database", cause })
      }),
      (server) => Effect.promise(() => server.stop()).pipe(Effect.ignore)
    )
    const dump = Effect.promise(() => db.dumpDataDir("none"))
    if (dataDir !== undefined) {
      // `cli backup`, while this process holds the database (src/Database/Backup.ts).
      const runtime = yield* Effect.runtime<never>()
      const logged = Effect.timed(dump).pipe(
        Effect.tap(([took, tar]) =>
          Effect.logInfo("database copied for a backup").pipe(
            Effect.annotateLogs({ bytes: tar.size, ms: Math.round(Duration.toMillis(took)) })
          )
        ),
        Effect.map(([, tar]) => tar)
      )
      yield* Backup.serve(directory.path, () => Runtime.runPromise(runtime)(logged))
      const file = publicationFile(dataDir)
      const published: Publication = { pid: process.pid, ...endpoint }
      yield* Effect.acquireRelease(
        Effect.promise(() => Fs.writeFile(file, Schema.encodeSync(Publication)(published), { mode: 0o600 })),
        () => Effect.promise(() => Fs.rm(file, { force: true })).pipe(Effect.ignore)
      )
    }
    return { endpoint, dump }
  })
