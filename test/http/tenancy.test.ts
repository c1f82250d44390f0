import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, endpoints, type Fixture, fixtureField, makeFixture, pathResources } from "../support/Endpoints.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Organization A's key never sees or touches organization B's data: B's projects answer 404 whether
 * named by path or by header, B's resources answer 404 inside A's project, and lists hold only A's rows.
 */
describe.each(backends)("tenant isolation (%s)", (backend) => {
  let server: TestServer
  let keyA: string
  let keyB: string
  let a: Fixture
  let b: Fixture
  beforeAll(async () => {
    server = await startServer(backend)
    const orgA = await server.createOrganization("A")
    const orgB = await server.createOrganization("B")
    keyA = (await server.createKey(orgA.id, ["*"])).key
    keyB = (await server.createKey(orgB.id, ["*"])).key
    a = await makeFixture(server, keyA)
    b = await makeFixture(server, keyB)
  })
  afterAll(() => server.close())

  /** B's data, as B sees it: compared before and after A's attempts. */
  const snapshotOfB = async () => {
    const get = async (path: string, project?: number) => (await server.request("GET", path, { key: keyB, project })).body
    return {
      project: await get(`/api/v1/projects/${b.project}`),
      monitors: await get("/api/v1/monitors", b.project),
      prompts: await get("/api/v1/prompts", b.project),
      tags: await get("/api/v1/tags", b.project),
      brands: await get("/api/v1/brands", b.project),
      segments: await get("/api/v1/segments", b.project),
      organization: await get("/api/v1/organization")
    }
  }

  it("answers 404 Project not found for B's project on every project-scoped endpoint and /projects/{project}", async () => {
    const before = await snapshotOfB()
    for (const endpoint of endpoints) {
      if (!endpoint.projectScoped && !endpoint.name.includes("{project}")) continue
      // B's project, with A's key: by header for scoped endpoints, by path for /projects/{project}.
      const reply = await call(server, endpoint, keyA, { ...a, project: b.project })
      expect(reply.status, endpoint.name).toBe(404)
      expect(reply.body, endpoint.name).toEqual({ message: "Project not found" })
    }
    expect(await snapshotOfB()).toEqual(before)
  })

  it("answers 404 <Resource> not found for B's monitors, prompts, tags, brands and segments inside A's project", async () => {
    const before = await snapshotOfB()
    for (const { endpoint, resource } of pathResources) {
      // Only the resource named comes from B: bodies stay valid, so the path lookup answers. Attach and
      // detach name two resources and come up once for each, so each is taken from B in turn.
      const field = fixtureField[resource]
      const foreign: Fixture = { ...a, [field]: b[field] }
      const reply = await call(server, endpoint, keyA, foreign)
      expect(reply.status, `${endpoint.name} ${reply.text}`).toBe(404)
      expect(reply.body, endpoint.name).toEqual({ message: `${resource} not found` })
    }
    expect(await snapshotOfB()).toEqual(before)
  })

  it("refuses B's monitors and tags as references in A's bodies with 422", async () => {
    const create = await server.request("POST", "/api/v1/prompts", {
      key: keyA,
      project: a.project,
      body: { monitor_id: b.monitor, text: "Cross-tenant?", tags: [a.tag, b.tag] }
    })
    expect(create.status).toBe(422)
    expect(create.body).toEqual({
      message: "The given data was invalid.",
      errors: { monitor_id: ["The selected monitor id is invalid."], "tags.1": ["The selected tags.1 is invalid."] }
    })
    const move = await server.request("PATCH", `/api/v1/prompts/${a.prompt}`, { key: keyA, project: a.project, body: { monitor_id: b.monitor } })
    expect(move.status).toBe(422)
    const filter = await server.request("GET", `/api/v1/prompts?monitor_id=${b.monitor}`, { key: keyA, project: a.project })
    expect(filter.status).toBe(422)
    expect(filter.body.errors).toEqual({ monitor_id: ["The selected monitor id is invalid."] })
  })

  it("never lists, nor revokes, B's API keys", async () => {
    const listed = await server.request("GET", "/api/v1/api-keys?per_page=100", { key: keyA })
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((key: { id: number }) => key.id)).not.toContain(b.apiKey)
    expect(listed.body.data.map((key: { id: number }) => key.id)).toContain(a.apiKey)
    const revoke = await server.request("DELETE", `/api/v1/api-keys/${b.apiKey}`, { key: keyA })
    expect(revoke.status).toBe(404)
    expect(revoke.body).toEqual({ message: "API key not found" })
    const theirs = await server.request("GET", "/api/v1/api-keys?per_page=100", { key: keyB })
    expect(theirs.body.data.find((key: { id: number }) => key.id === b.apiKey).revoked).toBe(false)
  })

  it("lists only the key's own rows", async () => {
    const projects = await server.request("GET", "/api/v1/projects?per_page=100", { key: keyA })
    expect(projects.body.data.map((project: { id: number }) => project.id)).toEqual([a.project])
    expect(projects.body.meta.total).toBe(1)
    for (const path of ["/api/v1/monitors", "/api/v1/prompts", "/api/v1/tags", "/api/v1/brands", "/api/v1/segments"]) {
      const own = await server.request("GET", `${path}?per_page=100`, { key: keyA, project: a.project })
      const theirs = await server.request("GET", `${path}?per_page=100`, { key: keyB, project: b.project })
      const ownIds = own.body.data.map((row: { id: number }) => row.id)
      const theirIds = theirs.body.data.map((row: { id: number }) => row.id)
      expect(ownIds.filter((id: number) => theirIds.includes(id)), path).toEqual([])
      expect(own.body.meta.total, path).toBe(ownIds.length)
    }
    const me = await server.request("GET", "/api/v1/me", { key: keyA })
    expect(me.body.data.projects.map((project: { id: number }) => project.id)).toEqual([a.project])
    expect(me.body.data.organization.name).toBe("A")
  })
})

