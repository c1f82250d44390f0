import { Chunk, Effect, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { type FileLine, MAX_LINE_BYTES, splitLines, UnreadableLine } from "../../src/Cli/Lines.ts"

/**
 * The line reader of `cli import` (src/Cli/Lines.ts), on streams of bytes cut anywhere: lines as
 * `Stream.splitLines` reads them, a line over the limit passed over without being kept, a line that is
 * not UTF-8 refused, and the lines after either read as usual.
 */

const encoder = new TextEncoder()

/** The lines of `bytes` delivered in chunks of `size` bytes. */
const linesOf = (bytes: Uint8Array, size: number, maxBytes = MAX_LINE_BYTES): Array<FileLine> => {
  const chunks: Array<Uint8Array> = []
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size))
  return Chunk.toArray(Effect.runSync(Stream.runCollect(Stream.fromIterable(chunks).pipe(splitLines(maxBytes)))))
}

const readable = (lines: ReadonlyArray<FileLine>) => lines.map((line) => (typeof line === "string" ? line : `! ${line.reason}`))

const join = (...parts: ReadonlyArray<Uint8Array | string>): Uint8Array => {
  const bytes = parts.map((part) => (typeof part === "string" ? encoder.encode(part) : part))
  const all = new Uint8Array(bytes.reduce((n, part) => n + part.length, 0))
  let offset = 0
  for (const part of bytes) {
    all.set(part, offset)
    offset += part.length
  }
  return all
}

describe("cli import's line reader", () => {
  it("reads lines as Stream.splitLines does, wherever the chunks are cut, multi-byte characters included", () => {
    const texts = ["a\n", "a\n\n", "a\r\nb", "a\rb\n", "", "\n", "{\"t\": \"Zürich — 東京 🚀\"}\r\n\r\n{}", "\uFEFF{}\nx"]
    for (const text of texts) {
      const expected = Chunk.toArray(Effect.runSync(Stream.runCollect(Stream.make(text).pipe(Stream.splitLines))))
      for (const size of [1, 2, 3, 7, 64]) expect(linesOf(encoder.encode(text), size), `${JSON.stringify(text)} by ${size}`).toEqual(expected)
    }
  })

  it("refuses a line over the limit, line end excluded, and reads the next ones", () => {
    const max = 8
    const input = join("12345678\n", "12345678\r\n", "123456789\n", "123456789\r\n", "x".repeat(100), "\nnext\n", "1234567890")
    for (const size of [1, 3, 8, 9, 64, 1000]) {
      expect(readable(linesOf(input, size, max)), `by ${size}`).toEqual([
        "12345678",
        "12345678",
        "! The line is longer than 8 bytes.",
        "! The line is longer than 8 bytes.",
        "! The line is longer than 8 bytes.",
        "next",
        "! The line is longer than 8 bytes."
      ])
    }
  })

  it("refuses a line that is not valid UTF-8 instead of reading U+FFFD into it, and reads the next ones", () => {
    const input = join(
      "{\"ok\": 1}\n",
      "{\"bad\": \"", new Uint8Array([0xff]), "\"}\n",
      // An overlong encoding of "/", a UTF-16 surrogate encoded alone, a sequence cut short.
      new Uint8Array([0xc0, 0xaf]), "\n",
      new Uint8Array([0xed, 0xa0, 0x80]), "\n",
      "é", new Uint8Array([0xe2, 0x82]), "\n",
      "{\"ok\": 2}"
    )
    for (const size of [1, 2, 5, 64]) {
      expect(readable(linesOf(input, size)), `by ${size}`).toEqual([
        "{\"ok\": 1}",
        "! The line is not valid UTF-8.",
        "! The line is not valid UTF-8.",
        "! The line is not valid UTF-8.",
        "! The line is not valid UTF-8.",
        "{\"ok\": 2}"
      ])
    }
    expect(linesOf(input, 64)[1]).toBeInstanceOf(UnreadableLine)
  })

  it("passes over a 1 GiB line without keeping it: memory stays flat, and the next line is read", () => {
    // 16,384 chunks of 64 KiB, one buffer sent again and again: nothing but the reader can hold them.
    const chunk = new Uint8Array(64 * 1024).fill(0x61)
    const tail = encoder.encode("\n{\"after\": true}\n")
    const before = process.memoryUsage()
    const lines = Chunk.toArray(Effect.runSync(Stream.runCollect(
      Stream.concat(Stream.repeatValue(chunk).pipe(Stream.take(16_384)), Stream.make(tail)).pipe(splitLines())
    )))
    const after = process.memoryUsage()
    expect(readable(lines)).toEqual([`! The line is longer than ${MAX_LINE_BYTES} bytes.`, "{\"after\": true}"])
    const grown = after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers
    expect(grown).toBeLessThan(64 * 1024 * 1024)
  }, 60_000)
})
