import { cleanPath, integerOf, type LineParser, normalizeHost, timeOf } from "../LogLine.ts"
import { jsonObject, stringField } from "./Json.ts"

/**
 * Cloudflare Logpush, HTTP requests dataset: NDJSON, one request a line, with Cloudflare's field names:
 *
 *   {"ClientIP":"203.0.113.7","ClientRequestHost":"www.example.com","ClientRequestMethod":"GET","ClientRequestURI":"/pricing?utm_source=chatgpt.com","ClientRequestReferer":"","ClientRequestUserAgent":"Mozilla/5.0 ...","EdgeResponseStatus":200,"EdgeResponseBytes":5120,"EdgeResponseContentType":"text/html","EdgeStartTimestamp":"2026-10-10T13:55:36Z"}
 *
 * `EdgeStartTimestamp` may be RFC 3339 or a Unix time in seconds or nanoseconds (the job's
 * `timestamp_format`). The job must include at least the time, the URI (or path) and the status;
 * Logpush's `{"content":"tests"}` probe and any record without them are not requests.
 */
export const cloudflareLogpushParser = (): LineParser => ({
  parse: (line) => {
    if (line.trim() === "") return "skip"
    const record = jsonObject(line)
    if (record === undefined) return undefined
    const time = timeOf(record["EdgeStartTimestamp"] ?? record["EdgeEndTimestamp"])
    const target = stringField(record, "ClientRequestURI") ?? stringField(record, "ClientRequestPath")
    const status = integerOf(record["EdgeResponseStatus"])
    if (time === undefined || target === undefined || status === undefined || status === 0) return "content" in record ? "skip" : undefined
    const host = stringField(record, "ClientRequestHost")
    return {
      time,
      method: stringField(record, "ClientRequestMethod") ?? "",
      host: host === undefined ? undefined : normalizeHost(host),
      path: cleanPath(target),
      status,
      bytes: integerOf(record["EdgeResponseBytes"]) ?? 0,
      userAgent: stringField(record, "ClientRequestUserAgent") ?? "",
      ip: stringField(record, "ClientIP"),
      referer: stringField(record, "ClientRequestReferer"),
      contentType: stringField(record, "EdgeResponseContentType")
    }
  }
})
