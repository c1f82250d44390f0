import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Client from "../../src/Client/index.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * The MCP server as an assistant's host sees it, through the official TypeScript SDK's client: over
 * streamable HTTP at /mcp with a Bearer key, and over stdio (`src/mcp.ts`) with the key in the environment.
 */

const today = new Date().toISOString().slice(0, 10)
const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)
const window = { start_date: weekAgo, end_date: today }

const connectHttp = async (server: TestServer, key: string) => {
  const client = new McpClient({ name: "test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } }
  }))
  return client
}

/** Seeds one project through the API: an own brand, a rival, two prompts (one without the own brand), two answers. */
const seed = async (server: TestServer, key: string, name: string) => {
  const plain = Client.createClient({ baseUrl: server.baseUrl, apiKey: key })
  const project = (await plain.projects.create({ payload: { name } })).data
  const scoped = Client.createClient({ baseUrl: server.baseUrl, apiKey: key, projectId: project.id })
  const monitor = (await scoped.monitors.create({
    payload: { name: "US", country: "US", platforms: ["chatgpt", "perplexity"], schedule: "daily", active: true, simulated: true }
  })).data
  const own = (await scoped.brands.create({ payload: { name: "Acme", aliases: [], domains: ["acme.com"], classification: "competitor", segment_ids: [] } })).data
  const rival = (await scoped.brands.create({ payload: { name: "Globex", aliases: [], domains: ["globex.com"], classification: "competitor", segment_ids: [] } })).data
  await scoped.project.update({ path: { project: project.id }, payload: { brand_id: own.id } })
  const covered = (await scoped.prompts.create({ payload: { monitor_id: monitor.id, text: "Best CRM for a small agency?", tags: [] } })).data
  const missing = (await scoped.prompts.create({ payload: { monitor_id: monitor.id, text: "Cheapest CRM?", tags: [] } })).data
  const answer = (await scoped.responses.create({
    payload: { prompt_id: covered.id, platform: "chatgpt", text: "Acme is the easiest start; Globex is a close second.", citations: ["https://acme.com/pricing"] }
  })).data
  await scoped.responses.create({ payload: { prompt_id: missing.id, platform: "perplexity", text: "Globex is the cheapest.", citations: ["https://globex.com/"] } })
  return { project, own, rival, missing, answer, scoped }
}

const structured = (result: any) => {
  expect(result.isError).toBe(false)
  return result.structuredContent as any
}

const toolNames = [
  "brand_trend",
  "brand_visibility",
  "create_prompt",
  "list_monitors",
  "list_projects",
  "list_runs",
  "prompts_missing_own_brand",
  "read_answer",
  "run_monitor",
  "search_answers",
  "source_trend",
  "top_sources"
]

