import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * `GET /responses?q=`: the responses whose text contains every word of `q`, in any case, on both
 * stores alike; the page and cursor envelopes as without it; a bad `q` a 422.
 */
describe.each(backends)("GET /responses?q= (%s)", (backend) => {
  let server: TestServer
  let key: string
  let project: number
  let other: number
  const ids: Record<string, number> = {}
  const get = (query: string, projectId = project) => server.request("GET", `/api/v1/responses?${query}`, { key, project: projectId })
  const idsOf = async (query: string) => {
    const reply = await get(query)
    expect(reply.status, reply.text).toBe(200)
    return reply.body.data.map((row: { id: number }) => row.id)
  }

  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization("Search Org")
    key = (await server.createKey(organization.id, ["*"])).key
    const made = async (name: string) => (await server.request("POST", "/api/v1/projects", { key, body: { name } })).body.data.id
    project = await made("Search")
    other = await made("Other")
    for (const projectId of [project, other]) {
      const monitor = (await server.request("POST", "/api/v1/monitors", {
        key,
        project: projectId,
        body: { name: "US", country: "US", platforms: ["chatgpt", "perplexity"], schedule: "daily", active: true, simulated: true }
      })).body.data.id
      const prompt = (await server.request("POST", "/api/v1/prompts", { key, project: projectId, body: { monitor_id: monitor, text: "Best CRM?", tags: [] } }))
        .body.data.id
      const answers: ReadonlyArray<[string, string, string]> = projectId === project
        ? [
          ["crm", "chatgpt", "HubSpot CRM is the easiest start for a small agency."],
          ["pricing", "perplexity", "Pipedrive's pricing is the fairest; HubSpot's grows fast."],
          ["percent", "chatgpt", "A 100% free plan: Zoho_CRM, not HubSpot."],
          ["turkish", "perplexity", "İSTANBUL agencies like Zoho."],
          ["greek", "chatgpt", "ΟΔΟΣ reviews"]
        ]
        : [["foreign", "chatgpt", "HubSpot CRM in another project."]]
      for (const [name, platform, text] of answers) {
        const reply = await server.request("POST", "/api/v1/responses", { key, project: projectId, body: { prompt_id: prompt, platform, text } })
        expect(reply.status, reply.text).toBe(201)
        ids[name] = reply.body.data.id
      }
    }
  })
  afterAll(() => server.close())

  it("keeps the responses whose text holds every word, in any case", async () => {
    expect(await idsOf("q=hubspot")).toEqual([ids.crm, ids.pricing, ids.percent])
    expect(await idsOf("q=HUBSPOT%20crm")).toEqual([ids.crm, ids.percent])
    expect(await idsOf(`q=${encodeURIComponent("  crm   small  ")}`)).toEqual([ids.crm])
    // A word is found inside longer words: "price" is not in "pricing", "pric" is.
    expect(await idsOf("q=price")).toEqual([])
    expect(await idsOf("q=pric")).toEqual([ids.pricing])
    expect(await idsOf("q=salesforce")).toEqual([])
  })

  it("reads % and _ as text, and lower-cases each character as PostgreSQL does", async () => {
    expect(await idsOf(`q=${encodeURIComponent("100%")}`)).toEqual([ids.percent])
    expect(await idsOf(`q=${encodeURIComponent("zoho_crm")}`)).toEqual([ids.percent])
    expect(await idsOf(`q=${encodeURIComponent("%")}`)).toEqual([ids.percent])
    expect(await idsOf(`q=${encodeURIComponent("istanbul")}`)).toEqual([ids.turkish])
    expect(await idsOf(`q=${encodeURIComponent("οδοσ")}`)).toEqual([ids.greek])
  })

  it("combines with the other filters and stays in the project", async () => {
    expect(await idsOf("q=hubspot&platform=chatgpt")).toEqual([ids.crm, ids.percent])
    expect(await idsOf("q=hubspot&sort_by=id&sort_order=desc")).toEqual([ids.percent, ids.pricing, ids.crm])
    const foreign = await get("q=another", other)
    expect(foreign.body.data.map((row: { id: number }) => row.id)).toEqual([ids.foreign])
    expect(await idsOf("q=another")).toEqual([])
  })

  it("answers the same page envelope, its total the matches, and reads by cursor", async () => {
    const page = await get("q=hubspot&per_page=2")
    expect(page.body.meta).toMatchObject({ current_page: 1, last_page: 2, per_page: 2, total: 3 })
    expect(page.body.links.next).toContain("q=hubspot")
    const first = await get("q=hubspot&per_page=2&cursor=")
    expect(first.status, first.text).toBe(200)
    expect(first.body.data.map((row: { id: number }) => row.id)).toEqual([ids.crm, ids.pricing])
    const cursor = first.body.meta.next_cursor
    expect(typeof cursor).toBe("string")
    const second = await get(`q=hubspot&per_page=2&cursor=${encodeURIComponent(cursor)}`)
    expect(second.body.data.map((row: { id: number }) => row.id)).toEqual([ids.percent])
    expect(second.body.meta.next_cursor).toBeNull()
    // A cursor belongs to its search.
    const elsewhere = await get(`q=crm&per_page=2&cursor=${encodeURIComponent(cursor)}`)
    expect(elsewhere.status).toBe(422)
    expect(elsewhere.body.errors.cursor).toBeDefined()
  })

  it("exports the matches only (format=ndjson)", async () => {
    const reply = await get("q=hubspot&format=ndjson")
    expect(reply.status, reply.text).toBe(200)
    const rows = reply.text.trim().split("\n").map((line) => JSON.parse(line))
    expect(rows.map((row: { id: number }) => row.id)).toEqual([ids.crm, ids.pricing, ids.percent])
  })

  it("refuses an empty, blank or too long q, or several: 422 on q", async () => {
    for (const query of ["q=", `q=${encodeURIComponent("   ")}`, `q=${"a".repeat(201)}`, "q=a&q=b"]) {
      const reply = await get(query)
      expect(reply.status, query).toBe(422)
      expect(Object.keys(reply.body.errors), query).toEqual(["q"])
    }
    expect((await get(`q=${"a".repeat(200)}`)).status).toBe(200)
  })
})