/** A key limited to some projects of its organization acts only in those. */
describe.each(backends)("key limited to projects (%s)", (backend) => {
  let server: TestServer
  let admin: string
  let limited: string
  let allowed: Fixture
  let other: Fixture
  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization()
    admin = (await server.createKey(organization.id, ["*"])).key
    allowed = await makeFixture(server, admin)
    other = await makeFixture(server, admin)
    limited = (await server.createKey(organization.id, ["*"], { projectIds: [allowed.project] })).key
  })
  afterAll(() => server.close())

  it("sees only its allowed projects in lists and /me", async () => {
    const projects = await server.request("GET", "/api/v1/projects", { key: limited })
    expect(projects.body.data.map((project: { id: number }) => project.id)).toEqual([allowed.project])
    expect(projects.body.meta.total).toBe(1)
    const me = await server.request("GET", "/api/v1/me", { key: limited })
    expect(me.body.data.projects.map((project: { id: number }) => project.id)).toEqual([allowed.project])
    const all = await server.request("GET", "/api/v1/projects", { key: admin })
    expect(all.body.meta.total).toBe(2)
  })

  it("acts in its allowed project and gets 404 Project not found for the others", async () => {
    for (const endpoint of endpoints) {
      if (!endpoint.projectScoped && !endpoint.name.includes("{project}")) continue
      const refused = await call(server, endpoint, limited, other)
      expect(refused.status, endpoint.name).toBe(404)
      expect(refused.body, endpoint.name).toEqual({ message: "Project not found" })
    }
    for (const endpoint of endpoints.filter((endpoint) => endpoint.projectScoped && endpoint.method === "GET")) {
      const fixture = await makeFixture(server, admin, allowed.project)
      const reply = await call(server, endpoint, limited, fixture)
      expect(reply.status, endpoint.name).toBe(endpoint.success)
    }
    // A fixture per endpoint of the catalogue: longer than the default on a loaded machine.
  }, 120_000)
})
