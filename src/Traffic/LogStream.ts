import { Readable } from "node:stream"
import { StringDecoder } from "node:string_decoder"
import * as Zlib from "node:zlib"

/**
 * The lines of a log, read as a stream whatever its size (memory holds one chunk and one line at a
 * time), gunzipped when it starts with gzip's magic bytes.
 */

/** Longest line kept; a longer one is reported as `TOO_LONG` (and never held whole). */
export const MAX_LINE_CHARS = 64 * 1024

/** A line that exceeded MAX_LINE_CHARS, skipped up to its end. */
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
 * The lines of a stream of bytes (UTF-8; a `\r` before the `\n` is dropped). The last line is yielded
 * even without its final newline: a cut line is then the parsers' to refuse.
 */
export const lines = async function*(input: AsyncIterable<Uint8Array>): AsyncGenerator<string | typeof TOO_LONG> {
  const decoder = new StringDecoder("utf8")
  let pending = ""
  let skipping = false
  const emit = (line: string) => (line.endsWith("\r") ? line.slice(0, -1) : line)
  for await (const chunk of decompressed(input)) {
    const text = decoder.write(chunk as Buffer)
    let start = 0
    let newline = text.indexOf("\n")
    while (newline !== -1) {
      if (skipping) {
        skipping = false
        yield TOO_LONG
      } else if (pending.length + newline - start > MAX_LINE_CHARS) {
        yield TOO_LONG
      } else {
        yield emit(pending === "" ? text.slice(start, newline) : pending + text.slice(start, newline))
      }
      pending = ""
      start = newline + 1
      newline = text.indexOf("\n", start)
    }
    if (!skipping) {
      pending += text.slice(start)
      if (pending.length > MAX_LINE_CHARS) {
        pending = ""
        skipping = true
      }
    }
  }
  pending += decoder.end()
  if (skipping) yield TOO_LONG
  else if (pending !== "") yield emit(pending)
}
