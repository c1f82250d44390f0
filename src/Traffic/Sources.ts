import { Schema } from "effect"
import { Id, Timestamp, Timestamps } from "../Domain/Common.ts"
import { LogFormat } from "./Formats/Formats.ts"
import type { FieldMap } from "./Formats/Ndjson.ts"

/**
 * A traffic source (docs/agent-traffic.md, "Traffic sources"): where a project's site logs come from,
 * which hosts of them are counted, and how they are written. Its uploads are the logs sent to it.
 */

/** Where an `ndjson` log keeps each field: a key, or a dotted path into nested objects. */
export const SourceFieldMap = Schema.Struct({
  time: Schema.String,
  path: Schema.String,
  status: Schema.String,
  method: Schema.optional(Schema.String),
  host: Schema.optional(Schema.String),
  bytes: Schema.optional(Schema.String),
  user_agent: Schema.optional(Schema.String),
  ip: Schema.optional(Schema.String),
  referer: Schema.optional(Schema.String),
  content_type: Schema.optional(Schema.String)
}).annotations({ identifier: "TrafficFieldMap" })
export type SourceFieldMap = typeof SourceFieldMap.Type

export const TrafficSource = Schema.Struct({
  id: Id,
  project_id: Id,
  name: Schema.String,
  site_hosts: Schema.Array(Schema.String).annotations({ description: "The hosts whose requests are counted; empty counts every host." }),
  format: LogFormat,
  field_map: Schema.NullOr(SourceFieldMap),
  ...Timestamps
}).annotations({ identifier: "TrafficSource" })
export type TrafficSource = typeof TrafficSource.Type

export interface NewTrafficSource {
  readonly name: string
  readonly site_hosts: ReadonlyArray<string>
  readonly format: LogFormat
  readonly field_map: SourceFieldMap | null
}

/** The field map as the parsers name its fields. */
export const parserFieldMap = (map: SourceFieldMap | null): FieldMap | undefined =>
  map === null
    ? undefined
    : {
      time: map.time,
      path: map.path,
      status: map.status,
      ...(map.method === undefined ? {} : { method: map.method }),
      ...(map.host === undefined ? {} : { host: map.host }),
      ...(map.bytes === undefined ? {} : { bytes: map.bytes }),
      ...(map.user_agent === undefined ? {} : { userAgent: map.user_agent }),
      ...(map.ip === undefined ? {} : { ip: map.ip }),
      ...(map.referer === undefined ? {} : { referer: map.referer }),
      ...(map.content_type === undefined ? {} : { contentType: map.content_type })
    }

export const uploadStatuses = ["processing", "completed", "failed"] as const

/** One log sent to a source, and what it held once read. */
export const TrafficUpload = Schema.Struct({
  id: Id,
  source_id: Id,
  status: Schema.Literal(...uploadStatuses).annotations({ description: "`processing` until the log is read; then `completed`, or `failed` (nothing of it counted)." }),
  sha256: Schema.String.annotations({ description: "SHA-256 of the bytes as sent: the same file sent again is this upload, counted once." }),
  bytes: Schema.Number,
  lines: Schema.Number,
  parsed: Schema.Number,
  ignored: Schema.Number,
  unparsed: Schema.Number.annotations({ description: "Lines that could not be read, a cut last line among them: counted, never fatal." }),
  filtered: Schema.Number,
  own: Schema.Number,
  agent_hits: Schema.Number,
  unknown_bot_hits: Schema.Number,
  referral_visits: Schema.Number,
  first_time: Schema.NullOr(Timestamp),
  last_time: Schema.NullOr(Timestamp),
  error: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  completed_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "TrafficUpload" })
export type TrafficUpload = typeof TrafficUpload.Type