describe.each(backends)("MCP over HTTP (%s)", (backend) => {
  let server: TestServer
  let organizationId: number
  let key: string
  let seeded: Awaited<ReturnType<typeof seed>>
  let mcp: McpClient
  beforeAll(async () => {
    server = await startServer(backend)
    organizationId = (await server.createOrganization("Acme Org")).id
    key = (await server.createKey(organizationId, ["*"])).key
    seeded = await seed(server, key, "Acme")
    mcp = await connectHttp(server, key)
  })
  afterAll(async () => {
    await mcp?.close()
    await server.close()
  })

  it("lists the tools, each with a description and an input schema", async () => {
    const { tools } = await mcp.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(toolNames)
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40)
      expect(tool.inputSchema.type).toBe("object")
    }
    const trend = tools.find((tool) => tool.name === "brand_trend")!
    expect((trend.inputSchema.properties as any).interval.enum).toEqual(["day", "week", "month", "year"])
    expect((trend.inputSchema.properties as any).start_date.format).toBe("date")
  })

  it("answers each tool with the API's numbers, the project found from the key", async () => {
    const projects = structured(await mcp.callTool({ name: "list_projects", arguments: {} }))
    expect(projects.projects.map((p: any) => p.id)).toEqual([seeded.project.id])

    const api = await seeded.scoped.analytics.brands({ urlParams: window })
    const visibility = await mcp.callTool({ name: "brand_visibility", arguments: window })
    expect(structured(visibility).rows).toEqual(JSON.parse(JSON.stringify(api.data)))
    expect((visibility.content as any)[0].text).toContain("Acme (own)")
    expect((visibility.content as any)[0].text).toContain("50% (1/2)")

    const series = await seeded.scoped.analytics.brandSeries({ urlParams: { ...window, interval: "day", top_n: "5" } })
    const trend = structured(await mcp.callTool({ name: "brand_trend", arguments: { ...window, interval: "day" } }))
    expect(trend.series).toEqual(JSON.parse(JSON.stringify(series.data.series)))

    const missing = structured(await mcp.callTool({ name: "prompts_missing_own_brand", arguments: window }))
    expect(missing.prompts.map((row: any) => [row.prompt.id, row.top_competitor.brand.name])).toEqual([[seeded.missing.id, "Globex"]])

    const sources = await seeded.scoped.analytics.sources({ urlParams: window })
    expect(structured(await mcp.callTool({ name: "top_sources", arguments: window })).rows).toEqual(JSON.parse(JSON.stringify(sources.data)))
    const urls = structured(await mcp.callTool({ name: "top_sources", arguments: { ...window, by: "url" } }))
    expect(urls.rows.map((row: any) => row.source_url.url).sort()).toEqual(["https://acme.com/pricing", "https://globex.com/"])

    const usage = await seeded.scoped.analytics.sourceUrlUsage({ urlParams: { ...window, interval: "week", top_n: "5" } })
    const sourceTrend = await mcp.callTool({ name: "source_trend", arguments: { ...window, interval: "week" } })
    expect(structured(sourceTrend).series).toEqual(JSON.parse(JSON.stringify(usage.data.series)))
    expect(structured(sourceTrend).series.map((s: any) => s.source_url.url).sort()).toEqual(["https://acme.com/pricing", "https://globex.com/"])
    expect((sourceTrend.content as any)[0].text).toContain("https://acme.com/pricing")

    const answer = structured(await mcp.callTool({ name: "read_answer", arguments: { response_id: seeded.answer.id } }))
    expect(answer.response.text).toBe("Acme is the easiest start; Globex is a close second.")
    expect(answer.citations).toEqual(["https://acme.com/pricing"])
    expect(answer.mentions.map((m: any) => m.brand_id).sort()).toEqual([seeded.own.id, seeded.rival.id].sort())
  })

  it("marks the tools that change something, and only those", async () => {
    const { tools } = await mcp.listTools()
    const writing = tools.filter((tool) => tool.annotations?.readOnlyHint === false).map((tool) => tool.name).sort()
    expect(writing).toEqual(["create_prompt", "run_monitor"])
    expect(tools.find((tool) => tool.name === "search_answers")!.annotations?.readOnlyHint).toBe(true)
  })

  it("lists monitors, searches answers, runs a monitor and lists its runs, as the API does", async () => {
    const monitors = structured(await mcp.callTool({ name: "list_monitors", arguments: {} }))
    const apiMonitors = await seeded.scoped.monitors.list({ urlParams: {} })
    expect(monitors.monitors).toEqual(JSON.parse(JSON.stringify(apiMonitors.data)))
    const monitorId = apiMonitors.data[0]!.id

    const found = structured(await mcp.callTool({ name: "search_answers", arguments: { ...window, platforms: ["chatgpt"] } }))
    expect(found.responses.map((r: any) => r.id)).toEqual([seeded.answer.id])
    const all = await mcp.callTool({ name: "search_answers", arguments: {} })
    const apiAll = await seeded.scoped.responses.list({ urlParams: { sort_by: "collected_at", sort_order: "desc" } })
    expect(structured(all).responses.map((r: any) => r.id)).toEqual(apiAll.data.map((r) => r.id))
    expect((all.content as any)[0].text).toContain("Globex is the cheapest.")
    const byText = structured(await mcp.callTool({ name: "search_answers", arguments: { q: "CHEAPEST globex" } }))
    const apiByText = await seeded.scoped.responses.list({ urlParams: { q: "CHEAPEST globex" } })
    expect(byText.responses.map((r: any) => r.id)).toEqual(apiByText.data.map((r) => r.id))
    expect(byText.responses.map((r: any) => r.text)).toEqual(["Globex is the cheapest."])
    const half: any = await mcp.callTool({ name: "search_answers", arguments: { start_date: weekAgo } })
    expect(half.isError).toBe(true)
    expect(half.content[0].text).toContain("together")

    const started = await mcp.callTool({ name: "run_monitor", arguments: { monitor_id: monitorId } })
    const run = structured(started).run
    expect(run).toMatchObject({ monitor_id: monitorId, trigger: "manual" })
    // Two prompts, two platforms.
    expect(run.jobs.total).toBe(4)
    const runs = structured(await mcp.callTool({ name: "list_runs", arguments: { monitor_id: monitorId } }))
    const apiRuns = await seeded.scoped.runs.list({ path: { monitor: monitorId }, urlParams: {} })
    expect(runs.runs.map((r: any) => r.id)).toEqual(apiRuns.data.map((r) => r.id))
    expect(runs.runs.map((r: any) => r.id)).toContain(run.id)

    const unknown: any = await mcp.callTool({ name: "run_monitor", arguments: { monitor_id: 999_999 } })
    expect(unknown.isError).toBe(true)
    expect(unknown.content[0].text).toContain("Monitor not found")
  })

  it("creates a prompt with tags: existing tags by name, missing ones made", async () => {
    const monitorId = (await seeded.scoped.monitors.list({ urlParams: {} })).data[0]!.id
    const pricing = (await seeded.scoped.tags.create({ payload: { name: "pricing" } })).data
    const result = await mcp.callTool({
      name: "create_prompt",
      arguments: { monitor_id: monitorId, text: "Which CRM has the fairest pricing?", tags: ["Pricing", "mcp-made"] }
    })
    const made = structured(result)
    expect(made.created_tags).toEqual(["mcp-made"])
    const stored = (await seeded.scoped.prompts.get({ path: { prompt: made.prompt.id } })).data
    expect(stored.text).toBe("Which CRM has the fairest pricing?")
    expect(stored.monitor_id).toBe(monitorId)
    expect(stored.tags.map((tag) => tag.name).sort()).toEqual(["mcp-made", "pricing"])
    expect(stored.tags.map((tag) => tag.id)).toContain(pricing.id)
    expect((result.content as any)[0].text).toContain(`Created prompt ${made.prompt.id}`)
  })

  it("refuses the writing tools to a key without their abilities, and writes nothing", async () => {
    const monitorId = (await seeded.scoped.monitors.list({ urlParams: {} })).data[0]!.id
    const readOnly = (await server.createKey(organizationId, ["projects:read", "monitors:read", "prompts:read", "tags:read"])).key
    const client = await connectHttp(server, readOnly)
    const promptsBefore = (await seeded.scoped.prompts.list({ urlParams: {} })).meta
    const tagsBefore = (await seeded.scoped.tags.list({ urlParams: {} })).data.length
    const runsBefore = (await seeded.scoped.runs.list({ path: { monitor: monitorId }, urlParams: {} })).data.length
    try {
      const prompt: any = await client.callTool({
        name: "create_prompt",
        arguments: { project_id: seeded.project.id, monitor_id: monitorId, text: "Refused?", tags: ["never-made"] }
      })
      expect(prompt.isError).toBe(true)
      expect(prompt.content[0].text).toContain("prompts:write")
      const run: any = await client.callTool({ name: "run_monitor", arguments: { project_id: seeded.project.id, monitor_id: monitorId } })
      expect(run.isError).toBe(true)
      expect(run.content[0].text).toContain("monitors:write")
      // Reading still works with the same key.
      expect(structured(await client.callTool({ name: "list_monitors", arguments: { project_id: seeded.project.id } })).monitors.length).toBe(1)
    } finally {
      await client.close()
    }
    // A key that may write prompts but not tags makes no tag, and no prompt either.
    const promptsOnly = (await server.createKey(organizationId, ["monitors:read", "prompts:write", "tags:read"])).key
    const second = await connectHttp(server, promptsOnly)
    try {
      const refused: any = await second.callTool({
        name: "create_prompt",
        arguments: { project_id: seeded.project.id, monitor_id: monitorId, text: "Refused too?", tags: ["never-made"] }
      })
      expect(refused.isError).toBe(true)
      expect(refused.content[0].text).toContain("tags:write")
    } finally {
      await second.close()
    }
    expect((await seeded.scoped.prompts.list({ urlParams: {} })).meta).toEqual(promptsBefore)
    expect((await seeded.scoped.tags.list({ urlParams: {} })).data.length).toBe(tagsBefore)
    expect((await seeded.scoped.runs.list({ path: { monitor: monitorId }, urlParams: {} })).data.length).toBe(runsBefore)
  })

  it("refuses the analytics tools to a key without analytics:read", async () => {
    const reader = (await server.createKey(organizationId, ["projects:read"])).key
    const client = await connectHttp(server, reader)
    try {
      const result: any = await client.callTool({ name: "brand_visibility", arguments: { ...window, project_id: seeded.project.id } })
      expect(result.isError).toBe(true)
      expect(result.content[0].text).toContain("analytics:read")
    } finally {
      await client.close()
    }
  })

  it("keeps a key limited to one project out of another", async () => {
    const other = await seed(server, key, "Other")
    const limited = (await server.createKey(organizationId, ["*"], { projectIds: [seeded.project.id] })).key
    const client = await connectHttp(server, limited)
    try {
      const result: any = await client.callTool({ name: "brand_visibility", arguments: { ...window, project_id: other.project.id } })
      expect(result.isError).toBe(true)
      expect(result.content[0].text).toContain("Project not found")
      // Its only project is found without project_id.
      expect(structured(await client.callTool({ name: "brand_visibility", arguments: window })).project_id).toBe(seeded.project.id)
    } finally {
      await client.close()
    }
  })

  it("answers a malformed call with a tool error and keeps serving", async () => {
    const result: any = await mcp.callTool({ name: "brand_trend", arguments: { project_id: seeded.project.id, start_date: "last week", interval: "hourly" } })
    expect(result.isError).toBe(true)
    expect(result.content[0].text).toContain("Invalid arguments")
    const past: any = await mcp.callTool({ name: "brand_visibility", arguments: { ...window, project_id: seeded.project.id, end_date: "2999-01-01" } })
    expect(past.isError).toBe(true)
    expect(past.content[0].text).toContain("end_date")
    expect(structured(await mcp.callTool({ name: "list_projects", arguments: {} })).projects.length).toBeGreaterThan(0)
  })

  it("refuses a request without a valid key: 401", async () => {
    const reply = await server.request("POST", "/mcp", { body: { jsonrpc: "2.0", id: 1, method: "tools/list" } })
    expect(reply.status).toBe(401)
    expect(reply.headers.get("www-authenticate")).toBe("Bearer")
    const wrong = await server.request("POST", "/mcp", { key: "bvm_unknown", body: { jsonrpc: "2.0", id: 1, method: "tools/list" } })
    expect(wrong.status).toBe(401)
  })
})

