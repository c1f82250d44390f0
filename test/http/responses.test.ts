import type { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Platform } from "../../src/Domain/Platform.ts"
import { type ApiClient, inProject } from "../support/ApiClient.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Ingestion (POST /responses, analysed before it answers) and the read endpoints over its results.
 * Setup and the reads whose values are asserted go through the API's typed client: each answer is
 * decoded with its endpoint's schema (dates as `Date`s), under its declared status. Raw requests stay
 * for the wire: the 201 of an ingestion with its key order and date format, an answer's key order,
 * `{"data": ...}` and nothing else, 404 and 422 bodies, and input the typed client cannot send (a
 * lower-case country, a date-time without milliseconds, bad values).
 */

/** A decoded value as JSON carries it (dates as ISO strings), to compare with a raw reply's body. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value))

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
  const raw = (method: string, path: string, body?: unknown, projectId: number = project) =>
    server.request(method, path, { key, project: projectId, body })
  /** Calls of the typed client with the suite's key. */
  const client = <A, E>(use: (api: ApiClient) => Effect.Effect<A, E>) => server.client(key)(use)

  /** A monitor on `platforms` and a prompt under it, in `projectId`: their ids. */
  const newPrompt = async (projectId: number, name: string, platforms: ReadonlyArray<Platform>, text: string) => {
    const headers = inProject(projectId)
    const monitorId = (await client((api) =>
      api.monitors.create({ headers, payload: { name, country: "US", platforms, schedule: "daily", active: true, simulated: false } })
    )).data.id
    const promptId = (await client((api) => api.prompts.create({ headers, payload: { monitor_id: monitorId, text, tags: [] } }))).data.id
    return { monitorId, promptId }
  }
  const newBrand = async (fields: { name: string; aliases?: ReadonlyArray<string>; domains?: ReadonlyArray<string>; classification?: "ignored" }) =>
    (await client((api) =>
      api.brands.create({
        headers: inProject(project),
        payload: { aliases: [], domains: [], classification: "competitor", segment_ids: [], ...fields }
      })
    )).data.id
  /** The total of a list read by page number (the typed client's answer is either envelope). */
  const totalOf = (list: { readonly meta: { readonly total: number } | { readonly next_cursor: string | null } }) => {
    if (!("total" in list.meta)) throw new Error("a list read by page number answered without its total")
    return list.meta.total
  }
  const responseCount = async (projectId: number = project) =>
    totalOf(await client((api) => api.responses.list({ headers: inProject(projectId), urlParams: {} })))
  const citationsOf = async (response: number) =>
    (await client((api) => api.responses.citations({ headers: inProject(project), urlParams: { response_id: response } }))).data
  const mentionsOf = async (urlParams: Parameters<ApiClient["brandMentions"]["list"]>[0]["urlParams"]) =>
    (await client((api) => api.brandMentions.list({ headers: inProject(project), urlParams }))).data

  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization("Acme Org")
    key = (await server.createKey(organization.id, ["*"])).key
    project = (await client((api) => api.projects.create({ payload: { name: "Acme" } }))).data.id
    otherProject = (await client((api) => api.projects.create({ payload: { name: "Other" } }))).data.id
    const asked = await newPrompt(project, "US", ["chatgpt", "perplexity"], "Best CRM?")
    monitor = asked.monitorId
    prompt = asked.promptId
    acme = await newBrand({ name: "Acme", aliases: ["Acme Cloud"], domains: ["acme.com"] })
    globex = await newBrand({ name: "Globex", domains: ["globex.io"] })
    ignored = await newBrand({ name: "Initech", classification: "ignored" })
  })
  afterAll(() => server.close())

  it("ingests a response: analysed before the answer, citations in the given order, sources and URLs normalized", async () => {
    const reply = await raw("POST", "/api/v1/responses", {
      prompt_id: prompt,
      platform: "perplexity",
      text: "Globex is fine. But Acme is excellent and loved by teams! Initech too.",
      citations: ["https://WWW.Acme.com/pricing?utm_source=x&plan=pro#top", "https://globex.io", "https://www.acme.com/pricing?plan=pro"],
      collected_at: "2026-11-01T10:00:00Z"
    })
    expect(reply.status, reply.text).toBe(201)
    expect(Object.keys(reply.body.data)).toEqual([
      "id", "monitor_id", "prompt_id", "platform", "country", "text", "status", "model", "answer_state", "finish_reason",
      "input_tokens", "output_tokens", "cost_usd", "search_queries", "retrieved_urls", "collected_at", "analyzed_at",
      "created_at", "updated_at"
    ])
    expect(reply.body.data).toMatchObject({
      monitor_id: monitor,
      prompt_id: prompt,
      platform: "perplexity",
      country: "US",
      status: "analyzed",
      // Nothing reported: an answer, the rest unknown.
      model: null,
      answer_state: "answered",
      finish_reason: null,
      input_tokens: null,
      output_tokens: null,
      cost_usd: null,
      search_queries: [],
      retrieved_urls: [],
      collected_at: "2026-11-01T10:00:00.000Z"
    })
    expect(reply.body.data.analyzed_at).toMatch(/Z$/)
    const response = reply.body.data.id

    const citations = await citationsOf(response)
    expect(citations.map((c) => [c.position, c.url])).toEqual([
      [1, "https://WWW.Acme.com/pricing?utm_source=x&plan=pro#top"],
      [2, "https://globex.io"],
      [3, "https://www.acme.com/pricing?plan=pro"]
    ])
    const headers = inProject(project)
    const sources = (await client((api) => api.sources.list({ headers, urlParams: {} }))).data
    expect(sources.map((s) => s.domain)).toEqual(["acme.com", "globex.io"])
    expect(citations[0].source_id).toBe(citations[2].source_id)
    const urls = (await client((api) => api.sources.urls({ headers, urlParams: {} }))).data
    // The new URLs of one answer are made in URL order (so concurrent answers never deadlock).
    expect(urls.map((u) => u.url)).toEqual(["https://globex.io/", "https://www.acme.com/pricing?plan=pro"])
    expect(citations[0].source_url_id).toBe(citations[2].source_url_id)
    // Raw: `{"data": ...}` and nothing else on the wire.
    const source = await raw("GET", `/api/v1/sources/${sources[0].id}`)
    expect(source.body).toEqual({ data: asJson(sources[0]) })
    const byDomain = await client((api) => api.sources.urls({ headers, urlParams: { source_id: sources[1].id } }))
    expect(byDomain.data.map((u) => u.url)).toEqual(["https://globex.io/"])

    // Raw: the key order of a mention on the wire is asserted below.
    const mentions = (await raw("GET", `/api/v1/brand-mentions?response_id=${response}&sort_by=position&sort_order=asc`)).body.data
    expect(mentions.map((m: any) => [m.brand_id, m.position])).toEqual([[globex, 1], [acme, 2]])
    const acmeMention = mentions.find((m: any) => m.brand_id === acme)
    expect(acmeMention.sentiment_score).toBeGreaterThan(50)
    expect(mentions.every((m: any) => m.brand_id !== ignored)).toBe(true)
    expect(Object.keys(mentions[0])).toEqual(["id", "response_id", "brand_id", "position", "sentiment_score", "collected_at", "created_at", "updated_at"])
  })

  it("takes the answer details when given, shows them on the response, and counts only answers in the analytics", async () => {
    // A project of its own: the other cases count the suite's project's responses.
    const mine = (await client((api) => api.projects.create({ payload: { name: "Details" } }))).data.id
    const detailed = await newPrompt(mine, "Details", ["gemini", "google_ai_overview"], "Which CRM?")
    const brand = (await client((api) =>
      api.brands.create({
        headers: inProject(mine),
        payload: { name: "Acme", aliases: [], domains: ["acme.com"], classification: "competitor", segment_ids: [] }
      })
    )).data.id
    const day = "2026-10-15"
    const post = (body: Record<string, unknown>) => raw("POST", "/api/v1/responses", body, mine)
    const brandCounts = async () => {
      const rows = (await raw("GET", `/api/v1/analytics/brands?start_date=${day}&end_date=${day}`, undefined, mine)).body.data
      return rows.find((row: any) => row.brand.id === brand)
    }
    const answered = await post({
      prompt_id: detailed.promptId,
      platform: "gemini",
      text: "Acme is the usual pick.",
      citations: ["https://acme.com/crm"],
      collected_at: `${day}T09:00:00Z`,
      model: "gemini-3.8-flash-002",
      answer_state: "answered",
      finish_reason: "max_tokens",
      input_tokens: 31,
      output_tokens: 420,
      cost_usd: 0.0125,
      search_queries: ["best crm", "acme crm pricing"],
      // The cited URL is dropped from the retrieved ones, and a repeat is kept once.
      retrieved_urls: ["https://acme.com/crm", "https://review.example/crm", "https://review.example/crm"]
    })
    expect(answered.status, answered.text).toBe(201)
    expect(answered.body.data).toMatchObject({
      model: "gemini-3.8-flash-002",
      answer_state: "answered",
      finish_reason: "max_tokens",
      input_tokens: 31,
      output_tokens: 420,
      cost_usd: 0.0125,
      search_queries: ["best crm", "acme crm pricing"],
      retrieved_urls: ["https://review.example/crm"]
    })
    const read = await raw("GET", `/api/v1/responses/${answered.body.data.id}`, undefined, mine)
    expect(read.body.data).toEqual(answered.body.data)
    expect(await brandCounts()).toMatchObject({ responses_count: 1, mentioned_count: 1 })

    // A page without an AI answer, and a refusal naming the brand: stored and listed, never counted.
    for (const [platform, state] of [["google_ai_overview", "no_answer"], ["gemini", "refused"]] as const) {
      const reply = await post({
        prompt_id: detailed.promptId,
        platform,
        text: state === "refused" ? "I cannot compare Acme with others." : "No AI Overview was shown.",
        collected_at: `${day}T10:00:00Z`,
        answer_state: state
      })
      expect(reply.status, reply.text).toBe(201)
      expect(reply.body.data.answer_state).toBe(state)
    }
    expect(await brandCounts()).toMatchObject({ responses_count: 1, mentioned_count: 1 })
    const listed = (await raw("GET", `/api/v1/responses?monitor_id=${detailed.monitorId}`, undefined, mine)).body.data
    expect(listed.map((r: any) => r.answer_state)).toEqual(["answered", "no_answer", "refused"])
  })

  it("refuses answer details out of their bounds with 422 naming each field", async () => {
    const before = await responseCount()
    const reply = await raw("POST", "/api/v1/responses", {
      prompt_id: prompt,
      platform: "chatgpt",
      text: "An answer.",
      answer_state: "maybe",
      finish_reason: "tired",
      input_tokens: -1,
      output_tokens: 1.5,
      cost_usd: -0.01,
      search_queries: Array.from({ length: 51 }, (_, i) => `q${i}`),
      retrieved_urls: ["ftp://files.example/a"]
    })
    expect(reply.status).toBe(422)
    expect(reply.body.errors).toEqual({
      answer_state: ["The selected answer state is invalid. Allowed: answered, refused, empty, no_answer."],
      finish_reason: ["The selected finish reason is invalid. Allowed: complete, max_tokens, content_filter, refusal, other."],
      input_tokens: ["The input tokens field must be at least 0."],
      output_tokens: ["The output tokens field must be an integer."],
      cost_usd: ["The cost usd field must be at least 0."],
      search_queries: ["The search queries field must not have more than 50 items."],
      "retrieved_urls.0": ["The retrieved URL must be an http or https URL."]
    })
    expect(await responseCount()).toBe(before)
  })

  it("takes citations from the text when none are given, and detects brands by domain", async () => {
    const reply = await raw("POST", "/api/v1/responses", {
      prompt_id: prompt,
      platform: "chatgpt",
      text: "See [the guide](https://acme.com/guide) and https://example.org/a, then https://example.org/a.",
      country: "de"
    })
    expect(reply.status, reply.text).toBe(201)
    expect(reply.body.data.country).toBe("DE")
    const citations = await citationsOf(reply.body.data.id)
    expect(citations.map((c) => c.url)).toEqual(["https://acme.com/guide", "https://example.org/a", "https://example.org/a"])
    const mentions = await mentionsOf({ response_id: reply.body.data.id })
    expect(mentions.map((m) => m.brand_id)).toEqual([acme])
  })

  it("refuses bad input with 422 naming the field, and stores nothing", async () => {
    const before = await responseCount()
    const foreignPrompt = (await newPrompt(otherProject, "M", ["gemini"], "Q")).promptId
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
      const reply = await raw("POST", "/api/v1/responses", body)
      expect(reply.status, JSON.stringify(body)).toBe(422)
      expect(reply.body.message).toBe("The given data was invalid.")
      expect(Object.keys(reply.body.errors).sort(), JSON.stringify(body)).toEqual([...fields].sort())
    }
    expect(await responseCount()).toBe(before)
  })

  it("takes collected_at from 2000-01-01T00:00:00Z to 5 minutes from now, of a moment that exists (422 on collected_at otherwise)", async () => {
    const before = await responseCount()
    const refused: ReadonlyArray<readonly [string, string]> = [
      ["0000-01-01T00:00:00Z", "The collected at field must be a date after or equal to 2000-01-01T00:00:00Z."],
      ["1999-12-31T23:59:59.999Z", "The collected at field must be a date after or equal to 2000-01-01T00:00:00Z."],
      // 23:30 the day before in UTC.
      ["2000-01-01T00:30:00+01:00", "The collected at field must be a date after or equal to 2000-01-01T00:00:00Z."],
      ["2024-02-30T10:00:00Z", "The collected at field must be a valid date."],
      ["2023-02-29T10:00:00Z", "The collected at field must be a valid date."],
      ["2024-04-31T10:00:00Z", "The collected at field must be a valid date."],
      ["2024-01-01T24:00:00Z", "The collected at field must be a valid date."],
      ["2024-01-01T10:60:00Z", "The collected at field must be a valid date."],
      ["2024-01-01T10:00:00+24:00", "The collected at field must be a valid date."],
      ["2024-01-01", "The collected at field must be an ISO 8601 date-time with a time zone."],
      [new Date(Date.now() + 6 * 60_000).toISOString(), "The collected at field must be a date before or equal to now."]
    ]
    for (const [collectedAt, message] of refused) {
      const reply = await raw("POST", "/api/v1/responses", { prompt_id: prompt, platform: "chatgpt", text: "Acme.", collected_at: collectedAt })
      expect(reply.status, collectedAt).toBe(422)
      expect(reply.body, collectedAt).toEqual({ message: "The given data was invalid.", errors: { collected_at: [message] } })
    }
    expect(await responseCount()).toBe(before)
    // The bounds themselves, a leap day, and the tolerated clock skew.
    const soon = new Date(Date.now() + 4 * 60_000).toISOString()
    for (const collectedAt of ["2000-01-01T00:00:00Z", "2024-02-29T23:59:59+01:00", soon]) {
      const reply = await raw("POST", "/api/v1/responses", { prompt_id: prompt, platform: "chatgpt", text: "Acme.", collected_at: collectedAt })
      expect(reply.status, collectedAt).toBe(201)
      expect(reply.body.data.collected_at).toBe(new Date(collectedAt).toISOString())
    }
  })

  it("filters responses and checks the filters", async () => {
    const responses = (urlParams: Parameters<ApiClient["responses"]["list"]>[0]["urlParams"]) =>
      client((api) => api.responses.list({ headers: inProject(project), urlParams }))
    const all = await responses({})
    expect(totalOf(all)).toBeGreaterThanOrEqual(2)
    const perplexity = (await responses({ platform: "perplexity" })).data
    expect(perplexity.every((r) => r.platform === "perplexity")).toBe(true)
    const november = (await responses({ start_date: "2026-11-01", end_date: "2026-11-01" })).data
    expect(november.map((r) => r.collected_at.toISOString())).toEqual(["2026-11-01T10:00:00.000Z"])
    expect(totalOf(await responses({ monitor_id: monitor, prompt_id: prompt, status: "analyzed" }))).toBe(totalOf(all))
    for (const query of ["platform=bing", "status=done", "start_date=2026-02-30&end_date=2026-03-01", "start_date=2026-11-02&end_date=2026-11-01", "start_date=2026-11-01", "monitor_id=999999"]) {
      expect((await raw("GET", `/api/v1/responses?${query}`)).status, query).toBe(422)
    }
    // Raw: `{"data": ...}` and nothing else on the wire.
    const one = await raw("GET", `/api/v1/responses/${all.data[0].id}`)
    expect(one.body).toEqual({ data: asJson(all.data[0]) })
    expect((await raw("GET", `/api/v1/responses/${all.data[0].id}`, undefined, otherProject)).body).toEqual({ message: "Response not found" })
    expect(await responseCount(otherProject)).toBe(0)
    expect((await raw("GET", "/api/v1/sources/999999")).body).toEqual({ message: "Source not found" })
  })

  it("lists responses by id unless asked for another order: collected_at or id, ascending or descending, id breaking ties", async () => {
    // A project of its own: answers stored out of their collection order, two of them collected at the same instant.
    const own = (await client((api) => api.projects.create({ payload: { name: "Order" } }))).data.id
    const asked = await newPrompt(own, "Order", ["chatgpt"], "Which CRM?")
    const store = async (collectedAt: string) => {
      const reply = await raw("POST", "/api/v1/responses", { prompt_id: asked.promptId, platform: "chatgpt", text: "An answer.", collected_at: collectedAt }, own)
      expect(reply.status, reply.text).toBe(201)
      return reply.body.data.id as number
    }
    const march = await store("2026-03-01T10:00:00.000Z")
    const january = await store("2026-01-01T10:00:00.000Z")
    const february = await store("2026-02-01T10:00:00.000Z")
    const februaryAgain = await store("2026-02-01T10:00:00.000Z")
    const ids = async (query: string) => {
      const reply = await raw("GET", `/api/v1/responses?${query}`, undefined, own)
      expect(reply.status, `${query} ${reply.text}`).toBe(200)
      return reply.body.data.map((response: { id: number }) => response.id)
    }
    const byId = [march, january, february, februaryAgain]
    expect(await ids("")).toEqual(byId)
    expect(await ids("sort_by=id")).toEqual(byId)
    expect(await ids("sort_order=desc")).toEqual([...byId].reverse())
    expect(await ids("sort_by=collected_at")).toEqual([january, february, februaryAgain, march])
    expect(await ids("sort_by=collected_at&sort_order=asc")).toEqual([january, february, februaryAgain, march])
    expect(await ids("sort_by=collected_at&sort_order=desc")).toEqual([march, februaryAgain, february, january])
    // Page by page, the same list; with a filter too.
    const pages = []
    for (let page = 1; page <= 4; page++) pages.push(...await ids(`sort_by=collected_at&sort_order=desc&per_page=1&page=${page}`))
    expect(pages).toEqual([march, februaryAgain, february, january])
    expect(await ids("sort_by=collected_at&sort_order=desc&start_date=2026-01-01&end_date=2026-02-28")).toEqual([februaryAgain, february, january])
    // The typed client sends them too.
    const typed = await client((api) => api.responses.list({ headers: inProject(own), urlParams: { sort_by: "collected_at", sort_order: "desc" } }))
    expect(typed.data.map((response) => response.id)).toEqual([march, februaryAgain, february, january])
    // Unknown values are a 422 naming the field.
    const bad = await raw("GET", "/api/v1/responses?sort_by=text&sort_order=up", undefined, own)
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors).sort()).toEqual(["sort_by", "sort_order"])
  })

  it("lists brand mentions newest first, sorts on every allowed column, and nests includes", async () => {
    const newest = await mentionsOf({})
    const ids = newest.map((m) => m.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    for (const column of ["created_at", "updated_at", "position", "sentiment_score", "id"] as const) {
      for (const order of ["asc", "desc"] as const) {
        const rows = await mentionsOf({ sort_by: column, sort_order: order })
        // Timestamps compare as their time, as the ISO strings they are on the wire compare.
        const keys = rows.map((m) => [Number(m[column]), m.id] as const)
        const sorted = [...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]) * (order === "asc" ? 1 : -1))
        expect(keys, `${column} ${order}`).toEqual(sorted)
      }
    }
    expect((await mentionsOf({ brand_id: globex })).every((m) => m.brand_id === globex)).toBe(true)

    const included = (await mentionsOf({ include: ["response.prompt", "brand.project.organization", "response.monitor"] }))[0]
    expect(included.response?.id).toBe(included.response_id)
    expect(included.response?.prompt).toMatchObject({ id: prompt, text: "Best CRM?", tags: [] })
    expect(included.response?.monitor?.id).toBe(monitor)
    expect(included.response?.project).toBeUndefined()
    expect(included.brand?.id).toBe(included.brand_id)
    expect(included.brand?.project).toMatchObject({ id: project, name: "Acme" })
    expect(included.brand?.project?.organization).toMatchObject({ name: "Acme Org" })
    const plain = (await mentionsOf({ include: ["response.project"] }))[0]
    expect(plain.response?.project?.id).toBe(project)
    expect(plain.brand).toBeUndefined()

    for (const query of ["include=response,brands", "sort_by=brand_id", "sort_order=up", "brand_id=999999", "response_id=abc"]) {
      const reply = await raw("GET", `/api/v1/brand-mentions?${query}`)
      expect(reply.status, query).toBe(422)
    }
    const unknown = await raw("GET", "/api/v1/brand-mentions?include=brands")
    expect(Object.keys(unknown.body.errors)).toEqual(["include"])
  })
})
