import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { paginate, PaginatedSchema, parsePageRequest, type PageRequest } from "../../src/Http/Pagination.js"

const base = "http://localhost:3000/api/v1/tags"
const req = (page: number, perPage: number): PageRequest => ({
  page,
  perPage,
  offset: (page - 1) * perPage,
  limit: perPage
})

describe("parsePageRequest", () => {
  it.each([
    [undefined, 1],
    ["", 1],
    ["0", 1],
    ["-3", 1],
    ["abc", 1],
    ["1.5", 1],
    ["1e3", 1],
    [" 2", 1],
    ["99999999999999999999", 1],
    ["1", 1],
    ["2", 2],
    ["007", 7]
  ])("page %j -> %i", (page, expected) => {
    expect(parsePageRequest({ page }).page).toBe(expected)
  })

  it.each([
    [undefined, 25],
    ["", 25],
    ["abc", 25],
    ["1.5", 25],
    ["0", 1],
    ["-5", 1],
    ["1", 1],
    ["50", 50],
    ["100", 100],
    ["101", 100],
    ["1000", 100],
    ["99999999999999999999", 100],
    ["9".repeat(400), 100],
    ["-99999999999999999999", 1]
  ])("per_page %j -> %i", (per_page, expected) => {
    expect(parsePageRequest({ per_page }).perPage).toBe(expected)
  })

  it("computes offset and limit", () => {
    expect(parsePageRequest({ page: "3", per_page: "10" })).toEqual({ page: 3, perPage: 10, offset: 20, limit: 10 })
    expect(parsePageRequest({})).toEqual({ page: 1, perPage: 25, offset: 0, limit: 25 })
  })

  it("uses the last value of a repeated param", () => {
    expect(parsePageRequest({ page: ["2", "4"], per_page: ["5", "abc"] })).toEqual({
      page: 4,
      perPage: 25,
      offset: 75,
      limit: 25
    })
    expect(parsePageRequest({ page: [], per_page: [] })).toEqual({ page: 1, perPage: 25, offset: 0, limit: 25 })
  })
})

describe("paginate: complete envelopes", () => {
  it("middle page", () => {
    const result = paginate(`${base}?per_page=2&page=2`, req(2, 2), 5, ["c", "d"])
    const u = (p: number) => `${base}?per_page=2&page=${p}`
    expect(result).toEqual({
      data: ["c", "d"],
      links: { first: u(1), last: u(3), prev: u(1), next: u(3) },
      meta: {
        current_page: 2,
        from: 3,
        last_page: 3,
        links: [
          { url: u(1), label: "&laquo; Previous", page: 1, active: false },
          { url: u(1), label: "1", page: 1, active: false },
          { url: u(2), label: "2", page: 2, active: true },
          { url: u(3), label: "3", page: 3, active: false },
          { url: u(3), label: "Next &raquo;", page: 3, active: false }
        ],
        path: base,
        per_page: 2,
        to: 4,
        total: 5
      }
    })
  })

  it("first page", () => {
    const result = paginate(`${base}?per_page=2`, req(1, 2), 5, ["a", "b"])
    const u = (p: number) => `${base}?per_page=2&page=${p}`
    expect(result).toEqual({
      data: ["a", "b"],
      links: { first: u(1), last: u(3), prev: null, next: u(2) },
      meta: {
        current_page: 1,
        from: 1,
        last_page: 3,
        links: [
          { url: null, label: "&laquo; Previous", page: null, active: false },
          { url: u(1), label: "1", page: 1, active: true },
          { url: u(2), label: "2", page: 2, active: false },
          { url: u(3), label: "3", page: 3, active: false },
          { url: u(2), label: "Next &raquo;", page: 2, active: false }
        ],
        path: base,
        per_page: 2,
        to: 2,
        total: 5
      }
    })
  })

  it("last (partial) page", () => {
    const result = paginate(`${base}?page=3&per_page=2`, req(3, 2), 5, ["e"])
    const u = (p: number) => `${base}?per_page=2&page=${p}`
    expect(result).toEqual({
      data: ["e"],
      links: { first: u(1), last: u(3), prev: u(2), next: null },
      meta: {
        current_page: 3,
        from: 5,
        last_page: 3,
        links: [
          { url: u(2), label: "&laquo; Previous", page: 2, active: false },
          { url: u(1), label: "1", page: 1, active: false },
          { url: u(2), label: "2", page: 2, active: false },
          { url: u(3), label: "3", page: 3, active: true },
          { url: null, label: "Next &raquo;", page: null, active: false }
        ],
        path: base,
        per_page: 2,
        to: 5,
        total: 5
      }
    })
  })

  it("empty result", () => {
    const result = paginate(base, req(1, 25), 0, [])
    expect(result).toEqual({
      data: [],
      links: { first: `${base}?page=1`, last: `${base}?page=1`, prev: null, next: null },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        links: [
          { url: null, label: "&laquo; Previous", page: null, active: false },
          { url: `${base}?page=1`, label: "1", page: 1, active: true },
          { url: null, label: "Next &raquo;", page: null, active: false }
        ],
        path: base,
        per_page: 25,
        to: null,
        total: 0
      }
    })
  })

  it("page past the end", () => {
    const result = paginate(`${base}?page=5&per_page=2`, req(5, 2), 3, [])
    const u = (p: number) => `${base}?per_page=2&page=${p}`
    expect(result).toEqual({
      data: [],
      links: { first: u(1), last: u(2), prev: u(4), next: null },
      meta: {
        current_page: 5,
        from: null,
        last_page: 2,
        links: [
          { url: u(4), label: "&laquo; Previous", page: 4, active: false },
          { url: u(1), label: "1", page: 1, active: false },
          { url: u(2), label: "2", page: 2, active: false },
          { url: null, label: "Next &raquo;", page: null, active: false }
        ],
        path: base,
        per_page: 2,
        to: null,
        total: 3
      }
    })
  })

  it("last_page rounds up and is exact on a full last page", () => {
    expect(paginate(base, req(1, 10), 30, []).meta.last_page).toBe(3)
    expect(paginate(base, req(1, 10), 31, []).meta.last_page).toBe(4)
    expect(paginate(base, req(1, 10), 1, []).meta.last_page).toBe(1)
  })
})

