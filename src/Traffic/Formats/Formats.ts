import { Schema } from "effect"
import type { LineParser } from "../LogLine.ts"
import { albParser } from "./Alb.ts"
import { cloudflareLogpushParser } from "./CloudflareLogpush.ts"
import { cloudfrontParser } from "./CloudFront.ts"
import { combinedParser, commonParser } from "./Combined.ts"
import { jsonObject } from "./Json.ts"
import { type FieldMap, ndjsonParser } from "./Ndjson.ts"
import { vercelParser } from "./Vercel.ts"

/** The log formats a traffic source can declare (docs/agent-traffic.md, "Formats"). */
export const formats = ["auto", "combined", "common", "cloudfront", "alb", "cloudflare_logpush", "vercel", "ndjson"] as const
export const LogFormat = Schema.Literal(...formats)
export type LogFormat = typeof LogFormat.Type

/** A format that names itself: everything but `auto`, and `ndjson` only with its field map. */
export type ConcreteFormat = Exclude<LogFormat, "auto">

/** A new parser for a format; `ndjson` needs its field map. */
export const parserFor = (format: LogFormat, fieldMap?: FieldMap): LineParser => {
  switch (format) {
    case "auto":
      return autoParser(fieldMap)
    case "combined":
      return combinedParser()
    case "common":
      return commonParser()
    case "cloudfront":
      return cloudfrontParser()
    case "alb":
      return albParser()
    case "cloudflare_logpush":
      return cloudflareLogpushParser()
    case "vercel":
      return vercelParser()
    case "ndjson":
      if (fieldMap === undefined) throw new Error("The ndjson format needs a field map.")
      return ndjsonParser(fieldMap)
  }
}

const ALB_START = /^(?:http|https|h2|grpcs|ws|wss) \d{4}-\d{2}-\d{2}T/
const CLF_START = /^\S+ \S+ \S+ \[\d{2}\/\w{3}\/\d{4}:/

/**
 * The format a line looks like, or undefined when it looks like none (a blank or cut line).
 * JSON lines are told apart by their fields: Vercel's `proxy`/`deploymentId`, Cloudflare's
 * `ClientRequest*`/`Edge*`; any other JSON is `ndjson` (readable only with a field map).
 */
export const detectFormat = (line: string): ConcreteFormat | undefined => {
  if (line.startsWith("#Version") || line.startsWith("#Fields")) return "cloudfront"
  if (ALB_START.test(line)) return "alb"
  if (CLF_START.test(line)) return /"\s*$/.test(line) && combinedParser().parse(line) !== undefined ? "combined" : "common"
  if (line.startsWith("{")) {
    const record = jsonObject(line)
    if (record === undefined) return undefined
    if ("proxy" in record || "deploymentId" in record) return "vercel"
    if (Object.keys(record).some((key) => key.startsWith("ClientRequest") || key.startsWith("Edge") || key === "ClientIP")) return "cloudflare_logpush"
    return "ndjson"
  }
  if (/^\d{4}-\d{2}-\d{2}\t\d{2}:\d{2}:\d{2}\t/.test(line)) return "cloudfront"
  return undefined
}

/**
 * `auto`: the format of the first line that looks like one decides for the whole file (a file holds
 * one format); lines before it are unparsed. A JSON log that is neither Vercel's nor Cloudflare's is
 * read as `ndjson` when the source has a field map, and is otherwise unparsed.
 */
const autoParser = (fieldMap: FieldMap | undefined): LineParser => {
  let chosen: LineParser | undefined
  return {
    parse: (line) => {
      if (chosen !== undefined) return chosen.parse(line)
      if (line.trim() === "") return "skip"
      const format = detectFormat(line)
      if (format === undefined || (format === "ndjson" && fieldMap === undefined)) return undefined
      chosen = parserFor(format, fieldMap)
      return chosen.parse(line)
    }
  }
}
