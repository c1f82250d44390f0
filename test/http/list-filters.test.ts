import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * The analytics' window and filters on the lists of responses, citations and brand mentions
 * (docs/api.md, "Lists of responses, citations and mentions"): `start_date` and `end_date` on the
 * response's `collected_at` (optional, together), `platforms[]`, `countries[]`, `monitors[]` and
 * `tags[]` with the analytics' meaning and validation; each mention row carries its response's
 * `collected_at`.
 */

const today = () => new Date().toISOString().slice(0, 10)

describe.each(backends)("filters of the lists of responses, citations and mentions (%s)", (backend) => {
  let server: TestServer
  let key: string
  let project: number
  let otherProject: number
  let us: number
  let de: number
  let pricing: number
  let otherTag: number
  let acme: number
  /** Response ids by name: usChatgpt1 (11-01, tagged pricing), usClaude (11-02), deChatgpt (11-03, tagged pricing). */
  const ids: Record<string, number> = {}

  const get = (path: string, projectId: number = project) => server.request("GET", `/api/v1${path}`, { key, project: projectId })
  const ok = async (path: string) => {
    const reply = await get(path)
    expect(reply.status, `${path} ${reply.text}`).toBe(200)
    return reply.body
  }
  const post = async (path: string, body: unknown, projectId: number = project) => {
    const reply = await server.request("POST", `/api/v1${path}`, { key, project: projectId, body })
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data.id as number
  }
  const responseIds = async (query: string) => (await ok(`/responses?per_page=100&${query}`)).data.map((r: { id: number }) => r.id)
  const citationResponses = async (query: string) =>
    [...new Set((await ok(`/citations?per_page=100&${query}`)).data.map((c: { response_id: number }) => c.response_id))]
  const mentionResponses = async (query: string) =>
    [...new Set((await ok(`/brand-mentions?per_page=100&sort_by=id&sort_order=asc&${query}`)).data.map((m: { response_id: number }) => m.response_id))]

  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization("Filters")
    key = (await server.createKey(organization.id, ["*"])).key
    project = await post("/projects", { name: "Filtered" })
    otherProject = await post("/projects", { name: "Other" })
    us = await post("/monitors", { name: "US", country: "US", platforms: ["chatgpt", "claude"] })
    de = await post("/monitors", { name: "DE", country: "DE", platforms: ["chatgpt"] })
    pricing = await post("/tags", { name: "Pricing" })
    otherTag = await post("/tags", { name: "Other" }, otherProject)
    acme = await post("/brands", { name: "Acme" })
    // A second brand, named in one answer, so that a list of one brand's mentions is not all of them.
    await post("/brands", { name: "Globex" })
    const usPrompt = await post("/prompts", { monitor_id: us, text: "Best CRM?", tags: [pricing] })
    const usPlain = await post("/prompts", { monitor_id: us, text: "Cheapest CRM?" })
    const dePrompt = await post("/prompts", { monitor_id: de, text: "Bestes CRM?", tags: [pricing] })
    const answer = (prompt: number, platform: string, day: string) =>
      post("/responses", {
        prompt_id: prompt,
        platform,
        text: `Acme is the answer on ${day}.${day === "2026-11-02" ? " Globex is not." : ""} See https://acme.example/${day}`,
        collected_at: `${day}T10:00:00.000Z`
      })
    ids.usChatgpt1 = await answer(usPrompt, "chatgpt", "2026-11-01")
    ids.usClaude = await answer(usPlain, "claude", "2026-11-02")
    ids.deChatgpt = await answer(dePrompt, "chatgpt", "2026-11-03")
  })
  afterAll(() => server.close())

  const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
    ["", ["usChatgpt1", "usClaude", "deChatgpt"]],
    ["start_date=2026-11-02&end_date=2026-11-02", ["usClaude"]],
    ["start_date=2026-11-02&end_date=2026-11-03", ["usClaude", "deChatgpt"]],
    ["platforms[]=chatgpt", ["usChatgpt1", "deChatgpt"]],
    ["platforms=claude", ["usClaude"]],
    ["countries[]=de", ["deChatgpt"]],
    ["countries[]=US&countries[]=de", ["usChatgpt1", "usClaude", "deChatgpt"]],
    ["monitors[]=US_MONITOR", ["usChatgpt1", "usClaude"]],
    ["tags[]=PRICING", ["usChatgpt1", "deChatgpt"]],
    ["tags[]=PRICING&platforms[]=chatgpt&countries[]=US&start_date=2026-11-01&end_date=2026-11-03", ["usChatgpt1"]]
  ]
  const query = (template: string) => template.replace("US_MONITOR", String(us)).replace("PRICING", String(pricing))

  it.each(cases)("responses: %s", async (template, expected) => {
    expect(await responseIds(query(template))).toEqual(expected.map((name) => ids[name]))
  })

  it.each(cases)("citations: %s", async (template, expected) => {
    expect(await citationResponses(query(template))).toEqual(expected.map((name) => ids[name]))
  })

  it.each(cases)("brand mentions: %s", async (template, expected) => {
    expect(await mentionResponses(query(template))).toEqual(expected.map((name) => ids[name]))
  })

  // The total is counted apart from the page (Database/Rows.ts), for mentions without their responses
  // when no filter is on a response: it must still count exactly the rows the list holds.
  it.each(cases)("every list's meta.total counts what it lists, on a page and past its end: %s", async (template) => {
    for (const path of ["/responses", "/citations", `/brand-mentions`, `/brand-mentions?brand_id=BRAND`]) {
      const url = (extra: string) => `${path.replace("BRAND", String(acme))}${path.includes("?") ? "&" : "?"}${extra}&${query(template)}`
      const all = await ok(url("per_page=100"))
      const first = await ok(url("per_page=1"))
      const beyond = await ok(url("per_page=1&page=99"))
      expect(first.meta.total, url("")).toBe(all.data.length)
      expect(beyond.meta.total, url("")).toBe(all.data.length)
      expect(beyond.data).toEqual([])
    }
  })

  // A page may be chosen by its rows' keys first, then read (Database/Rows.ts): one row a page, the pages
  // must still give the whole list, in its order, whatever the order and the filters.
  it("gives, a row a page, the list it gives whole: every order of mentions, with and without filters", async () => {
    const lists = [
      "/responses?",
      `/responses?tags[]=${pricing}`,
      "/citations?",
      `/citations?platforms[]=chatgpt`,
      ...["created_at", "updated_at", "collected_at", "position", "sentiment_score", "id"].flatMap((by) =>
        ["asc", "desc"].flatMap((direction) => [
          `/brand-mentions?sort_by=${by}&sort_order=${direction}`,
          `/brand-mentions?sort_by=${by}&sort_order=${direction}&brand_id=${acme}`,
          `/brand-mentions?sort_by=${by}&sort_order=${direction}&start_date=2026-11-02&end_date=2026-11-03`
        ])
      )
    ]
    for (const list of lists) {
      const whole = (await ok(`${list}&per_page=100`)).data
      const pages = []
      for (let page = 1; page <= whole.length; page++) pages.push(...(await ok(`${list}&per_page=1&page=${page}`)).data)
      expect(pages, list).toEqual(whole)
    }
  })

  it("gives each mention its response's collected_at, and sorts by it", async () => {
    const mentions = (await ok(`/brand-mentions?brand_id=${acme}&sort_by=collected_at&sort_order=desc`)).data
    expect(mentions.map((m: { collected_at: string }) => m.collected_at)).toEqual([
      "2026-11-03T10:00:00.000Z",
      "2026-11-02T10:00:00.000Z",
      "2026-11-01T10:00:00.000Z"
    ])
    expect(Object.keys(mentions[0])).toEqual(["id", "response_id", "brand_id", "position", "sentiment_score", "collected_at", "created_at", "updated_at"])
  })

  it("keeps the other filters of each list alongside", async () => {
    expect(await responseIds(`platform=chatgpt&countries[]=US`)).toEqual([ids.usChatgpt1])
    expect(await citationResponses(`response_id=${ids.usClaude}&platforms[]=chatgpt`)).toEqual([])
    expect(await mentionResponses(`brand_id=${acme}&tags[]=${pricing}`)).toEqual([ids.usChatgpt1, ids.deChatgpt])
  })

  it.each(["/responses", "/citations", "/brand-mentions"])("%s: a 422 names every bad filter, as the analytics do", async (path) => {
    const bad = await get(`${path}?start_date=2026-11-02&end_date=2026-11-01&platforms[]=bing&countries=XX&monitors[]=0&tags[]=${otherTag}`)
    expect(bad.status).toBe(422)
    expect(bad.body).toEqual({
      message: "The given data was invalid.",
      errors: {
        end_date: ["The end date field must be a date after or equal to start date."],
        "platforms.0": ["The selected platforms.0 is invalid. Allowed: chatgpt, perplexity, gemini, grok, copilot, claude, google_ai_mode, google_ai_overview."],
        "countries.0": ["The countries.0 field must be an ISO 3166-1 alpha-2 country code."],
        "monitors.0": ["The monitors.0 field must be at least 1."],
        "tags.0": ["The selected tags.0 is invalid."]
      }
    })
    const alone = await get(`${path}?start_date=2026-11-01`)
    expect(alone.status).toBe(422)
    expect(alone.body.errors).toEqual({ end_date: ["The end date field is required when start date is present."] })
    const other = await get(`${path}?end_date=2026-11-01`)
    expect(other.body.errors).toEqual({ start_date: ["The start date field is required when end date is present."] })
    const future = await get(`${path}?start_date=${today()}&end_date=2999-01-01`)
    expect(future.body.errors).toEqual({ end_date: ["The end date field must be a date before or equal to today."] })
    const notADate = await get(`${path}?start_date=2026-02-30&end_date=2026-03-01`)
    expect(notADate.body.errors).toEqual({ start_date: ["The start date field must be a valid date in the format YYYY-MM-DD."] })
  })

  it("checks the project header before the filters", async () => {
    const reply = await server.request("GET", "/api/v1/responses?platforms[]=bing", { key })
    expect(reply.status).toBe(400)
  })
})