describe("paginate: key order", () => {
  const result = paginate(`${base}?page=2&per_page=1`, req(2, 1), 3, ["x"])

  it("envelope, links and meta keys", () => {
    expect(Object.keys(result)).toEqual(["data", "links", "meta"])
    expect(Object.keys(result.links)).toEqual(["first", "last", "prev", "next"])
    expect(Object.keys(result.meta)).toEqual([
      "current_page",
      "from",
      "last_page",
      "links",
      "path",
      "per_page",
      "to",
      "total"
    ])
    for (const link of result.meta.links) {
      expect(Object.keys(link)).toEqual(["url", "label", "page", "active"])
    }
  })

  it("is kept by the schema encoder and in JSON", () => {
    const schema = PaginatedSchema(Schema.String)
    const encoded = Schema.encodeSync(schema)(result)
    expect(encoded).toEqual(result)
    expect(Object.keys(encoded)).toEqual(["data", "links", "meta"])
    expect(Object.keys(encoded.links)).toEqual(["first", "last", "prev", "next"])
    expect(Object.keys(encoded.meta)).toEqual(Object.keys(result.meta))
    expect(Object.keys(encoded.meta.links[0]!)).toEqual(["url", "label", "page", "active"])
    expect(JSON.stringify(encoded)).toBe(JSON.stringify(result))
    expect(JSON.stringify(encoded).startsWith(`{"data":["x"],"links":{"first":`)).toBe(true)
  })

  it("schema rejects non-integer page numbers", () => {
    const schema = PaginatedSchema(Schema.String)
    const bad = { ...result, meta: { ...result.meta, current_page: 1.5 } }
    expect(() => Schema.decodeUnknownSync(schema)(bad)).toThrow()
  })
})

