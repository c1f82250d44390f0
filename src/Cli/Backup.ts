import { Args, Command } from "@effect/cli"
import { Clock, Effect, Option } from "effect"
import { createWriteStream } from "node:fs"
import * as Fs from "node:fs/promises"
import * as Path from "node:path"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type { ReadableStream } from "node:stream/web"
import { promisify } from "node:util"
import * as Zlib from "node:zlib"
import pg from "pg"
import { Settings } from "../Config.ts"
import * as Backup from "../Database/Backup.ts"
import * as Embedded from "../Database/Embedded.ts"
import { UserError } from "./Errors.ts"
import * as Output from "./Output.ts"

/**
 * `backup FILE` and `restore FILE`: the embedded database copied to a file while the server runs, and
 * brought back into an empty DATA_DIR (docs/operations.md, "Backups"). A backup is the data directory
 * as a tar (src/Database/Backup.ts), gzip-compressed. On PostgreSQL, pg_dump and pg_restore do this.
 */

/** The embedded database's data directory, absolute; on PostgreSQL, an error that names `tool` instead. */
const embeddedDataDir = (tool: string) =>
  Effect.flatMap(Settings, (settings) =>
    Option.isSome(settings.databaseUrl)
      ? new UserError({
        message: `On PostgreSQL (DATABASE_URL is set), use ${tool}: see docs/operations.md, "Backups". ` +
          `This command copies the embedded database (DATA_DIR).`
      })
      : Effect.succeed(Path.resolve(settings.dataDir)))

const fileArg = (description: string) => Args.text({ name: "file" }).pipe(Args.withDescription(description))

const failure = (message: string) => (cause: unknown) => {
  const code = (cause as NodeJS.ErrnoException).code
  const reason = code === "ENOENT" ? "no such file or directory" : code === "EACCES" ? "permission denied" : String((cause as Error).message ?? cause)
  return new UserError({ message: `${message}: ${reason}.` })
}

/**
 * The data directory as a tar stream: from the process that holds it (the running server), or, when
 * none does, from the database opened here for the time of the copy.
 */
const tarOf = (dataDir: string) =>
  Effect.gen(function*() {
    const running = yield* Embedded.findRunning(dataDir)
    if (Option.isSome(running)) {
      return yield* Backup.request(running.value.host).pipe(Effect.mapError((error) => new UserError({ message: error.message })))
    }
    const exists = yield* Effect.promise(() => Fs.stat(Path.join(dataDir, "pgdata")).then(() => true, () => false))
    if (!exists) return yield* new UserError({ message: `There is no embedded database in ${dataDir} to back up.` })
    const opened = yield* Embedded.open({ dataDir })
    const tar = yield* opened.dump
    return Readable.fromWeb(tar.stream() as ReadableStream)
  })

export const backup = Command.make("backup", {
  file: fileArg("Where to write the backup (a gzip-compressed tar), replaced if it exists."),
  json: Output.json
}, ({ file, json }) =>
  Effect.gen(function*() {
    const dataDir = yield* embeddedDataDir("pg_dump")
    const target = Path.resolve(file)
    const partial = `${target}.partial`
    const started = yield* Clock.currentTimeMillis
    // Written beside the target and renamed once complete: a backup that stops half-way never passes
    // for a whole one. Private (0600): it holds every tenant's data.
    yield* Effect.scoped(Effect.gen(function*() {
      const tar = yield* tarOf(dataDir)
      yield* Effect.tryPromise({
        try: () => pipeline(tar, Zlib.createGzip(), createWriteStream(partial, { mode: 0o600 })),
        catch: failure(`Cannot write ${target}`)
      })
    })).pipe(Effect.tapError(() => Effect.promise(() => Fs.rm(partial, { force: true }))))
    yield* Effect.tryPromise({ try: () => Fs.rename(partial, target), catch: failure(`Cannot write ${target}`) })
    const { size } = yield* Effect.promise(() => Fs.stat(target))
    const seconds = Math.round((yield* Clock.currentTimeMillis) - started) / 1000
    yield* Output.print(json, { file: target, bytes: size, seconds }, (done) =>
      `Backed up the database of ${dataDir} to ${done.file} (${(done.bytes / 1024 / 1024).toFixed(1)} MiB) in ${done.seconds.toFixed(2)} s.`)
  })).pipe(
    Command.withDescription(
      "Copy the embedded database (DATA_DIR) to FILE, consistently, while the server runs (or not). " +
        "With --json {\"file\",\"bytes\",\"seconds\"}. On PostgreSQL, use pg_dump (docs/operations.md)."
    )
  )

