import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseCsv } from "../support/Csv.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Exports of the keyset lists (docs/api.md, "Exports"): `format=csv|ndjson` (or `Accept`) answers every
 * row of the list's query, in its order, as the JSON pages hold them, concatenated; CSV as RFC 4180 with
 * formulas neutralised. Checked with a CSV reader written from the RFC (test/support/Csv.ts), not the service's writer.
 */

/** Every row of a list, by following its cursor pages (the JSON answer). */
const allPages = async (server: TestServer, key: string, project: number, path: string) => {
  const rows: Array<Record<string, unknown>> = []
  let url: string | null = `${path}${path.includes("?") ? "&" : "?"}per_page=7&cursor=`
  while (url !== null) {
    const reply = await server.request("GET", url.replace(server.baseUrl, ""), { key, project })
    expect(reply.status, reply.text).toBe(200)
    rows.push(...reply.body.data)
    url = reply.body.links.next
  }
  return rows
}

/** A value as a CSV cell of this service: null empty, arrays joined with `|`, formulas prefixed with `'`. */
const cell = (value: unknown): string => {
  if (value === null || value === undefined) return ""
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  const text = Array.isArray(value) ? value.join("|") : String(value)
  return /^[ ]*[=+\-@\t\r\n]/.test(text) ? `'${text}` : text
}

