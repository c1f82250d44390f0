import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { inProject } from "../support/ApiClient.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * One pass through the main resources. The project and the monitor are sent raw, as a client would type
 * them (untrimmed, other case, a repeated platform, schedule and active omitted), which the typed client
 * cannot send; the prompt raw too, for its 201 and the timestamp format on the wire. The tags and /me are
 * read through the typed client: each answer is decoded with its endpoint's schema, and only under the
 * status the endpoint declares (200 here).
 */
describe.each(backends)("smoke (%s)", (backend) => {
  let server: TestServer
  let key: string
  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization("Acme")
    key = (await server.createKey(organization.id, ["*"])).key
  })
  afterAll(() => server.close())

  it("creates a project, a monitor, a tag and a prompt", async () => {
    const project = await server.request("POST", "/api/v1/projects", { key, body: { name: " Acme ", domain: "Acme.com" } })
    expect(project.status).toBe(201)
    expect(project.body.data).toMatchObject({ name: "Acme", domain: "acme.com", brand_id: null })
    const projectId = project.body.data.id
    const monitor = await server.request("POST", "/api/v1/monitors", {
      key,
      project: projectId,
      body: { name: "US", country: "us", platforms: ["chatgpt", "claude", "chatgpt"] }
    })
    expect(monitor.status).toBe(201)
    expect(monitor.body.data).toMatchObject({ country: "US", platforms: ["chatgpt", "claude"], schedule: "daily", active: true })
    const client = server.client(key)
    const tags = (await client((api) => api.tags.list({ headers: inProject(projectId), urlParams: {} }))).data
    expect(tags.map((tag) => tag.name)).toEqual(["branded", "non-branded", "review"])
    const prompt = await server.request("POST", "/api/v1/prompts", {
      key,
      project: projectId,
      body: { monitor_id: monitor.body.data.id, text: "Best CRM?", tags: [tags[1].id, tags[0].id] }
    })
    expect(prompt.status).toBe(201)
    expect(prompt.body.data.tags.map((tag: any) => tag.name)).toEqual(["branded", "non-branded"])
    expect(prompt.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const me = (await client((api) => api.me.me())).data
    expect(me.projects).toEqual([{ id: projectId, name: "Acme" }])
  })
})
