import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Fixture, makeFixture } from "../support/Endpoints.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * docs/api.md: authentication (401), ability (403), project header (400), project ownership (404),
 * validation (422), path resource (404). Each case fails every check from one point on, so only the
 * order decides which answers.
 */
describe.each(backends)("order of checks (%s)", (backend) => {
  let server: TestServer
  let fixture: Fixture
  let foreignProject: number
  let readOnly: string
  let writer: string
  const badBody = { name: 42, color: "blue" }
  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization()
    const other = await server.createOrganization()
    const admin = (await server.createKey(organization.id, ["*"])).key
    fixture = await makeFixture(server, admin)
    foreignProject = (await makeFixture(server, (await server.createKey(other.id, ["*"])).key)).project
    readOnly = (await server.createKey(organization.id, ["tags:read"])).key
    writer = (await server.createKey(organization.id, ["tags:write", "projects:write"])).key
  })
  afterAll(() => server.close())

  const patchTag = (options: { key?: string; project?: number | string; tag?: number | string; body?: unknown }) =>
    server.request("PATCH", `/api/v1/tags/${options.tag ?? 999_999}`, {
      key: options.key,
      project: options.project,
      body: options.body ?? badBody
    })

  it("401 before 403", async () => {
    const reply = await patchTag({ key: "bvm_" + "x".repeat(40) })
    expect(reply.status).toBe(401)
    expect(reply.body).toEqual({ message: "Unauthenticated." })
    expect(reply.headers.get("www-authenticate")).toBe('Bearer error="invalid_token", error_description="The key is unknown, revoked or expired."')
  })

  it("403 before 400 (missing project header)", async () => {
    const reply = await patchTag({ key: readOnly })
    expect(reply.status).toBe(403)
    expect(reply.body).toEqual({ message: "This action is unauthorized.", required_ability: "tags:write" })
  })

  it("400 before 404 (project) and 422", async () => {
    expect((await patchTag({ key: writer })).body).toEqual({ message: "Missing required header Service-Project-Id" })
    const invalid = await patchTag({ key: writer, project: "12abc" })
    expect(invalid.status).toBe(400)
    expect(invalid.body).toEqual({ message: "Invalid header Service-Project-Id" })
  })

  it("404 Project not found before 422", async () => {
    const reply = await patchTag({ key: writer, project: foreignProject })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({ message: "Project not found" })
  })

  it("404 Project not found before 422 on /projects/{project}", async () => {
    const reply = await server.request("PATCH", `/api/v1/projects/${foreignProject}`, { key: writer, body: { name: "" } })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({ message: "Project not found" })
  })

  it("422 before the path resource's 404", async () => {
    for (const tag of [999_999, "abc"]) {
      const reply = await patchTag({ key: writer, project: fixture.project, tag })
      expect(reply.status).toBe(422)
      expect(reply.body.message).toBe("The given data was invalid.")
      expect(Object.keys(reply.body.errors).sort()).toEqual(["color", "name"])
    }
  })

  it("404 Tag not found last", async () => {
    const reply = await patchTag({ key: writer, project: fixture.project, body: { name: "fine" } })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({ message: "Tag not found" })
  })

  it("an unknown route is 404 Not found, with or without a key", async () => {
    for (const key of [undefined, writer]) {
      const reply = await server.request("GET", "/api/v1/nothing-here", { key })
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual({ message: "Not found" })
    }
  })
})
