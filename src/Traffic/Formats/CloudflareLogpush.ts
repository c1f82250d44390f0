import { integerOf, type LineParser, timeOf } from "../LogLine.ts"
import { jsonObject, requestOf, stringField } from "./Json.ts"

/**
 * Cloudflare Logpush, HTTP requests dataset: NDJSON, one request a line, with Cloudflare's field names:
 *
 *   {"ClientIP":"203.0.113.7","ClientRequestHost":"www.example.com","ClientRequestMethod":"GET","ClientRequestURI":"/pricing?utm_source=chatgpt.com","ClientRequestReferer":"","ClientRequestUserAgent":"Mozilla/5.0 ...","EdgeResponseStatus":200,"EdgeResponseBytes":5120,"EdgeResponseContentType":"text/html","EdgeStartTimestamp":"2026-10-10T13:55:36Z"}
 *
 * `EdgeStartTimestamp` may be RFC 3339 or a Unix time in seconds or nanoseconds (the job's
 * `timestamp_format`). The job must include at least the time, the URI (or path) and the status;
 * Logpush's `{"content":"tests"}` probe and any record without them are not requests.
 */
const fields = {
  method: "ClientRequestMethod",
  host: "ClientRequestHost",
  bytes: "EdgeResponseBytes",
  userAgent: "ClientRequestUserAgent",
  ip: "ClientIP",
  referer: "ClientRequestReferer",
  contentType: "EdgeResponseContentType"
}

export const cloudflareLogpushParser = (): LineParser => ({
  parse: (line) => {
    if (line.trim() === "") return "skip"
    const record = jsonObject(line)
    if (record === undefined) return undefined
    const time = timeOf(record["EdgeStartTimestamp"] ?? record["EdgeEndTimestamp"])
    const target = stringField(record, "ClientRequestURI") ?? stringField(record, "ClientRequestPath")
    const status = integerOf(record["EdgeResponseStatus"])
    if (time === undefined || target === undefined || status === undefined || status === 0) return "content" in record ? "skip" : undefined
    return requestOf(record, { time, target, status }, fields)
  }
})
