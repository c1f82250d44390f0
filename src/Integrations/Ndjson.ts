/**
 * Newline-delimited JSON: one row a line, each row exactly the object the JSON answer holds (nested,
 * not flattened), each line ended by LF. JSON.stringify escapes every control character inside
 * strings, so a row never spans two lines.
 */
export const ndjsonRows = (rows: ReadonlyArray<unknown>): string => {
  let out = ""
  for (const row of rows) out += `${JSON.stringify(row)}\n`
  return out
}
