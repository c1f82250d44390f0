import { integerOf, type LineParser, timeOf } from "../LogLine.ts"
import { type JsonObject, jsonObject, requestOf, stringField } from "./Json.ts"

/**
 * Vercel log drains in NDJSON delivery: one log record a line. Requests are the records with a
 * `proxy` object (sources `edge`, `static`, `lambda`, `redirect`, `firewall`); build and function
 * output records have none and are not requests.
 *
 *   {"id":"1","deploymentId":"dpl_1","source":"static","host":"my-site.vercel.app","timestamp":1791640536000,"projectId":"prj_1","level":"info","proxy":{"timestamp":1791640536000,"method":"GET","host":"www.example.com","path":"/pricing?utm_source=chatgpt.com","userAgent":["Mozilla/5.0 ..."],"referer":"https://chatgpt.com/","statusCode":200,"clientIp":"203.0.113.7","responseByteSize":5120}}
 *
 * The status is the proxy's (what the visitor got); `-1` there means a background revalidation, not a
 * request.
 */
/** The proxy's fields; the host, when the proxy has none, is the record's. */
const fields = { method: "method", bytes: "responseByteSize", userAgent: "userAgent", ip: "clientIp", referer: "referer" }

export const vercelParser = (): LineParser => ({
  parse: (line) => {
    if (line.trim() === "") return "skip"
    const record = jsonObject(line)
    if (record === undefined) return undefined
    const proxy = record["proxy"]
    if (typeof proxy !== "object" || proxy === null) return "deploymentId" in record || "source" in record ? "skip" : undefined
    const request = proxy as JsonObject
    const status = integerOf(request["statusCode"] ?? record["statusCode"])
    if (request["statusCode"] === -1) return "skip"
    const time = timeOf(request["timestamp"] ?? record["timestamp"])
    const target = stringField(request, "path")
    if (time === undefined || target === undefined || status === undefined) return undefined
    const host = stringField(request, "host") ?? stringField(record, "host")
    return requestOf(request, { time, target, status, host }, fields)
  }
})
