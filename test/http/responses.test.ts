import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/** Ingestion (POST /responses, analysed before it answers) and the read endpoints over its results. */
describe.each(backends)("responses, sources, citations, brand mentions (%s)", (backend) => {
  let server: TestServer
  let key: string
  let project: number
  let otherProject: number
  let monitor: number
  let prompt: number
  let acme: number
  let globex: number
  let ignored: number
  const api = (method: string, path: string, body?: unknown, projectId: number = project) =>
    server.request(method, path, { key, project: projectId, body })

  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization("Acme Org")
    key = (await server.createKey(organization.id, ["*"])).key
    project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Acme" } })).body.data.id
    otherProject = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Other" } })).body.data.id
    monitor = (await api("POST", "/api/v1/monitors", { name: "US", country: "US", platforms: ["chatgpt", "perplexity"] })).body.data.id
    prompt = (await api("POST", "/api/v1/prompts", { monitor_id: monitor, text: "Best CRM?" })).body.data.id
    acme = (await api("POST", "/api/v1/brands", { name: "Acme", aliases: ["Acme Cloud"], domains: ["acme.com"] })).body.data.id
    globex = (await api("POST", "/api/v1/brands", { name: "Globex", domains: ["globex.io"] })).body.data.id
    ignored = (await api("POST", "/api/v1/brands", { name: "Initech", classification: "ignored" })).body.data.id
  })
  afterAll(() => server.close())

  it("ingests a response: analysed before the answer, citations in the given order, sources and URLs normalized", async () => {
    const reply = await api("POST", "/api/v1/responses", {
      prompt_id: prompt,
      platform: "perplexity",
      text: "Globex is fine. But Acme is excellent and loved by teams! Initech too.",
      citations: ["https://WWW.Acme.com/pricing?utm_source=x&plan=pro#top", "https://globex.io", "https://www.acme.com/pricing?plan=pro"],
      collected_at: "2026-11-01T10:00:00Z"
    })
    expect(reply.status, reply.text).toBe(201)
    expect(Object.keys(reply.body.data)).toEqual([
      "id", "monitor_id", "prompt_id", "platform", "country", "text", "status", "collected_at", "analyzed_at", "created_at", "updated_at"
    ])
    expect(reply.body.data).toMatchObject({
      monitor_id: monitor,
      prompt_id: prompt,
      platform: "perplexity",
      country: "US",
      status: "analyzed",
      collected_at: "2026-11-01T10:00:00.000Z"
    })
    expect(reply.body.data.analyzed_at).toMatch(/Z$/)
    const response = reply.body.data.id

    const citations = (await api("GET", `/api/v1/citations?response_id=${response}`)).body.data
    expect(citations.map((c: any) => [c.position, c.url])).toEqual([
      [1, "https://WWW.Acme.com/pricing?utm_source=x&plan=pro#top"],
      [2, "https://globex.io"],
      [3, "https://www.acme.com/pricing?plan=pro"]
    ])
    const sources = (await api("GET", "/api/v1/sources")).body.data
    expect(sources.map((s: any) => s.domain)).toEqual(["acme.com", "globex.io"])
    expect(citations[0].source_id).toBe(citations[2].source_id)
    const urls = (await api("GET", "/api/v1/source-urls")).body.data
    // The new URLs of one answer are made in URL order (so concurrent answers never deadlock).
    expect(urls.map((u: any) => u.url)).toEqual(["https://globex.io/", "https://www.acme.com/pricing?plan=pro"])
    expect(citations[0].source_url_id).toBe(citations[2].source_url_id)
    const source = await api("GET", `/api/v1/sources/${sources[0].id}`)
    expect(source.body).toEqual({ data: sources[0] })
    const byDomain = await api("GET", `/api/v1/source-urls?source_id=${sources[1].id}`)
    expect(byDomain.body.data.map((u: any) => u.url)).toEqual(["https://globex.io/"])

    const mentions = (await api("GET", `/api/v1/brand-mentions?response_id=${response}&sort_by=position&sort_order=asc`)).body.data
    expect(mentions.map((m: any) => [m.brand_id, m.position])).toEqual([[globex, 1], [acme, 2]])
    const acmeMention = mentions.find((m: any) => m.brand_id === acme)
    expect(acmeMention.sentiment_score).toBeGreaterThan(50)
    expect(mentions.every((m: any) => m.brand_id !== ignored)).toBe(true)
    expect(Object.keys(mentions[0])).toEqual(["id", "response_id", "brand_id", "position", "sentiment_score", "created_at", "updated_at"])
  })

  it("takes citations from the text when none are given, and detects brands by domain", async () => {
    const reply = await api("POST", "/api/v1/responses", {
      prompt_id: prompt,
      platform: "chatgpt",
      text: "See [the guide](https://acme.com/guide) and https://example.org/a, then https://example.org/a.",
      country: "de"
    })
    expect(reply.status, reply.text).toBe(201)
    expect(reply.body.data.country).toBe("DE")
    const citations = (await api("GET", `/api/v1/citations?response_id=${reply.body.data.id}`)).body.data
    expect(citations.map((c: any) => c.url)).toEqual(["https://acme.com/guide", "https://example.org/a", "https://example.org/a"])
    const mentions = (await api("GET", `/api/v1/brand-mentions?response_id=${reply.body.data.id}`)).body.data
    expect(mentions.map((m: any) => m.brand_id)).toEqual([acme])
  })

  it("refuses bad input with 422 naming the field, and stores nothing", async () => {
    const before = (await api("GET", "/api/v1/responses")).body.meta.total
    const foreignPrompt = await (async () => {
      const m = (await api("POST", "/api/v1/monitors", { name: "M", country: "US", platforms: ["gemini"] }, otherProject)).body.data.id
      return (await api("POST", "/api/v1/prompts", { monitor_id: m, text: "Q" }, otherProject)).body.data.id
    })()
    const cases: ReadonlyArray<readonly [unknown, ReadonlyArray<string>]> = [
      [{ platform: "chatgpt", text: "x" }, ["prompt_id"]],
      [{ prompt_id: foreignPrompt, platform: "chatgpt", text: "x" }, ["prompt_id"]],
      [{ prompt_id: prompt, platform: "gemini", text: "x" }, ["platform"]],
      [{ prompt_id: prompt, platform: "bing", text: "x" }, ["platform"]],
      [{ prompt_id: prompt, platform: "chatgpt", text: "" }, ["text"]],
      [{ prompt_id: prompt, platform: "chatgpt", text: "x", citations: ["ftp://a.b/c", "https://ok.example/"] }, ["citations.0"]],
      [{ prompt_id: prompt, platform: "chatgpt", text: "x", citations: "https://a.b" }, ["citations"]],
      [{ prompt_id: prompt, platform: "chatgpt", text: "x", collected_at: "yesterday" }, ["collected_at"]],
      [{ prompt_id: prompt, platform: "chatgpt", text: "x", collected_at: "2999-01-01T00:00:00Z" }, ["collected_at"]],
      [{ prompt_id: prompt, platform: "chatgpt", text: "x", country: "XX" }, ["country"]]
    ]
    for (const [body, fields] of cases) {
      const reply = await api("POST", "/api/v1/responses", body)
      expect(reply.status, JSON.stringify(body)).toBe(422)
      expect(reply.body.message).toBe("The given data was invalid.")
      expect(Object.keys(reply.body.errors).sort(), JSON.stringify(body)).toEqual([...fields].sort())
    }
    expect((await api("GET", "/api/v1/responses")).body.meta.total).toBe(before)
  })

  it("filters responses and checks the filters", async () => {
    const all = (await api("GET", "/api/v1/responses")).body
    expect(all.meta.total).toBeGreaterThanOrEqual(2)
    const perplexity = (await api("GET", "/api/v1/responses?platform=perplexity")).body.data
    expect(perplexity.every((r: any) => r.platform === "perplexity")).toBe(true)
    const november = (await api("GET", "/api/v1/responses?start_date=2026-11-01&end_date=2026-11-01")).body.data
    expect(november.map((r: any) => r.collected_at)).toEqual(["2026-11-01T10:00:00.000Z"])
    expect((await api("GET", `/api/v1/responses?monitor_id=${monitor}&prompt_id=${prompt}&status=analyzed`)).body.meta.total).toBe(all.meta.total)
    for (const query of ["platform=bing", "status=done", "start_date=2026-02-30", "start_date=2026-11-02&end_date=2026-11-01", "monitor_id=999999"]) {
      expect((await api("GET", `/api/v1/responses?${query}`)).status, query).toBe(422)
    }
    const one = await api("GET", `/api/v1/responses/${all.data[0].id}`)
    expect(one.body).toEqual({ data: all.data[0] })
    expect((await api("GET", `/api/v1/responses/${all.data[0].id}`, undefined, otherProject)).body).toEqual({ message: "Response not found" })
    expect((await api("GET", "/api/v1/responses", undefined, otherProject)).body.meta.total).toBe(0)
    expect((await api("GET", "/api/v1/sources/999999")).body).toEqual({ message: "Source not found" })
  })

  it("lists brand mentions newest first, sorts on every allowed column, and nests includes", async () => {
    const newest = (await api("GET", "/api/v1/brand-mentions")).body.data
    const ids = newest.map((m: any) => m.id)
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a))
    for (const column of ["created_at", "updated_at", "position", "sentiment_score", "id"]) {
      for (const order of ["asc", "desc"]) {
        const rows = (await api("GET", `/api/v1/brand-mentions?sort_by=${column}&sort_order=${order}`)).body.data
        const keys = rows.map((m: any) => [m[column], m.id])
        const sorted = [...keys].sort((a: any, b: any) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]) * (order === "asc" ? 1 : -1))
        expect(keys, `${column} ${order}`).toEqual(sorted)
      }
    }
    expect((await api("GET", `/api/v1/brand-mentions?brand_id=${globex}`)).body.data.every((m: any) => m.brand_id === globex)).toBe(true)

    const included = (await api("GET", "/api/v1/brand-mentions?include=response.prompt,brand.project.organization,response.monitor")).body.data[0]
    expect(included.response.id).toBe(included.response_id)
    expect(included.response.prompt).toMatchObject({ id: prompt, text: "Best CRM?", tags: [] })
    expect(included.response.monitor.id).toBe(monitor)
    expect(included.response.project).toBeUndefined()
    expect(included.brand.id).toBe(included.brand_id)
    expect(included.brand.project).toMatchObject({ id: project, name: "Acme" })
    expect(included.brand.project.organization).toMatchObject({ name: "Acme Org" })
    const plain = (await api("GET", "/api/v1/brand-mentions?include=response.project")).body.data[0]
    expect(plain.response.project.id).toBe(project)
    expect(plain.brand).toBeUndefined()

    for (const query of ["include=response,brands", "sort_by=brand_id", "sort_order=up", "brand_id=999999", "response_id=abc"]) {
      const reply = await api("GET", `/api/v1/brand-mentions?${query}`)
      expect(reply.status, query).toBe(422)
    }
    const unknown = await api("GET", "/api/v1/brand-mentions?include=brands")
    expect(Object.keys(unknown.body.errors)).toEqual(["include"])
  })
})
