import { cleanPath, type LineParser, normalizeHost, orUndefined } from "../LogLine.ts"

/**
 * AWS Application Load Balancer access logs: space-separated, some fields quoted, in a fixed order:
 *
 *   https 2026-10-10T13:55:36.123456Z app/my-alb/50dc6c495c0c9188 203.0.113.7:46532 10.0.0.1:80 0.001 0.002 0.000 200 200 34 5120 "GET https://www.example.com:443/pricing HTTP/1.1" "Mozilla/5.0 ..." ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:... "Root=1-..." "www.example.com" ...
 *
 * The fields used: time (1), client:port (3), elb_status_code (8), sent_bytes (11), request (12),
 * user_agent (13), domain_name (18, the TLS SNI name, when the request line has no host). ALB logs
 * record no referer and no content type.
 */

/** The fields of a line: runs of non-spaces, or quoted strings (without their quotes). */
export const albFields = (line: string): Array<string> | undefined => {
  const fields: Array<string> = []
  let i = 0
  const n = line.length
  while (i < n) {
    if (line[i] === " ") {
      i++
      continue
    }
    if (line[i] === "\"") {
      const end = line.indexOf("\"", i + 1)
      // An unterminated quote: the line was cut.
      if (end === -1) return undefined
      fields.push(line.slice(i + 1, end))
      i = end + 1
    } else {
      let end = line.indexOf(" ", i)
      if (end === -1) end = n
      fields.push(line.slice(i, end))
      i = end
    }
  }
  return fields
}

const MIN_FIELDS = 25

const clientIp = (field: string | undefined): string | undefined => {
  const value = orUndefined(field)
  if (value === undefined) return undefined
  const colon = value.lastIndexOf(":")
  const ip = colon === -1 ? value : value.slice(0, colon)
  return ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip
}

export const albParser = (): LineParser => ({
  parse: (line) => {
    if (line.trim() === "") return "skip"
    const fields = albFields(line)
    // Every ALB line since 2018 has at least the 25 fields up to error_reason (AWS adds new ones at the
    // end): fewer means the line was cut.
    if (fields === undefined || fields.length < MIN_FIELDS) return undefined
    const status = fields[8]!
    if (!/^\d{3}$/.test(status)) return undefined
    const time = Date.parse(fields[1]!)
    if (Number.isNaN(time)) return undefined
    const [method = "", target = ""] = fields[12]!.split(" ")
    let host: string | undefined
    const scheme = target.indexOf("://")
    if (scheme !== -1) {
      const slash = target.indexOf("/", scheme + 3)
      host = target.slice(scheme + 3, slash === -1 ? undefined : slash)
    }
    host = orUndefined(host) ?? orUndefined(fields[18])
    const bytes = fields[11]!
    return {
      time,
      method: method === "-" ? "" : method,
      host: host === undefined ? undefined : normalizeHost(host),
      path: target === "" || target === "-" ? "" : cleanPath(target),
      status: Number(status),
      bytes: /^\d+$/.test(bytes) ? Number(bytes) : 0,
      userAgent: orUndefined(fields[13]) ?? "",
      ip: clientIp(fields[3]),
      referer: undefined,
      contentType: undefined
    }
  }
})
