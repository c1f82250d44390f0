import { Stream } from "effect"
import type { Column } from "./Columns.ts"
import { csvHeader, csvRows } from "./Csv.ts"
import { ndjsonRows } from "./Ndjson.ts"

/**
 * An export's body from the chunks of rows the keyset reader yields: one piece of text per chunk, so
 * memory holds one chunk at a time whatever the number of rows; a CSV starts with its header even
 * when there is no row. Errors of the reader end the stream with that error.
 */
export const exportBody = <E, R>(
  format: "csv" | "ndjson",
  columns: ReadonlyArray<Column>,
  chunks: Stream.Stream<ReadonlyArray<unknown>, E, R>
): Stream.Stream<string, E, R> => {
  const body = chunks.pipe(
    Stream.filter((rows) => rows.length > 0),
    Stream.map((rows) => (format === "csv" ? csvRows(columns, rows) : ndjsonRows(rows)))
  )
  return format === "csv" ? Stream.concat(Stream.make(csvHeader(columns)), body) : body
}

/** The chunks of a plain iterator (sync or async) of row arrays, as a stream. */
export const chunksFrom = <E>(
  iterable: Iterable<ReadonlyArray<unknown>> | AsyncIterable<ReadonlyArray<unknown>>,
  onError: (error: unknown) => E
): Stream.Stream<ReadonlyArray<unknown>, E> =>
  Symbol.asyncIterator in iterable ? Stream.fromAsyncIterable(iterable, onError) : Stream.fromIterable(iterable)

/** The stream's text as UTF-8 bytes, for an HTTP body. */
export const utf8 = <E, R>(text: Stream.Stream<string, E, R>): Stream.Stream<Uint8Array, E, R> => Stream.encodeText(text)
