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

const CLF_TIME = /^\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}$/

/** Two decimal digits of `text` at `at`. */
const two = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48

/**
 * `10/Oct/2026:13:55:36 +0000` in milliseconds since the epoch. The date part is looked up once per
 * day (lines come in order, a day at a time); the rest is read at fixed positions.
 */
export const clfTimeParser = () => {
  let lastDate = ""
  let lastDayStart = Number.NaN
  return (text: string): number | undefined => {
    if (!CLF_TIME.test(text)) return undefined
    const date = text.slice(0, 11)
    if (date !== lastDate) {
      const month = MONTHS[text.slice(3, 6)]
      if (month === undefined) return undefined
      lastDate = date
      lastDayStart = Date.UTC(Number(text.slice(7, 11)), month, two(text, 0))
    }
    const offset = (text[21] === "-" ? -1 : 1) * (two(text, 22) * 60 + two(text, 24)) * 60_000
    return lastDayStart + ((two(text, 12) * 60 + two(text, 15)) * 60 + two(text, 18)) * 1000 - offset
  }
}

/** A quoted field without its escapes. */
const unescape = (text: string): string =>
  text.indexOf("\\") === -1
    ? text
    : text.replace(/\\x([0-9a-fA-F]{2})|\\(.)/g, (_, hex: string | undefined, char: string | undefined) =>
      hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : char!
    )

const lineParser = (requireAgent: boolean): LineParser => {
  const clfTime = clfTimeParser()
  return { parse: (line) => parseLine(line, requireAgent, clfTime) }
}

const parseLine = (line: string, requireAgent: boolean, clfTime: (text: string) => number | undefined): LineResult => {
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

export const combinedParser = (): LineParser => lineParser(true)

export const commonParser = (): LineParser => lineParser(false)