describe("MCP over stdio", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer("memory")
  })
  afterAll(() => server.close())

  it("serves the tools with the key and project of the environment", async () => {
    const organization = await server.createOrganization()
    const { key } = await server.createKey(organization.id, ["*"])
    const seeded = await seed(server, key, "Stdio")
    await seed(server, key, "Second")
    const client = new McpClient({ name: "test", version: "1.0.0" })
    await client.connect(new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", "src/mcp.ts"],
      env: { PATH: process.env.PATH ?? "", BVM_URL: server.baseUrl, BVM_API_KEY: key, BVM_PROJECT_ID: String(seeded.project.id) },
      stderr: "ignore"
    }))
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(toolNames)
      const api = await seeded.scoped.analytics.brands({ urlParams: window })
      // Two projects reach the key: the configured one is used.
      const result = structured(await client.callTool({ name: "brand_visibility", arguments: window }))
      expect(result.project_id).toBe(seeded.project.id)
      expect(result.rows).toEqual(JSON.parse(JSON.stringify(api.data)))
      // Every other tool over stdio too, on the configured project: an answer, never a tool error.
      const monitorId = (await seeded.scoped.monitors.list({ urlParams: {} })).data[0]!.id
      const calls: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
        ["list_projects", {}],
        ["brand_trend", { ...window, interval: "day" }],
        ["prompts_missing_own_brand", window],
        ["top_sources", window],
        ["source_trend", { ...window, interval: "week" }],
        ["read_answer", { response_id: seeded.answer.id }],
        ["list_monitors", {}],
        ["search_answers", { q: "globex" }],
        ["create_prompt", { monitor_id: monitorId, text: "Asked over stdio?", tags: ["stdio"] }],
        ["run_monitor", { monitor_id: monitorId }],
        ["list_runs", { monitor_id: monitorId }]
      ]
      expect([...calls.map(([name]) => name), "brand_visibility"].sort()).toEqual(toolNames)
      for (const [name, args] of calls) {
        const answer: any = await client.callTool({ name, arguments: args })
        expect(answer.isError ?? false, `${name}: ${JSON.stringify(answer.content)}`).toBe(false)
        const project = answer.structuredContent.project_id
        if (project !== undefined) expect(project, name).toBe(seeded.project.id)
      }
    } finally {
      await client.close()
    }
  }, 60_000)
})
