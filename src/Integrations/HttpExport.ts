import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Option, Schema, Stream } from "effect"
import { ValidationError } from "../Domain/Errors.ts"
import type { Key, Keyset, KeysetPage } from "../Domain/Page.ts"
import { columnsOf } from "./Columns.ts"
import { contentDisposition, exportFilename, exportFormats, mediaTypes, negotiateFormat, UnknownFormat } from "./ExportFormat.ts"
import { exportBody, utf8 } from "./ExportStream.ts"
import * as Fields from "../Http/Fields.ts"

/**
 * A list as a download (docs/api.md, "Exports"): with `format=csv` or `format=ndjson` (or an `Accept`
 * that prefers `text/csv` or `application/x-ndjson`), every row of the list's query, in its order, is
 * streamed in chunks read by key (`byKey`, the reader of the list's cursors), each chunk one short
 * statement, so an export holds no connection between chunks and memory holds one chunk. `page`,
 * `per_page` and `cursor` are ignored. Rows are written as the JSON answer writes them (the row's
 * schema, encoded), CSV flattened to the columns of that schema.
 */

/** `format` of a list's query: text, so that the handler answers an unknown one with a 422 on `format`. */
export const ExportQuery = {
  format: Fields.optional(
    Schema.String.annotations({
      description: "`json` (default), `csv` (RFC 4180, one header row, dotted names of nested fields) or `ndjson`: every row of the " +
        "list, page and cursor ignored, as a download. `Accept: text/csv` or `application/x-ndjson` asks the same.",
      jsonSchema: { type: "string", enum: exportFormats }
    })
  )
}

/** Rows read by one statement of an export. */
export const EXPORT_CHUNK = 1000

export const exportOf = <A, I, E, R>(options: {
  readonly format: string | undefined
  /** The download's name before its date: `responses`. */
  readonly resource: string
  readonly row: Schema.Schema<A, I>
  readonly byKey: (keyset: Keyset) => Effect.Effect<KeysetPage<A>, E, R>
}): Effect.Effect<Option.Option<HttpServerResponse.HttpServerResponse>, ValidationError, HttpServerRequest.HttpServerRequest | R> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const format = negotiateFormat(options.format, request.headers.accept)
    if (format instanceof UnknownFormat) {
      return yield* ValidationError.field("format", `The selected format is invalid. Allowed: ${exportFormats.join(", ")}.`)
    }
    if (format === "json") return Option.none()
    const context = yield* Effect.context<R>()
    const encode = Schema.encodeSync(Schema.Array(options.row))
    const chunks = Stream.paginateEffect({ after: undefined as Key | undefined }, (state) =>
      options.byKey({ after: state.after, limit: EXPORT_CHUNK }).pipe(
        Effect.map((page) =>
          [encode(page.rows) as ReadonlyArray<unknown>, page.next === undefined ? Option.none() : Option.some({ after: page.next })] as const
        )
      )).pipe(Stream.provideContext(context))
    const day = new Date(yield* Clock.currentTimeMillis).toISOString().slice(0, 10)
    return Option.some(HttpServerResponse.stream(utf8(exportBody(format, columnsOf(options.row), chunks)), {
      contentType: mediaTypes[format],
      headers: { "content-disposition": contentDisposition(exportFilename(options.resource, day, format)) }
    }))
  })
