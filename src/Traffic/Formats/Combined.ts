import { cleanPath, type LineParser, type LineResult, orUndefined } from "../LogLine.ts"

/**
 * NCSA common and combined formats (Apache's `common`/`combined`, nginx's default `combined`):
 *
 *   203.0.113.7 - - [10/Oct/2026:13:55:36 +0000] "GET /pricing HTTP/1.1" 200 5120 "https://chatgpt.com/" "Mozilla/5.0 ..."
 *
 * `common` stops after the size. Quoted fields may hold escaped quotes (`\"` from Apache, `\x22` from
 * nginx). Neither format records the host: the site host filter does not apply to them.
 */

const QUOTED = String.raw`"((?:[^"\\]|\\.)*)"`
const LINE = new RegExp(String.raw`^(\S+) \S+ \S+ \[([^\]]+)\] ${QUOTED} (\d{3}) (\d+|-)(?: ${QUOTED} ${QUOTED})?`)

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 }

/** `10/Oct/2026:13:55:36 +0000` in milliseconds since the epoch. */
export const clfTime = (text: string): number | undefined => {
  const m = /^(\d{2})\/(\w{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/.exec(text)
  if (m === null) return undefined
  const month = MONTHS[m[2]!]
  if (month === undefined) return undefined
  const offset = (m[7] === "-" ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9])) * 60_000
  return Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6])) - offset
}

/** A quoted field without its escapes. */
const unescape = (text: string): string =>
  text.indexOf("\\") === -1
    ? text
    : text.replace(/\\x([0-9a-fA-F]{2})|\\(.)/g, (_, hex: string | undefined, char: string | undefined) =>
      hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : char!
    )

const parseLine = (line: string, requireAgent: boolean): LineResult => {
  const m = LINE.exec(line)
  if (m === null) return line.trim() === "" ? "skip" : undefined
  if (requireAgent && m[6] === undefined) return undefined
  const time = clfTime(m[2]!)
  if (time === undefined) return undefined
  // The request line: METHOD TARGET PROTOCOL; a malformed one (`"-"`, garbage) still counts, with no path.
  const request = unescape(m[3]!)
  const firstSpace = request.indexOf(" ")
  const secondSpace = firstSpace === -1 ? -1 : request.indexOf(" ", firstSpace + 1)
  const method = firstSpace === -1 ? "" : request.slice(0, firstSpace)
  const target = firstSpace === -1 ? "" : request.slice(firstSpace + 1, secondSpace === -1 ? undefined : secondSpace)
  return {
    time,
    method,
    host: undefined,
    path: target === "" ? "" : cleanPath(target),
    status: Number(m[4]),
    bytes: m[5] === "-" ? 0 : Number(m[5]),
    userAgent: m[7] === undefined ? "" : unescape(m[7]),
    ip: orUndefined(m[1]),
    referer: m[6] === undefined ? undefined : orUndefined(unescape(m[6])),
    contentType: undefined
  }
}

export const combinedParser = (): LineParser => ({ parse: (line) => parseLine(line, true) })

export const commonParser = (): LineParser => ({ parse: (line) => parseLine(line, false) })
