/**
 * Which format a list or analytics answer is written in, and how a download is named.
 *
 * The `format` query parameter wins; without it the `Accept` header chooses (RFC 9110 §12.5.1: the
 * highest quality wins, a type named exactly counts before a wildcard matching it, `q=0` refuses);
 * JSON when nothing asks for another format. An `Accept` naming only formats the service does not
 * write also gets JSON, as the API always answered before exports existed.
 */
export const exportFormats = ["json", "csv", "ndjson"] as const
export type ExportFormat = (typeof exportFormats)[number]

export const mediaTypes: Record<ExportFormat, string> = {
  json: "application/json",
  csv: "text/csv; charset=utf-8",
  ndjson: "application/x-ndjson"
}

/** The media types that ask for each format (NDJSON has two names in use). */
const acceptedTypes: Record<ExportFormat, ReadonlyArray<string>> = {
  json: ["application/json"],
  csv: ["text/csv"],
  ndjson: ["application/x-ndjson", "application/ndjson"]
}

export class UnknownFormat {
  readonly _tag = "UnknownFormat"
  constructor(readonly format: string) {}
}

interface MediaRange {
  readonly type: string
  readonly subtype: string
  readonly quality: number
}

const parseAccept = (header: string): ReadonlyArray<MediaRange> =>
  header.split(",").flatMap((part) => {
    const [range = "", ...parameters] = part.split(";").map((piece) => piece.trim())
    const [type, subtype] = range.toLowerCase().split("/")
    if (type === undefined || subtype === undefined || type === "" || subtype === "") return []
    let quality = 1
    for (const parameter of parameters) {
      const [name, value] = parameter.split("=").map((piece) => piece.trim())
      if (name?.toLowerCase() === "q" && value !== undefined) {
        const parsed = Number(value)
        quality = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0
      }
    }
    return [{ type, subtype, quality }]
  })

/** How well a range names a media type: 2 exactly, 1 `type/*`, 0 `*\/*`, -1 not at all. */
const specificity = (range: MediaRange, mediaType: string): number => {
  const [type, subtype] = mediaType.split("/")
  if (range.type === type && range.subtype === subtype) return 2
  if (range.type === type && range.subtype === "*") return 1
  if (range.type === "*" && range.subtype === "*") return 0
  return -1
}

/** The quality the header gives a format (from its most specific matching range), and that range's specificity. */
const rating = (ranges: ReadonlyArray<MediaRange>, format: ExportFormat): { quality: number; specificity: number } => {
  let best = { quality: 0, specificity: -1 }
  for (const mediaType of acceptedTypes[format]) {
    for (const range of ranges) {
      const level = specificity(range, mediaType)
      if (level > best.specificity || (level === best.specificity && level >= 0 && range.quality > best.quality)) {
        best = { quality: range.quality, specificity: level }
      }
    }
  }
  return best
}

/** The format of an answer, from the `format` parameter (if given) and the `Accept` header. */
export const negotiateFormat = (format: string | undefined, accept: string | undefined): ExportFormat | UnknownFormat => {
  if (format !== undefined) {
    return (exportFormats as ReadonlyArray<string>).includes(format) ? (format as ExportFormat) : new UnknownFormat(format)
  }
  if (accept === undefined || accept.trim() === "") return "json"
  const ranges = parseAccept(accept)
  let chosen: ExportFormat = "json"
  let best = { quality: 0, specificity: -1 }
  // In the order of exportFormats, so that JSON wins a tie between equals.
  for (const candidate of exportFormats) {
    const rated = rating(ranges, candidate)
    if (rated.quality <= 0) continue
    if (rated.quality > best.quality || (rated.quality === best.quality && rated.specificity > best.specificity)) {
      chosen = candidate
      best = rated
    }
  }
  return chosen
}

/**
 * The file name of a download: the resource's name and the day it was made, in the format's
 * extension (`brand-analytics-2026-11-23.csv`). Only letters, digits, `.`, `_` and `-` survive, so
 * the name needs no escaping in the header and cannot name a path.
 */
export const exportFilename = (resource: string, day: string, format: Exclude<ExportFormat, "json">): string => {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+|-+$/g, "")
  return `${safe(resource) || "export"}-${safe(day)}.${format}`
}

/** The `Content-Disposition` of a download named by exportFilename. */
export const contentDisposition = (filename: string): string => `attachment; filename="${filename.replace(/["\\]/g, "")}"`
