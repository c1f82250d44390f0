import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import { contentDisposition, exportFilename, negotiateFormat, UnknownFormat } from "../../../src/Integrations/ExportFormat.ts"
import { chunksFrom, exportBody, utf8 } from "../../../src/Integrations/ExportStream.ts"
import { type Column } from "../../../src/Integrations/Columns.ts"

describe("format negotiation", () => {
  it("lets the format parameter win over Accept", () => {
    expect(negotiateFormat("csv", "application/json")).toBe("csv")
    expect(negotiateFormat("ndjson", undefined)).toBe("ndjson")
    expect(negotiateFormat("json", "text/csv")).toBe("json")
  })

  it("reports an unknown format parameter instead of guessing", () => {
    const result = negotiateFormat("xlsx", undefined)
    expect(result).toBeInstanceOf(UnknownFormat)
    expect((result as UnknownFormat).format).toBe("xlsx")
    expect(negotiateFormat("CSV", undefined)).toBeInstanceOf(UnknownFormat)
  })

  it("reads Accept: exact types, both NDJSON names, quality values, q=0", () => {
    expect(negotiateFormat(undefined, "text/csv")).toBe("csv")
    expect(negotiateFormat(undefined, "application/x-ndjson")).toBe("ndjson")
    expect(negotiateFormat(undefined, "application/ndjson")).toBe("ndjson")
    expect(negotiateFormat(undefined, "application/json;q=0.5, text/csv;q=0.8")).toBe("csv")
    expect(negotiateFormat(undefined, "text/csv;q=0, */*")).toBe("json")
    expect(negotiateFormat(undefined, "TEXT/CSV; charset=utf-8")).toBe("csv")
  })

  it("prefers a type named exactly over a wildcard of the same quality, and JSON among equals", () => {
    expect(negotiateFormat(undefined, "text/csv, */*")).toBe("csv")
    expect(negotiateFormat(undefined, "*/*, text/csv")).toBe("csv")
    expect(negotiateFormat(undefined, "text/*")).toBe("csv")
    expect(negotiateFormat(undefined, "*/*")).toBe("json")
    expect(negotiateFormat(undefined, "text/csv, application/json")).toBe("json")
  })

  it("answers JSON without a header, with an empty one, or with only unknown types", () => {
    expect(negotiateFormat(undefined, undefined)).toBe("json")
    expect(negotiateFormat(undefined, "  ")).toBe("json")
    expect(negotiateFormat(undefined, "image/png")).toBe("json")
    expect(negotiateFormat(undefined, "garbage;;;,")).toBe("json")
  })
})

describe("download names", () => {
  it("names the file after the resource and the day, with only safe characters", () => {
    expect(exportFilename("brand-analytics", "2026-11-23", "csv")).toBe("brand-analytics-2026-11-23.csv")
    expect(exportFilename("../etc/passwd", "2026-11-23", "ndjson")).toBe("etc-passwd-2026-11-23.ndjson")
    expect(exportFilename("", "2026-11-23", "csv")).toBe("export-2026-11-23.csv")
    expect(contentDisposition("brand-analytics-2026-11-23.csv")).toBe("attachment; filename=\"brand-analytics-2026-11-23.csv\"")
  })
})

const columns: ReadonlyArray<Column> = [{ name: "id", path: ["id"] }, { name: "name", path: ["name"] }]

const collect = <E>(stream: Stream.Stream<string, E>) => Effect.map(Stream.runCollect(stream), (chunk) => Chunk.toArray(chunk))

describe("export bodies from chunks", () => {
  it.effect("writes the CSV header once, then one piece of text per non-empty chunk", () =>
    Effect.gen(function*() {
      const chunks = [[{ id: 1, name: "a" }, { id: 2, name: "b" }], [], [{ id: 3, name: "c,d" }]]
      const pieces = yield* collect(exportBody("csv", columns, chunksFrom(chunks, (error) => error)))
      expect(pieces).toEqual(["id,name\r\n", "1,a\r\n2,b\r\n", "3,\"c,d\"\r\n"])
    }))

  it.effect("writes only the header for no rows, and nothing for NDJSON", () =>
    Effect.gen(function*() {
      expect(yield* collect(exportBody("csv", columns, Stream.empty))).toEqual(["id,name\r\n"])
      expect(yield* collect(exportBody("ndjson", columns, Stream.empty))).toEqual([])
    }))

  it.effect("reads an async iterator lazily: a chunk is read only when the previous one is written", () =>
    Effect.gen(function*() {
      const read: Array<number> = []
      async function* chunks() {
        for (let i = 0; i < 3; i++) {
          read.push(i)
          yield [{ id: i, name: `n${i}` }]
        }
      }
      const written: Array<string> = []
      yield* exportBody("ndjson", columns, chunksFrom(chunks(), (error) => error)).pipe(
        Stream.take(2),
        Stream.runForEach((piece) => Effect.sync(() => written.push(piece)))
      )
      expect(written).toEqual(["{\"id\":0,\"name\":\"n0\"}\n", "{\"id\":1,\"name\":\"n1\"}\n"])
      expect(read).toEqual([0, 1])
    }))

  it.effect("ends with the reader's error", () =>
    Effect.gen(function*() {
      async function* failing() {
        yield [{ id: 1, name: "a" }]
        throw new Error("database gone")
      }
      const result = yield* Effect.either(collect(exportBody("csv", columns, chunksFrom(failing(), (error) => String(error)))))
      expect(result._tag).toBe("Left")
      if (result._tag === "Left") expect(result.left).toContain("database gone")
    }))

  it.effect("encodes to UTF-8 bytes", () =>
    Effect.gen(function*() {
      const bytes = yield* Stream.runCollect(utf8(Stream.make("é")))
      expect([...Chunk.toArray(bytes)[0]!]).toEqual([0xc3, 0xa9])
    }))
})