describe("paginate: meta.links windowing", () => {
  const labels = (current: number, lastPage: number): Array<string> =>
    paginate(base, req(current, 1), lastPage, [])
      .meta.links.slice(1, -1)
      .map((l) => l.label)
  const active = (current: number, lastPage: number): Array<string> =>
    paginate(base, req(current, 1), lastPage, [])
      .meta.links.filter((l) => l.active)
      .map((l) => l.label)

  it("lists every page when last_page <= 13", () => {
    expect(labels(1, 1)).toEqual(["1"])
    expect(labels(7, 13)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13"])
    expect(labels(13, 13)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13"])
  })

  it("last_page = 14 boundary", () => {
    expect(labels(1, 14)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "...", "13", "14"])
    expect(labels(7, 14)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "...", "13", "14"])
    // 8 > 14 - 7: tail window
    expect(labels(8, 14)).toEqual(["1", "2", "...", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"])
  })

  it("head window when current <= 7", () => {
    expect(labels(1, 20)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "...", "19", "20"])
    expect(labels(7, 20)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "...", "19", "20"])
  })

  it("middle window", () => {
    expect(labels(8, 20)).toEqual(["1", "2", "...", "5", "6", "7", "8", "9", "10", "11", "...", "19", "20"])
    expect(labels(10, 20)).toEqual(["1", "2", "...", "7", "8", "9", "10", "11", "12", "13", "...", "19", "20"])
    expect(labels(13, 20)).toEqual(["1", "2", "...", "10", "11", "12", "13", "14", "15", "16", "...", "19", "20"])
  })

  it("tail window when current > last - 7", () => {
    const tail = ["1", "2", "...", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20"]
    expect(labels(14, 20)).toEqual(tail)
    expect(labels(20, 20)).toEqual(tail)
    expect(labels(50, 20)).toEqual(tail)
  })

  it("marks only the current page active; none past the end", () => {
    expect(active(10, 20)).toEqual(["10"])
    expect(active(1, 14)).toEqual(["1"])
    expect(active(50, 20)).toEqual([])
  })

  it("ellipsis rows and page rows have the exact shape", () => {
    const links = paginate(base, req(10, 1), 20, []).meta.links
    expect(links[3]).toEqual({ url: null, label: "...", page: null, active: false })
    expect(links[4]).toEqual({ url: `${base}?page=7`, label: "7", page: 7, active: false })
    expect(links[0]).toEqual({ url: `${base}?page=9`, label: "&laquo; Previous", page: 9, active: false })
    expect(links[links.length - 1]).toEqual({ url: `${base}?page=11`, label: "Next &raquo;", page: 11, active: false })
  })
})

describe("paginate: URLs", () => {
  const nextOf = (url: URL | string) => paginate(url, req(2, 2), 100, ["x"]).links.next

  it("appends page last, keeping other params in order", () => {
    expect(nextOf(`${base}?foo=bar&per_page=2&page=2`)).toBe(`${base}?foo=bar&per_page=2&page=3`)
    expect(nextOf(`${base}?page=2&foo=bar&per_page=2`)).toBe(`${base}?foo=bar&per_page=2&page=3`)
    expect(nextOf(`${base}?foo=bar&page=2&per_page=2`)).toBe(`${base}?foo=bar&per_page=2&page=3`)
  })

  it("drops every page param, even repeated", () => {
    expect(nextOf(`${base}?page=1&foo=bar&page=2`)).toBe(`${base}?foo=bar&page=3`)
  })

  it("only page, or no query at all", () => {
    expect(nextOf(`${base}?page=2`)).toBe(`${base}?page=3`)
    expect(nextOf(base)).toBe(`${base}?page=3`)
  })

  it("keeps repeated bracketed params readable and in order", () => {
    expect(nextOf(`${base}?platforms[]=a&page=2&platforms[]=b&per_page=2`)).toBe(
      `${base}?platforms[]=a&platforms[]=b&per_page=2&page=3`
    )
    expect(nextOf(`${base}?platforms%5B%5D=a&platforms%5b%5d=b`)).toBe(`${base}?platforms[]=a&platforms[]=b&page=3`)
  })

  it("re-encodes names and values", () => {
    expect(nextOf(`${base}?q=a%20b&amp=%26%3D&plus=a+b&e=%C3%A9`)).toBe(
      `${base}?q=a%20b&amp=%26%3D&plus=a%20b&e=%C3%A9&page=3`
    )
    expect(nextOf(`${base}?flag&x=`)).toBe(`${base}?flag=&x=&page=3`)
  })

  it("uses the request's scheme, host and port; drops the fragment", () => {
    expect(nextOf("https://api.example.com:8443/v1/tags?x=1#frag")).toBe("https://api.example.com:8443/v1/tags?x=1&page=3")
  })

  it("accepts a URL object", () => {
    expect(nextOf(new URL(`${base}?x=1`))).toBe(`${base}?x=1&page=3`)
    expect(paginate(new URL(`${base}?x=1`), req(1, 2), 1, ["x"]).links.first).toBe(`${base}?x=1&page=1`)
  })

  it("meta.path has no query and no trailing slash; links use it", () => {
    const result = paginate(`${base}/?per_page=2&page=2`, req(2, 2), 5, ["c"])
    expect(result.meta.path).toBe(base)
    expect(result.links.first).toBe(`${base}?per_page=2&page=1`)
    expect(paginate("http://localhost:3000/?page=1", req(1, 25), 0, []).meta.path).toBe("http://localhost:3000")
  })
})
