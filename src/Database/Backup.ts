import { Data, Effect } from "effect"
import * as Fs from "node:fs/promises"
import * as Http from "node:http"
import * as Path from "node:path"
import type { Readable } from "node:stream"
import { Readable as ReadableStream } from "node:stream"

/**
 * Backups of the embedded database while the server runs. PGlite is one session in the process that
 * opened it, and only that process can copy its files: it serves them, on request, on a second Unix
 * socket beside the database's own (`backup.sock`, in the same directory only this OS user can open).
 * `cli backup` asks it there.
 *
 * The copy (PGlite's `dumpDataDir`, a tar of the data directory) is taken while PGlite runs no
 * statement (it holds the session's lock), so it is the files as a crash at that instant would leave
 * them: every committed transaction is in them, through the write-ahead log, and PostgreSQL's recovery
 * when the copy is opened leaves out the transactions that had not committed. Requests wait while the
 * files are read (docs/operations.md, "Backups"); the tar is built in the server's memory (as large as
 * the database's files) and streamed to the CLI, which compresses it.
 */

export class BackupError extends Data.TaggedError("BackupError")<{ readonly message: string; readonly cause?: unknown }> {}

/** The backup socket of a database served on the socket directory `host`. */
export const socketPath = (host: string) => Path.join(host, "backup.sock")

/**
 * Serves `dump` on the backup socket of `host` for the lifetime of the scope: `POST /backup` answers
 * the data directory as a tar.
 */
export const serve = (host: string, dump: () => Promise<Blob>) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const path = socketPath(host)
        // A socket file left by a process that was killed (this one holds the database now).
        await Fs.rm(path, { force: true })
        const server = Http.createServer((request, response) => {
          if (request.method !== "POST" || request.url !== "/backup") {
            response.writeHead(404).end()
            return
          }
          dump().then(
            (tar) => {
              response.writeHead(200, { "content-type": "application/x-tar", "content-length": tar.size })
              ReadableStream.fromWeb(tar.stream() as import("node:stream/web").ReadableStream).pipe(response)
            },
            (error: unknown) => response.writeHead(500, { "content-type": "text/plain" }).end(String(error))
          )
        })
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject)
          server.listen(path, () => resolve())
        })
        await Fs.chmod(path, 0o600)
        return server
      },
      catch: (cause) => new BackupError({ message: "Cannot serve backups of the embedded database", cause })
    }),
    (server) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  )

/** The tar of the database served on `host`, as a stream, from the process that holds it. */
export const request = (host: string): Effect.Effect<Readable, BackupError> =>
  Effect.async<Readable, BackupError>((resume) => {
    const call = Http.request({ socketPath: socketPath(host), method: "POST", path: "/backup" }, (response) => {
      if (response.statusCode === 200) return resume(Effect.succeed(response))
      let text = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (text += chunk.slice(0, 1000)))
      response.on("end", () =>
        resume(Effect.fail(new BackupError({ message: `The server could not copy the database (${response.statusCode}): ${text.trim()}` }))))
    })
    call.once("error", (cause) =>
      resume(Effect.fail(new BackupError({ message: "Cannot reach the running server to copy its database", cause }))))
    call.end()
    return Effect.sync(() => call.destroy())
  })