/** A gzip stream's first two bytes. */
const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b

/** A tar's first header names its format at byte 257. */
const isTar = (bytes: Buffer) => bytes.length >= 512 && bytes.toString("latin1", 257, 262) === "ustar"

const emptyFolder = async (folder: string) => {
  for (const name of await Fs.readdir(folder).catch(() => [])) await Fs.rm(Path.join(folder, name), { recursive: true, force: true })
}

/** What a restored database holds, read through its socket. */
const countsOf = (endpoint: Embedded.EmbeddedEndpoint) =>
  Effect.tryPromise({
    try: async () => {
      const client = new pg.Client({ host: endpoint.host, port: endpoint.port, user: "postgres", database: "postgres" })
      await client.connect()
      try {
        const { rows } = await client.query<{ organizations: number; responses: number }>(
          "SELECT (SELECT count(*) FROM organizations)::int AS organizations, (SELECT count(*) FROM responses)::int AS responses"
        )
        return rows[0]!
      } finally {
        await client.end()
      }
    },
    catch: (cause) => new UserError({ message: `The restored database holds no data of this service: ${String((cause as Error).message)}` })
  })

export const restore = Command.make("restore", {
  file: fileArg("A backup made by `backup`."),
  json: Output.json
}, ({ file, json }) =>
  Effect.gen(function*() {
    const dataDir = yield* embeddedDataDir("pg_restore")
    const entries = yield* Effect.tryPromise({ try: () => Fs.readdir(dataDir), catch: (cause) => cause as NodeJS.ErrnoException }).pipe(
      Effect.catchAll((error) => error.code === "ENOENT" ? Effect.succeed([]) : Effect.fail(failure(`Cannot read ${dataDir}`)(error)))
    )
    if (entries.length > 0) {
      return yield* new UserError({
        message: `DATA_DIR ${dataDir} is not empty: a backup is restored only into an empty folder. ` +
          `Move this one away (or set DATA_DIR to a new folder), then run restore again.`
      })
    }
    const source = Path.resolve(file)
    const read = yield* Effect.tryPromise({ try: () => Fs.readFile(source), catch: failure(`Cannot read ${source}`) })
    const tar = isGzip(read)
      ? yield* Effect.tryPromise({ try: () => promisify(Zlib.gunzip)(read), catch: () => new UserError({ message: `${source} is not a backup: its compression is damaged.` }) })
      : read
    if (!isTar(tar)) return yield* new UserError({ message: `${source} is not a backup made by \`backup\`.` })
    const counts = yield* Effect.scoped(Effect.gen(function*() {
      const opened = yield* Embedded.open({ dataDir, snapshot: new Blob([tar], { type: "application/x-tar" }) }).pipe(
        Effect.mapError((error) => new UserError({ message: `Cannot restore ${source}: ${error.message}` }))
      )
      return yield* countsOf(opened.endpoint)
    })).pipe(
      // DATA_DIR was empty: a restore that failed leaves it empty again.
      Effect.tapError(() => Effect.promise(() => emptyFolder(dataDir)))
    )
    yield* Output.print(json, counts, (restored) =>
      `Restored ${source} into ${dataDir}: ${restored.organizations} organizations, ${restored.responses} responses. ` +
      `Start the server on it (DATA_DIR=${dataDir}).`)
  })).pipe(
    Command.withDescription(
      "Bring a backup made by `backup` back into an empty DATA_DIR (a non-empty one is refused). " +
        "With --json {\"organizations\",\"responses\"}. On PostgreSQL, use pg_restore (docs/operations.md)."
    )
  )
