import { Stream } from "effect"

/**
 * The lines of a file read as bytes, for `import`: whatever the file holds, memory stays bounded by
 * one line of at most `maxBytes` (and one chunk read). A longer line is passed over as it streams by,
 * without being kept, and reported; a line that is not valid UTF-8 is reported rather than read with
 * U+FFFD in place of its bad bytes. The lines after either are read as usual.
 *
 * Lines end at `\n`, and a `\r` before it is dropped (CRLF files); the last line needs no line end. As
 * `Stream.splitLines` does, a file ending with a line end has no empty line after it.
 */

/** The longest line, line end excluded: the API's body limit, since a line is one POST /responses body. */
export const MAX_LINE_BYTES = 1_048_576

/** A line that could not be read, and why. */
export class UnreadableLine {
  readonly _tag = "UnreadableLine"
  constructor(readonly reason: string) {}
}

/** A line's text, or why it could not be read. */
export type FileLine = string | UnreadableLine

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d

/** Splits chunks of bytes into lines, keeping only the current line's bytes, up to `maxBytes` (+1 for a `\r`). */
export class LineSplitter {
  private parts: Array<Uint8Array> = []
  private length = 0
  private tooLong = false
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

  constructor(private readonly maxBytes: number) {}

  /** The lines that `chunk` completes. */
  push(chunk: Uint8Array): Array<FileLine> {
    const lines: Array<FileLine> = []
    let start = 0
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      lines.push(this.finish(chunk.subarray(start, end)))
      start = end + 1
    }
    // The start of a line that the next chunks go on with: copied (the chunk's memory may be reused),
    // unless the line is too long already.
    if (start < chunk.length) this.keep(chunk.subarray(start), true)
    return lines
  }

  /** The last line, when the file does not end with a line end. */
  end(): Array<FileLine> {
    return this.length > 0 || this.tooLong ? [this.finish(new Uint8Array(0))] : []
  }

  private keep(bytes: Uint8Array, copy: boolean): void {
    if (this.tooLong) return
    if (this.length + bytes.length > this.maxBytes + 1) {
      // Over the limit whatever follows: what was kept is let go, and the rest is only passed over.
      this.tooLong = true
      this.parts = []
      this.length = 0
      return
    }
    this.parts.push(copy ? bytes.slice() : bytes)
    this.length += bytes.length
  }

  private finish(last: Uint8Array): FileLine {
    this.keep(last, false)
    const { length, parts, tooLong } = this
    this.parts = []
    this.length = 0
    this.tooLong = false
    if (tooLong) return new UnreadableLine(`The line is longer than ${this.maxBytes} bytes.`)
    let bytes = parts.length === 1 ? parts[0]! : concat(parts, length)
    if (bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, bytes.length - 1)
    if (bytes.length > this.maxBytes) return new UnreadableLine(`The line is longer than ${this.maxBytes} bytes.`)
    try {
      return this.decoder.decode(bytes)
    } catch {
      return new UnreadableLine("The line is not valid UTF-8.")
    }
  }
}

const concat = (parts: ReadonlyArray<Uint8Array>, length: number): Uint8Array => {
  const bytes = new Uint8Array(length)
  let offset = 0
  for (const part of parts) {
    bytes.set(part, offset)
    offset += part.length
  }
  return bytes
}

/** The lines of a stream of bytes (see above). */
export const splitLines = (maxBytes: number = MAX_LINE_BYTES) => <E, R>(bytes: Stream.Stream<Uint8Array, E, R>): Stream.Stream<FileLine, E, R> =>
  Stream.suspend(() => {
    const splitter = new LineSplitter(maxBytes)
    return bytes.pipe(
      Stream.mapConcat((chunk) => splitter.push(chunk)),
      Stream.concat(Stream.suspend(() => Stream.fromIterable(splitter.end())))
    )
  })
