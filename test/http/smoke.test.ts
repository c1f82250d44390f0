import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

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
    const tags = await server.request("GET", "/api/v1/tags", { key, project: projectId })
    expect(tags.status).toBe(200)
    expect(tags.body.data.map((tag: any) => tag.name)).toEqual(["branded", "non-branded", "review"])
    const prompt = await server.request("POST", "/api/v1/prompts", {
      key,
      project: projectId,
      body: { monitor_id: monitor.body.data.id, text: "Best CRM?", tags: [tags.body.data[1].id, tags.body.data[0].id] }
    })
    expect(prompt.status).toBe(201)
    expect(prompt.body.data.tags.map((tag: any) => tag.name)).toEqual(["branded", "non-branded"])
    expect(prompt.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const me = await server.request("GET", "/api/v1/me", { key })
    expect(me.status).toBe(200)
    expect(me.body.data.projects).toEqual([{ id: projectId, name: "Acme" }])
  })
})
