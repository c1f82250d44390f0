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
