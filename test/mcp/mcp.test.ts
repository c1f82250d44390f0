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

const toolNames = ["brand_trend", "brand_visibility", "list_projects", "prompts_missing_own_brand", "read_answer", "top_sources"]

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

    const answer = structured(await mcp.callTool({ name: "read_answer", arguments: { response_id: seeded.answer.id } }))
    expect(answer.response.text).toBe("Acme is the easiest start; Globex is a close second.")
    expect(answer.citations).toEqual(["https://acme.com/pricing"])
    expect(answer.mentions.map((m: any) => m.brand_id).sort()).toEqual([seeded.own.id, seeded.rival.id].sort())
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
    } finally {
      await client.close()
    }
  }, 60_000)
})
