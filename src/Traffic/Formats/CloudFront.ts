import { cleanPath, type LineParser, normalizeHost, orUndefined } from "../LogLine.ts"

/**
 * Amazon CloudFront standard logs: W3C extended format, tab-separated, the columns named by a
 * `#Fields:` line (which this parser follows, so any column order and any subset works):
 *
 *   #Version: 1.0
 *   #Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query ...
 *   2026-10-10	13:55:36	IAD89-C1	5120	203.0.113.7	GET	d111111abcdef8.cloudfront.net	/pricing	200	-	Mozilla/5.0%20(compatible;%20GPTBot/1.2)	-	...
 *
 * CloudFront URL-encodes the user agent, the referer and the query. `cs(Host)` is the distribution's
 * own name; `x-host-header` (the name the visitor asked for) is preferred when the log has it. Other
 * W3C logs with a `#Fields` line (IIS, space-separated, `+` for spaces) are read the same way. A line
 * with fewer cells than the fields named was cut, and is unparsed.
 */

/** The default columns of a CloudFront standard log, used until a `#Fields` line says otherwise. */
const DEFAULT_FIELDS = [
  "date", "time", "x-edge-location", "sc-bytes", "c-ip", "cs-method", "cs(host)", "cs-uri-stem", "sc-status",
  "cs(referer)", "cs(user-agent)", "cs-uri-query", "cs(cookie)", "x-edge-result-type", "x-edge-request-id",
  "x-host-header", "cs-protocol", "cs-bytes", "time-taken", "x-forwarded-for", "ssl-protocol", "ssl-cipher",
  "x-edge-response-result-type", "cs-protocol-version", "fle-status", "fle-encrypted-fields", "c-port",
  "time-to-first-byte", "x-edge-detailed-result-type", "sc-content-type", "sc-content-len", "sc-range-start",
  "sc-range-end"
]

const decode = (value: string | undefined, plusIsSpace: boolean): string | undefined => {
  const present = orUndefined(value)
  if (present === undefined) return undefined
  const text = plusIsSpace ? present.replace(/\+/g, " ") : present
  if (text.indexOf("%") === -1) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

export const cloudfrontParser = (): LineParser => {
  let index = columnIndex(DEFAULT_FIELDS)
  return {
    parse: (line) => {
      if (line.startsWith("#")) {
        if (line.startsWith("#Fields:")) index = columnIndex(line.slice(8).trim().split(/\s+/).map((name) => name.toLowerCase()))
        return "skip"
      }
      if (line.trim() === "") return "skip"
      const tabbed = line.indexOf("\t") !== -1
      const cells = line.split(tabbed ? "\t" : " ")
      // Fewer cells than fields: the line was cut.
      if (cells.length < index.size) return undefined
      const cell = (name: string) => {
        const i = index.get(name)
        return i === undefined ? undefined : cells[i]
      }
      const date = cell("date")
      const clock = cell("time")
      const status = cell("sc-status")
      const stem = cell("cs-uri-stem")
      if (date === undefined || clock === undefined || status === undefined || stem === undefined) return undefined
      if (!/^\d{3}$/.test(status)) return undefined
      const time = Date.parse(`${date}T${clock}Z`)
      if (Number.isNaN(time)) return undefined
      const query = orUndefined(cell("cs-uri-query"))
      const bytes = cell("sc-bytes")
      const host = orUndefined(cell("x-host-header")) ?? orUndefined(cell("cs(host)")) ?? orUndefined(cell("s-computername"))
      return {
        time,
        method: cell("cs-method") ?? "",
        host: host === undefined ? undefined : normalizeHost(host),
        path: cleanPath(query === undefined ? stem : `${stem}?${query}`),
        status: Number(status),
        bytes: bytes !== undefined && /^\d+$/.test(bytes) ? Number(bytes) : 0,
        userAgent: decode(cell("cs(user-agent)"), !tabbed) ?? "",
        ip: orUndefined(cell("c-ip")),
        referer: decode(cell("cs(referer)"), !tabbed),
        contentType: decode(cell("sc-content-type"), false)
      }
    }
  }
}

const columnIndex = (fields: ReadonlyArray<string>): ReadonlyMap<string, number> => new Map(fields.map((name, i) => [name, i]))
