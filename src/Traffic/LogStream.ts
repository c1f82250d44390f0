import { Readable } from "node:stream"
import * as Zlib from "node:zlib"

/**
 * The lines of a log, read as a stream whatever its size (memory holds one chunk and one line at a
 * time), gunzipped when it starts with gzip's magic bytes.
 */

/** Longest line kept, in bytes; a longer one is reported as `TOO_LONG` (and never held whole). */
export const MAX_LINE_BYTES = 64 * 1024

const LF = 0x0a
const CR = 0x0d

/** A line that exceeded MAX_LINE_BYTES, skipped up to its end. */
export const TOO_LONG: unique symbol = Symbol("TOO_LONG")

const GZIP_MAGIC = [0x1f, 0x8b]

/**
 * The input as plain bytes: gunzipped if gzip, as is otherwise. A gzip stream cut short (an upload
 * interrupted, a file still being written) yields what it holds rather than failing: the cut line at
 * its end is then reported like any other unreadable line.
 */
export const decompressed = async function*(input: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = input[Symbol.asyncIterator]()
  // The first chunks, until there are enough bytes to see gzip's magic number.
  const head: Array<Uint8Array> = []
  let headBytes = 0
  let ended = false
  while (headBytes < GZIP_MAGIC.length && !ended) {
    const next = await iterator.next()
    if (next.done) ended = true
    else {
      head.push(next.value)
      headBytes += next.value.length
    }
  }
  const all = async function*() {
    yield* head
    while (!ended) {
      const next = await iterator.next()
      if (next.done) return
      yield next.value
    }
  }
  const start = Buffer.concat(head.slice(0, 2))
  if (start[0] !== GZIP_MAGIC[0] || start[1] !== GZIP_MAGIC[1]) {
    yield* all()
    return
  }
  const source = Readable.from(all())
  // Z_SYNC_FLUSH at the end lets a truncated gzip end without the "unexpected end of file" error.
  const gunzip = Zlib.createGunzip({ finishFlush: Zlib.constants.Z_SYNC_FLUSH })
  source.on("error", (error) => gunzip.destroy(error))
  yield* source.pipe(gunzip)
}

/**
 * The lines of a stream of bytes (UTF-8; a `\r` before the `\n` is dropped), in batches: one array
 * per chunk read, as one await per line would cost more than parsing it. The last line is given even
 * without its final newline: a cut line is then the parsers' to refuse.
 *
 * Each line is decoded on its own from the bytes, never cut out of a decoded chunk: a substring of a
 * line (an address or a user agent kept in a cache) then holds on to that line only, not to the
 * megabyte of text around it.
 */
export const lineBatches = async function*(input: AsyncIterable<Uint8Array>): AsyncGenerator<Array<string | typeof TOO_LONG>> {
  // The start of a line begun in an earlier chunk; `skipping` once it has grown past the limit.
  let pending: Array<Buffer> = []
  let pendingBytes = 0
  let skipping = false
  const decode = (bytes: Buffer, start: number, end: number) =>
    bytes.toString("utf8", start, end > start && bytes[end - 1] === CR ? end - 1 : end)
  for await (const input_ of decompressed(input)) {
    const chunk = Buffer.isBuffer(input_) ? input_ : Buffer.from(input_.buffer, input_.byteOffset, input_.byteLength)
    const batch: Array<string | typeof TOO_LONG> = []
    let start = 0
    let newline = chunk.indexOf(LF)
    while (newline !== -1) {
      if (skipping || pendingBytes + newline - start > MAX_LINE_BYTES) batch.push(TOO_LONG)
      else if (pendingBytes === 0) batch.push(decode(chunk, start, newline))
      else {
        const line = Buffer.concat([...pending, chunk.subarray(start, newline)])
        batch.push(decode(line, 0, line.length))
      }
      pending = []
      pendingBytes = 0
      skipping = false
      start = newline + 1
      newline = chunk.indexOf(LF, start)
    }
    if (start < chunk.length && !skipping) {
      pendingBytes += chunk.length - start
      if (pendingBytes > MAX_LINE_BYTES) {
        pending = []
        skipping = true
      } else {
        // A copy: the chunk itself is not kept for the sake of a line's start.
        pending.push(Buffer.from(chunk.subarray(start)))
      }
    }
    if (batch.length > 0) yield batch
  }
  if (skipping) yield [TOO_LONG]
  else if (pendingBytes > 0) {
    const line = Buffer.concat(pending)
    yield [decode(line, 0, line.length)]
  }
}
