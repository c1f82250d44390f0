import { cleanPath, integerOf, type LogLine, normalizeHost } from "../LogLine.ts"

/** What the JSON formats share: one object a line, read without trusting its shape. */

export type JsonObject = { readonly [key: string]: unknown }

/** The line as a JSON object; anything else (a cut line, an array, a number) gives undefined. */
export const jsonObject = (line: string): JsonObject | undefined => {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return undefined
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined
}

/** A field by its dotted path (`request.headers.user-agent`); a key that itself holds dots is tried whole first. */
export const field = (object: JsonObject, path: string): unknown => {
  if (path in object) return object[path]
  let value: unknown = object
  for (const key of path.split(".")) {
    if (typeof value !== "object" || value === null) return undefined
    value = (value as JsonObject)[key]
  }
  return value
}

export const stringField = (object: JsonObject, path: string): string | undefined => {
  const value = field(object, path)
  if (typeof value === "string") return value === "" || value === "-" ? undefined : value
  // Vercel gives the user agent as an array of the header's values.
  if (Array.isArray(value) && typeof value[0] === "string") return value.join(", ")
  if (typeof value === "number") return String(value)
  return undefined
}

/** A field holding a whole number, given as a number or as digits. */
export const numericField = (object: JsonObject, path: string): unknown => {
  const value = stringField(object, path)
  return value === undefined ? undefined : /^\d+$/.test(value) ? Number(value) : value
}

/** Where a JSON record keeps a request's fields besides its time, path and status: a key or dotted path each. */
export interface RequestFields {
  readonly method?: string | undefined
  readonly host?: string | undefined
  readonly bytes?: string | undefined
  readonly userAgent?: string | undefined
  readonly ip?: string | undefined
  readonly referer?: string | undefined
  readonly contentType?: string | undefined
}

/**
 * A request of a JSON record: its time, path (`target`, query included) and status as the format found
 * them (and its host, when the format looks in more than one place), the other fields where `fields` says.
 */
export const requestOf = (
  record: JsonObject,
  found: { readonly time: number; readonly target: string; readonly status: number; readonly host?: string | undefined },
  fields: RequestFields
): LogLine => {
  const optional = (path: string | undefined) => path === undefined ? undefined : stringField(record, path)
  const host = found.host ?? optional(fields.host)
  return {
    time: found.time,
    method: optional(fields.method) ?? "",
    host: host === undefined ? undefined : normalizeHost(host),
    path: cleanPath(found.target),
    status: found.status,
    bytes: fields.bytes === undefined ? 0 : (integerOf(numericField(record, fields.bytes)) ?? 0),
    userAgent: optional(fields.userAgent) ?? "",
    ip: optional(fields.ip),
    referer: optional(fields.referer),
    contentType: optional(fields.contentType)
  }
}
