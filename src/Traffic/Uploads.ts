import { Effect } from "effect"
import { createHash } from "node:crypto"
import { createReadStream, createWriteStream } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pipeline } from "node:stream/promises"
import { Transform } from "node:stream"
import { ingestLog, LogReadError } from "./Ingest.ts"
import { TrafficRepo } from "./Repo.ts"
import { Salt } from "./Salt.ts"
import { parserFieldMap, type TrafficSource, type TrafficUpload } from "./Sources.ts"

/**
 * Receiving a log (docs/agent-traffic.md, "Uploads"): its bytes are written to a temporary file as they
 * arrive, hashed on the way (the same file sent twice is one upload), and read into the source's rollups
 * once the upload is registered. Memory holds one chunk at a time whatever the file's size.
 */

export interface Spooled {
  readonly path: string
  readonly sha256: string
  readonly bytes: number
}

/** Writes a stream of bytes to a new temporary file, with its SHA-256 and size. */
export const spool = (input: AsyncIterable<Uint8Array>): Effect.Effect<Spooled, LogReadError> =>
  Effect.tryPromise({
    try: async () => {
      const dir = await mkdtemp(join(tmpdir(), "bvm-traffic-"))
      const path = join(dir, "log")
      const hash = createHash("sha256")
      let bytes = 0
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk)
          bytes += chunk.length
          done(null, chunk)
        }
      })
      try {
        await pipeline(input, counted, createWriteStream(path))
      } catch (error) {
        await rm(dir, { recursive: true, force: true })
        throw error
      }
      return { path, sha256: hash.digest("hex"), bytes }
    },
    catch: (error) => new LogReadError({ message: error instanceof Error ? error.message : String(error) })
  })

/** Removes a spooled file and its directory. */
export const discard = (spooled: Spooled) =>
  Effect.promise(() => rm(join(spooled.path, ".."), { recursive: true, force: true }))

/**
 * Reads a spooled log into the source's rollups and completes the upload; a log that cannot be read at
 * all fails it, and nothing of it is counted. The file is removed either way.
 */
export const processSpooled = (source: TrafficSource, upload: TrafficUpload, spooled: Spooled) =>
  Effect.gen(function*() {
    const repo = yield* TrafficRepo
    const fieldMap = parserFieldMap(source.field_map)
    const outcome = yield* ingestLog(createReadStream(spooled.path), {
      format: source.format,
      siteHosts: source.site_hosts,
      ...(fieldMap === undefined ? {} : { fieldMap })
    })
    yield* repo.completeUpload(upload.id, outcome)
  }).pipe(
    Effect.catchAll((error) => Effect.flatMap(TrafficRepo, (repo) => repo.failUpload(upload.id, error.message))),
    Effect.catchAllDefect((defect) =>
      Effect.zipRight(
        Effect.logError("traffic upload failed", defect),
        Effect.flatMap(TrafficRepo, (repo) => repo.failUpload(upload.id, "The log could not be processed."))
      )
    ),
    Effect.ensuring(discard(spooled))
  )

/**
 * Receives a log for a source: spooled, registered, then read — in the background when `background`
 * (the API answers 202 before the log is read), else before returning (the command line). The same file
 * again answers its earlier upload, and is not read again.
 */
export const receive = (source: TrafficSource, input: AsyncIterable<Uint8Array>, options: { readonly background: boolean }) =>
  Effect.gen(function*() {
    const repo = yield* TrafficRepo
    const spooled = yield* spool(input)
    const begun = yield* repo.beginUpload(source.id, spooled.sha256, spooled.bytes).pipe(Effect.onError(() => discard(spooled)))
    if (!begun.fresh) {
      yield* discard(spooled)
      return begun.upload
    }
    const work = processSpooled(source, begun.upload, spooled)
    if (options.background) yield* Effect.forkDaemon(work)
    else yield* work
    return begun.upload
  })

export type ReceiveRequirements = TrafficRepo | Salt
