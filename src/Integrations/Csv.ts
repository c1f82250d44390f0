import type { Column } from "./Columns.ts"
import { valueAt } from "./Columns.ts"

/**
 * CSV as RFC 4180 writes it, for spreadsheets: CRLF line ends, a header row, fields holding a comma,
 * a double quote, CR or LF enclosed in double quotes with inner quotes doubled. UTF-8, no byte order
 * mark (Google Sheets' IMPORTDATA and most parsers would read it as part of the first header).
 *
 * Cell values are the row's JSON values: null is an empty cell, numbers and booleans as JSON writes
 * them, dates as the ISO strings JSON carries, arrays joined with `|` (objects in them as JSON).
 */

/** What joins the elements of an array in one cell. */
export const ARRAY_SEPARATOR = "|"

/**
 * First characters that make a spreadsheet (Excel, LibreOffice, Google Sheets) read a cell as a
 * formula or a command: `=`, `+`, `-`, `@` (and their full-width forms, which some locales accept),
 * tab, CR, LF and NUL. A text cell starting with one of them, possibly after spaces, is prefixed with
 * a single quote, as OWASP recommends, so it shows as the text it is and never runs.
 */
const FORMULA_START = /^[ ]*[=+\-@\t\r\n\0\uFF1D\uFF0B\uFF0D\uFF20]/

/** A text value made inert for spreadsheets. Numbers never come here: `-3.5` stays a number. */
export const neutraliseFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text)

/** One field, enclosed in quotes when RFC 4180 requires it. */
export const quoteField = (field: string): string => (/[",\r\n]/.test(field) ? `"${field.replaceAll("\"", "\"\"")}"` : field)

const elementText = (element: unknown): string => {
  if (element === null || element === undefined) return ""
  if (typeof element === "string") return element
  if (typeof element === "number" || typeof element === "boolean" || typeof element === "bigint") return String(element)
  if (element instanceof Date) return element.toISOString()
  return JSON.stringify(element)
}

/** The field of one value: its text, neutralised when it is text, quoted when needed. */
export const csvField = (value: unknown): string => {
  if (value === null || value === undefined) return ""
  // JSON numbers and booleans cannot start a formula (a negative number is a number to the sheet).
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value)
  const text = Array.isArray(value) ? value.map(elementText).join(ARRAY_SEPARATOR) : elementText(value)
  return quoteField(neutraliseFormula(text))
}

/** One record: fields joined with commas, ended by CRLF. */
export const csvRecord = (fields: ReadonlyArray<string>): string => `${fields.join(",")}\r\n`

/** The header record of the columns. */
export const csvHeader = (columns: ReadonlyArray<Column>): string => csvRecord(columns.map((column) => csvField(column.name)))

/** The records of a chunk of rows, in order, as one string (one write per chunk when streaming). */
export const csvRows = (columns: ReadonlyArray<Column>, rows: ReadonlyArray<unknown>): string => {
  let out = ""
  for (const row of rows) out += csvRecord(columns.map((column) => csvField(valueAt(row, column.path))))
  return out
}