describe.each(backends)("exports (%s)", (backend) => {
  let server: TestServer
  let key: string
  let project: number
  const tricky = [
    "Plain answer about Acme.",
    "Commas, \"quotes\" and\nnew lines\r\nin one answer",
    "=HYPERLINK(\"http://evil.example\",\"click\")",
    "+1 then -2 and @mention",
    "-3.5",
    "Ünïcödé: 日本語 and emoji 🚀"
  ]
  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization()
    key = (await server.createKey(organization.id, ["*"])).key
    project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Exports" } })).body.data.id
    const monitor = (await server.request("POST", "/api/v1/monitors", { key, project, body: { name: "M", country: "US", platforms: ["chatgpt", "claude"] } })).body.data.id
    await server.request("POST", "/api/v1/brands", { key, project, body: { name: "Acme", aliases: ["ACME Corp"] } })
    await server.request("POST", "/api/v1/brands", { key, project, body: { name: "Globex" } })
    const prompt = (await server.request("POST", "/api/v1/prompts", { key, project, body: { monitor_id: monitor, text: "Best CRM?" } })).body.data.id
    // 11 answers of 100 citations each: 1,100 citations, more than one chunk of an export.
    for (let i = 0; i < 11; i++) {
      const reply = await server.request("POST", "/api/v1/responses", {
        key,
        project,
        body: {
          prompt_id: prompt,
          platform: i % 2 === 0 ? "chatgpt" : "claude",
          text: `${tricky[i % tricky.length]} ${i % 3 === 0 ? "Globex and Acme" : "Acme"}`,
          citations: Array.from({ length: 100 }, (_, n) => `https://site${n % 7}.example/page-${i}-${n}?a=1,2`),
          collected_at: new Date(Date.UTC(2026, 10, 1 + (i * 5) % 11, 12)).toISOString(),
          search_queries: ["crm, best", "=cmd"]
        }
      })
      expect(reply.status, reply.text).toBe(201)
    }
  }, 120_000)
  afterAll(() => server.close())

  const download = (path: string, headers: Record<string, string> = {}) => server.request("GET", path, { key, project, headers })

  for (const query of ["", "?platform=claude", "?sort_by=collected_at&sort_order=desc"]) {
    it(`answers /responses${query} as NDJSON and CSV with the rows of its JSON pages`, async () => {
      const pages = await allPages(server, key, project, `/api/v1/responses${query}`)
      expect(pages.length).toBeGreaterThan(0)
      const joiner = query === "" ? "?" : "&"

      const ndjson = await download(`/api/v1/responses${query}${joiner}format=ndjson&page=2&per_page=1`)
      expect(ndjson.status).toBe(200)
      expect(ndjson.headers.get("content-type")).toBe("application/x-ndjson")
      expect(ndjson.headers.get("content-disposition")).toMatch(/^attachment; filename="responses-\d{4}-\d{2}-\d{2}\.ndjson"$/)
      expect(ndjson.text.endsWith("\n")).toBe(true)
      expect(ndjson.text.trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual(pages)

      const csv = await download(`/api/v1/responses${query}`, { accept: "text/csv" })
      expect(csv.status).toBe(200)
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8")
      expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="responses-\d{4}-\d{2}-\d{2}\.csv"$/)
      const [header, ...records] = parseCsv(csv.text)
      expect(header).toContain("id")
      expect(header).toContain("text")
      expect(records).toHaveLength(pages.length)
      records.forEach((record, index) => {
        const row = pages[index]!
        for (const [column, name] of header!.entries()) expect(record[column], `${index} ${name}`).toBe(cell(row[name]))
      })
    })
  }

  it("neutralises formulas and keeps quotes, commas, new lines and non-ASCII text", async () => {
    const csv = await download("/api/v1/responses?format=csv")
    const [header, ...records] = parseCsv(csv.text)
    const texts = records.map((record) => record[header!.indexOf("text")])
    expect(texts).toContain("'=HYPERLINK(\"http://evil.example\",\"click\") Acme")
    expect(texts).toContain("'+1 then -2 and @mention Globex and Acme")
    expect(texts).toContain("'-3.5 Acme")
    expect(texts).toContain("Commas, \"quotes\" and\nnew lines\r\nin one answer Acme")
    expect(texts).toContain("Ünïcödé: 日本語 and emoji 🚀 Acme")
    expect(records.map((record) => record[header!.indexOf("search_queries")])).toContain("crm, best|=cmd")
  })

  it("answers /citations, more rows than one chunk, as its JSON pages concatenated", async () => {
    const pages = await allPages(server, key, project, "/api/v1/citations?platforms[]=chatgpt&platforms[]=claude")
    expect(pages).toHaveLength(1100)
    const ndjson = await download("/api/v1/citations?platforms[]=chatgpt&platforms[]=claude&format=ndjson")
    expect(ndjson.text.trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual(pages)
    const csv = await download("/api/v1/citations?platforms[]=chatgpt&platforms[]=claude", { accept: "text/csv;q=0.9, application/json;q=0.5" })
    const [header, ...records] = parseCsv(csv.text)
    expect(records).toHaveLength(1100)
    expect(records.map((record) => Number(record[header!.indexOf("id")]))).toEqual(pages.map((row) => row.id))
    expect(records[0]![header!.indexOf("url")]).toBe(pages[0]!.url)
  })

  it("answers /brand-mentions, with and without included relations, as its JSON pages concatenated", async () => {
    for (const query of ["?sort_by=position&sort_order=asc", "?include=brand,response.prompt"]) {
      const pages = await allPages(server, key, project, `/api/v1/brand-mentions${query}`)
      expect(pages.length).toBe(11 + 4)
      const ndjson = await download(`/api/v1/brand-mentions${query}&format=ndjson`)
      expect(ndjson.headers.get("content-disposition")).toMatch(/filename="brand-mentions-\d{4}-\d{2}-\d{2}\.ndjson"/)
      expect(ndjson.text.trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual(pages)
      const [header, ...records] = parseCsv((await download(`/api/v1/brand-mentions${query}&format=csv`)).text)
      expect(records.map((record) => Number(record[header!.indexOf("id")]))).toEqual(pages.map((row) => row.id))
      if (query.includes("include")) {
        expect(records.map((record) => record[header!.indexOf("brand.name")])).toEqual(pages.map((row: any) => row.brand.name))
        expect(header).toContain("response.prompt.text")
      } else {
        expect(header).not.toContain("brand.name")
      }
    }
  })

  it("writes the header of an empty export, answers JSON by default, and refuses an unknown format", async () => {
    const empty = await download("/api/v1/responses?format=csv&platform=gemini")
    expect(empty.status).toBe(200)
    expect(parseCsv(empty.text)).toHaveLength(1)
    expect((await download("/api/v1/responses?format=ndjson&platform=gemini")).text).toBe("")
    const json = await download("/api/v1/responses", { accept: "*/*" })
    expect(json.headers.get("content-type")).toContain("application/json")
    const refused = await download("/api/v1/responses?format=xml")
    expect(refused.status).toBe(422)
    expect(refused.body.errors.format).toEqual(["The selected format is invalid. Allowed: json, csv, ndjson."])
    // The filters are checked as for JSON.
    expect((await download("/api/v1/responses?format=csv&monitor_id=999999")).status).toBe(422)
  })
})
