import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { BrandAnalyticsRow } from "../../../src/Analytics/Api.ts"
import { columnsOf, valueAt } from "../../../src/Integrations/Columns.ts"
import { csvField, csvHeader, csvRows, neutraliseFormula, quoteField } from "../../../src/Integrations/Csv.ts"
import { ndjsonRows } from "../../../src/Integrations/Ndjson.ts"
import { parseCsv } from "../../support/Csv.ts"

const Row = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  brand: Schema.Struct({ id: Schema.Number, name: Schema.String }),
  ci: Schema.NullOr(Schema.Struct({ low: Schema.Number, high: Schema.Number })),
  tags: Schema.Array(Schema.String),
  created_at: Schema.Date
})

describe("columns of an export", () => {
  it("flattens nested and nullable objects in declaration order, from the encoded side", () => {
    expect(columnsOf(Row).map((column) => column.name)).toEqual([
      "id", "name", "brand.id", "brand.name", "ci.low", "ci.high", "tags", "created_at"
    ])
  })

  it("gives the brand analytics row its documented flattened names", () => {
    const names = columnsOf(BrandAnalyticsRow).map((column) => column.name)
    expect(names.slice(0, 6)).toEqual(["brand.id", "brand.name", "brand.classification", "brand.is_own", "responses_count", "mentioned_count"])
    expect(names).toContain("visibility_ci.low")
    expect(names).toContain("share_of_voice_ci.high")
    expect(names.at(-1)).toBe("previous_total_mentions")
    expect(new Set(names).size).toBe(names.length)
  })

  it("keeps a union of an object and a scalar as one column, and merges object unions", () => {
    const Mixed = Schema.Struct({
      either: Schema.Union(Schema.String, Schema.Struct({ a: Schema.Number })),
      shape: Schema.Union(Schema.Struct({ kind: Schema.Literal("a"), x: Schema.Number }), Schema.Struct({ kind: Schema.Literal("b"), y: Schema.Number }))
    })
    expect(columnsOf(Mixed).map((column) => column.name)).toEqual(["either", "shape.kind", "shape.x", "shape.y"])
  })

  it("refuses a schema that is not an object", () => {
    expect(() => columnsOf(Schema.String)).toThrow(/not an object/)
  })

  it("reads a path through null as missing", () => {
    expect(valueAt({ ci: null }, ["ci", "low"])).toBeUndefined()
    expect(valueAt({ ci: { low: 0 } }, ["ci", "low"])).toBe(0)
    expect(valueAt({ tags: ["a"] }, ["tags", "0"])).toBeUndefined()
  })
})

describe("CSV fields", () => {
  it("quotes commas, quotes, CR and LF as RFC 4180 says, and nothing else", () => {
    expect(quoteField("plain text")).toBe("plain text")
    expect(quoteField("a,b")).toBe("\"a,b\"")
    expect(quoteField("say \"hi\"")).toBe("\"say \"\"hi\"\"\"")
    expect(quoteField("two\nlines")).toBe("\"two\nlines\"")
    expect(quoteField("cr\rhere")).toBe("\"cr\rhere\"")
  })

  it("neutralises every formula start OWASP lists, and the full-width ones", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r", "\n", "\0", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"]) {
      expect(neutraliseFormula(`${start}HYPERLINK("http://x")`)).toBe(`'${start}HYPERLINK("http://x")`)
    }
    expect(neutraliseFormula("  =1+1")).toBe("'  =1+1")
    expect(neutraliseFormula("a=1")).toBe("a=1")
    expect(neutraliseFormula("'already")).toBe("'already")
    expect(neutraliseFormula("")).toBe("")
  })

  it("writes numbers and booleans as JSON does, never neutralised; null and missing as empty", () => {
    expect(csvField(-3.5)).toBe("-3.5")
    expect(csvField(0)).toBe("0")
    expect(csvField(true)).toBe("true")
    expect(csvField(null)).toBe("")
    expect(csvField(undefined)).toBe("")
    expect(csvField("-3.5")).toBe("'-3.5")
  })

  it("joins arrays with | (objects as JSON) and neutralises the joined text", () => {
    expect(csvField(["a", "b", 3])).toBe("a|b|3")
    expect(csvField(["=cmd", "b"])).toBe("'=cmd|b")
    expect(csvField([{ id: 1 }])).toBe("\"{\"\"id\"\":1}\"")
    expect(csvField([])).toBe("")
  })

  it("writes a date as its ISO string, as JSON does", () => {
    expect(csvField(new Date("2026-11-23T10:00:00.000Z"))).toBe("2026-11-23T10:00:00.000Z")
  })
})

describe("CSV files", () => {
  const columns = columnsOf(Row)
  const rows = [
    { id: 1, name: "Acme, Inc.", brand: { id: 3, name: "Ünïcødé 北京" }, ci: { low: 1.5, high: 9 }, tags: ["x", "y"], created_at: "2026-11-23T10:00:00.000Z" },
    { id: 2, name: "=HYPERLINK(\"http://evil\",\"click\")", brand: { id: 4, name: "line\nbreak \"q\"" }, ci: null, tags: [], created_at: "2026-11-24T00:00:00.000Z" }
  ]

  it("reads back with an independent RFC 4180 reader to the same cells", () => {
    const text = csvHeader(columns) + csvRows(columns, rows)
    expect(parseCsv(text)).toEqual([
      ["id", "name", "brand.id", "brand.name", "ci.low", "ci.high", "tags", "created_at"],
      ["1", "Acme, Inc.", "3", "Ünïcødé 北京", "1.5", "9", "x|y", "2026-11-23T10:00:00.000Z"],
      ["2", "'=HYPERLINK(\"http://evil\",\"click\")", "4", "line\nbreak \"q\"", "", "", "", "2026-11-24T00:00:00.000Z"]
    ])
  })

  it("ends every record with CRLF, and writes nothing for no rows", () => {
    expect(csvHeader(columns).endsWith("created_at\r\n")).toBe(true)
    expect(csvRows(columns, [])).toBe("")
    expect(csvRows(columns, rows).split("\r\n").length).toBe(3)
  })

  it("is UTF-8 without a byte order mark", () => {
    const bytes = new TextEncoder().encode(csvHeader(columns) + csvRows(columns, rows))
    expect([...bytes.slice(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf])
    expect(new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toContain("北京")
  })
})

describe("NDJSON", () => {
  it("writes each row on one line as its JSON, whatever its strings hold", () => {
    const rows = [{ a: "line\nbreak\u2028sep", b: null }, { nested: { x: [1, 2] } }]
    const text = ndjsonRows(rows)
    const lines = text.split("\n")
    expect(lines).toHaveLength(3)
    expect(lines[2]).toBe("")
    expect(lines.slice(0, 2).map((line) => JSON.parse(line))).toEqual(rows)
    expect(ndjsonRows([])).toBe("")
  })
})
