/**
 * One request read from a log, whatever the format (docs/agent-traffic.md, "Formats"), and the small
 * rules every format's parser shares.
 */
export interface LogLine {
  /** When the request was received, in milliseconds since the epoch. */
  readonly time: number
  readonly method: string
  /** The requested host (lower case, no port) when the format records it. */
  readonly host: string | undefined
  /** The path, its query string dropped except `utm_*` parameters. */
  readonly path: string
  readonly status: number
  readonly bytes: number
  readonly userAgent: string
  /** The client's address, when the format records one. Never stored: see Classify.ts. */
  readonly ip: string | undefined
  readonly referer: string | undefined
  readonly contentType: string | undefined
}

/**
 * A parser's answer for one line: a request, `"skip"` for a line that is not a request (a W3C
 * `#Fields` header, a blank line, a drain's build log), or `undefined` for a line it cannot read.
 */
export type LineResult = LogLine | "skip" | undefined

/** A parser of one format; it may keep state between lines (CloudFront's `#Fields`). */
export interface LineParser {
  readonly parse: (line: string) => LineResult
}

/**
 * The path of a request target with its query string dropped except `utm_*` parameters (kept in
 * their order, untouched): the rest of a query may identify a person (a session, an e-mail address in
 * a reset link) and is never kept; `utm_source` is how some AI platforms mark the visits they send.
 * An absolute target (`GET https://host/path`, as in ALB logs) keeps its path; the fragment is dropped.
 */
export const cleanPath = (target: string): string => {
  let path = target
  if (!path.startsWith("/")) {
    const scheme = path.indexOf("://")
    if (scheme !== -1) {
      const slash = path.indexOf("/", scheme + 3)
      path = slash === -1 ? "/" : path.slice(slash)
    }
  }
  const hash = path.indexOf("#")
  if (hash !== -1) path = path.slice(0, hash)
  const question = path.indexOf("?")
  if (question === -1) return path
  const utm = path
    .slice(question + 1)
    .split("&")
    .filter((piece) => piece.length > 4 && piece.slice(0, 4).toLowerCase() === "utm_")
  return utm.length === 0 ? path.slice(0, question) : `${path.slice(0, question)}?${utm.join("&")}`
}

/** The value of `utm_source` in a cleaned path, lower case, or undefined. */
export const utmSource = (path: string): string | undefined => {
  const question = path.indexOf("?")
  if (question === -1) return undefined
  for (const piece of path.slice(question + 1).split("&")) {
    if (piece.slice(0, 11).toLowerCase() === "utm_source=") {
      try {
        return decodeURIComponent(piece.slice(11).replace(/\+/g, " ")).trim().toLowerCase()
      } catch {
        return piece.slice(11).toLowerCase()
      }
    }
  }
  return undefined
}

/** A host as the filters compare it: lower case, no port, no trailing dot. */
export const normalizeHost = (host: string): string => {
  let value = host.trim().toLowerCase()
  if (value.startsWith("[")) {
    const end = value.indexOf("]")
    return end === -1 ? value : value.slice(0, end + 1)
  }
  const colon = value.indexOf(":")
  if (colon !== -1 && value.indexOf(":", colon + 1) === -1) value = value.slice(0, colon)
  return value.replace(/\.+$/, "")
}

/** `-` and the empty string mean "not recorded" in every text format. */
export const orUndefined = (value: string | undefined): string | undefined =>
  value === undefined || value === "" || value === "-" ? undefined : value

const HTML_EXTENSIONS = new Set(["html", "htm", "xhtml", "php", "asp", "aspx", "jsp", "shtml", "cfm"])

/**
 * Whether the request fetched an HTML page: by its content type when the format records one,
 * otherwise by its path (no extension in the last segment, or an extension that serves pages).
 */
export const isHtml = (line: Pick<LogLine, "contentType" | "path">): boolean => {
  if (line.contentType !== undefined) {
    const type = line.contentType.toLowerCase()
    return type.startsWith("text/html") || type.startsWith("application/xhtml")
  }
  const question = line.path.indexOf("?")
  const path = question === -1 ? line.path : line.path.slice(0, question)
  const segment = path.slice(path.lastIndexOf("/") + 1)
  const dot = segment.lastIndexOf(".")
  return dot === -1 || HTML_EXTENSIONS.has(segment.slice(dot + 1).toLowerCase())
}

/** The class of a status code as rollups keep it. */
export type StatusClass = "2xx" | "3xx" | "4xx" | "5xx" | "other"

export const statusClass = (status: number): StatusClass =>
  status >= 200 && status < 300 ? "2xx" : status >= 300 && status < 400 ? "3xx" : status >= 400 && status < 500 ? "4xx" : status >= 500 && status < 600 ? "5xx" : "other"

/** A time given as a number: seconds, milliseconds or nanoseconds since the epoch, told apart by size. */
export const epochMillis = (value: number): number =>
  value > 1e17 ? Math.floor(value / 1e6) : value > 1e14 ? Math.floor(value / 1e3) : value > 1e11 ? value : value * 1000

/** A time given as JSON gives it: a number (see `epochMillis`), a numeric string, or an ISO 8601 string. */
export const timeOf = (value: unknown): number | undefined => {
  if (typeof value === "number") return Number.isFinite(value) ? epochMillis(value) : undefined
  if (typeof value !== "string" || value === "") return undefined
  if (/^\d+(\.\d+)?$/.test(value)) return epochMillis(Number(value))
  const millis = Date.parse(value)
  return Number.isNaN(millis) ? undefined : millis
}

/** A whole number of bytes or a status from text; `-` counts as 0 bytes. */
export const integerOf = (value: unknown): number | undefined => {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : undefined
  if (typeof value !== "string") return undefined
  if (value === "-" || value === "") return 0
  return /^\d+$/.test(value) ? Number(value) : undefined
}
