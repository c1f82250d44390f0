/**
 * A small RFC 4180 reader for the tests, written from the RFC and independent of the service's writer
 * (src/Integrations/Csv.ts): records of fields, `""` an escaped quote, CRLF ending every record; a bare
 * line break outside quotes or a last record without its CRLF is an error.
 */
export const parseCsv = (text: string): Array<Array<string>> => {
  const records: Array<Array<string>> = []
  let record: Array<string> = []
  let field = ""
  let i = 0
  let quoted = false
  while (i < text.length) {
    const char = text[i]!
    if (quoted) {
      if (char === "\"" && text[i + 1] === "\"") {
        field += "\""
        i += 2
        continue
      }
      if (char === "\"") {
        quoted = false
        i += 1
        continue
      }
      field += char
      i += 1
      continue
    }
    if (char === "\"" && field === "") quoted = true
    else if (char === ",") {
      record.push(field)
      field = ""
    } else if (char === "\r" && text[i + 1] === "\n") {
      record.push(field)
      records.push(record)
      record = []
      field = ""
      i += 1
    } else if (char === "\r" || char === "\n") throw new Error(`bare line break at ${i}`)
    else field += char
    i += 1
  }
  if (field !== "" || record.length > 0) throw new Error("last record not ended by CRLF")
  return records
}
