import { Schema } from "effect"
import { integerOf, type LineParser, timeOf } from "../LogLine.ts"
import { jsonObject, numericField, requestOf, stringField } from "./Json.ts"

/**
 * Any NDJSON log, one request a line, read through a field map that names, for each field of a
 * request, where the line keeps it (a key, or a dotted path into nested objects):
 *
 *   field map {"time": "ts", "path": "req.url", "status": "res.status", "userAgent": "req.ua", "ip": "client"}
 *   {"ts":"2026-10-10T13:55:36Z","req":{"url":"/pricing","ua":"Mozilla/5.0 ..."},"res":{"status":200},"client":"203.0.113.7"}
 *
 * `time`, `path` and `status` are required; the others are optional. A time may be ISO 8601 or a
 * Unix time in seconds, milliseconds or nanoseconds.
 */
export const FieldMap = Schema.Struct({
  time: Schema.NonEmptyTrimmedString,
  path: Schema.NonEmptyTrimmedString,
  status: Schema.NonEmptyTrimmedString,
  method: Schema.optional(Schema.NonEmptyTrimmedString),
  host: Schema.optional(Schema.NonEmptyTrimmedString),
  bytes: Schema.optional(Schema.NonEmptyTrimmedString),
  userAgent: Schema.optional(Schema.NonEmptyTrimmedString),
  ip: Schema.optional(Schema.NonEmptyTrimmedString),
  referer: Schema.optional(Schema.NonEmptyTrimmedString),
  contentType: Schema.optional(Schema.NonEmptyTrimmedString)
})
export type FieldMap = typeof FieldMap.Type

export const ndjsonParser = (map: FieldMap): LineParser => ({
  parse: (line) => {
    if (line.trim() === "") return "skip"
    const record = jsonObject(line)
    if (record === undefined) return undefined
    const time = timeOf(numericField(record, map.time))
    const target = stringField(record, map.path)
    const status = integerOf(numericField(record, map.status))
    if (time === undefined || target === undefined || status === undefined || status < 100 || status > 999) return undefined
    return requestOf(record, { time, target, status }, map)
  }
})
