import { SqlError } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TagsRepo } from "../../src/Tags/Repo.ts"
import * as TagsMemory from "../../src/Tags/RepoMemory.ts"
import { MemoryStore } from "../../src/Memory/Store.ts"
import { backends, type Reply, sqlBackend, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * The error bodies on the wire, byte for byte, one case for every row of the errors table of
 * docs/api.md: the status, the exact body text (fields and their order), and the headers that go
 * with it. The errors are declared by the endpoints and encoded from their schemas
 * (src/Http/ErrorSchemas.ts); these cases hold that encoding to the documented format.
 */

const expectWire = (reply: Reply, status: number, body: string) => {
  expect(reply.status).toBe(status)
  expect(reply.headers.get("content-type")).toMatch(/^application\/json/)
  expect(reply.text).toBe(body)
  expect(reply.headers.get("x-request-id")).toMatch(/\S/)
}

describe.each(backends)("error bodies on the wire (%s)", (backend) => {
  let server: TestServer
  let key: string
  let readOnlyKey: string
  let project: number
  let foreignProject: number

  beforeAll(async () => {
    server = await startServer(backend, { rateLimitPerMinute: 1_000_000 })
    const organization = await server.createOrganization("Errors")
    key = (await server.createKey(organization.id, ["*"])).key
    readOnlyKey = (await server.createKey(organization.id, ["tags:read"])).key
    project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Errors" } })).body.data.id
    const other = await server.createOrganization("Other")
    const otherKey = (await server.createKey(other.id, ["*"])).key
    foreignProject = (await server.request("POST", "/api/v1/projects", { key: otherKey, body: { name: "Theirs" } })).body.data.id
  })
  afterAll(() => server.close())

  it("401: no key (WWW-Authenticate: Bearer), or an unknown one (Bearer error=\"invalid_token\")", async () => {
    const none = await server.request("GET", "/api/v1/me")
    expectWire(none, 401, `{"message":"Unauthenticated."}`)
    expect(none.headers.get("www-authenticate")).toBe("Bearer")
    const unknown = await server.request("GET", "/api/v1/me", { key: `bvm_${"x".repeat(40)}` })
    expectWire(unknown, 401, `{"message":"Unauthenticated."}`)
    expect(unknown.headers.get("www-authenticate")).toBe('Bearer error="invalid_token", error_description="The key is unknown, revoked or expired."')
  })

  it("401 for a key sent without Bearer: the same message, and what was expected in WWW-Authenticate", async () => {
    const reply = await server.request("GET", "/api/v1/me", { headers: { authorization: key } })
    expectWire(reply, 401, `{"message":"Unauthenticated."}`)
    expect(reply.headers.get("www-authenticate")).toBe(
      'Bearer error="invalid_request", error_description="The Bearer scheme is missing: send Authorization: Bearer bvm_..."'
    )
  })

  it("403: the ability the endpoint needs, named", async () => {
    const reply = await server.request("POST", "/api/v1/tags", { key: readOnlyKey, project, body: { name: "x" } })
    expectWire(reply, 403, `{"message":"This action is unauthorized.","required_ability":"tags:write"}`)
  })

  it("400: the project header missing, or not a positive integer", async () => {
    expectWire(await server.request("GET", "/api/v1/tags", { key }), 400, `{"message":"Missing required header Service-Project-Id"}`)
    expectWire(await server.request("GET", "/api/v1/tags", { key, project: "abc" }), 400, `{"message":"Invalid header Service-Project-Id"}`)
  })

  it("404: a project of another organization, by header or by path", async () => {
    expectWire(await server.request("GET", "/api/v1/tags", { key, project: foreignProject }), 404, `{"message":"Project not found"}`)
    expectWire(await server.request("GET", `/api/v1/projects/${foreignProject}`, { key }), 404, `{"message":"Project not found"}`)
  })

  it("422: the message and every field's messages", async () => {
    const reply = await server.request("POST", "/api/v1/tags", { key, project, body: { color: "red" } })
    expectWire(
      reply,
      422,
      `{"message":"The given data was invalid.","errors":{"name":["The name field is required."],"color":["The color field must be a valid hexadecimal color (#rrggbb)."]}}`
    )
  })

  it("404: a path resource absent or outside the project", async () => {
    expectWire(await server.request("GET", "/api/v1/tags/999999", { key, project }), 404, `{"message":"Tag not found"}`)
    expectWire(await server.request("DELETE", "/api/v1/prompts/999999", { key, project }), 404, `{"message":"Prompt not found"}`)
  })

  it("404: an unknown route", async () => {
    expectWire(await server.request("GET", "/api/v1/nothing-here", { key }), 404, `{"message":"Not found"}`)
  })
})

describe("error bodies on the wire: rate limit", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer("memory", { rateLimitPerMinute: 1 })
  })
  afterAll(() => server.close())

  it("429: Too Many Requests, with Retry-After and the rate-limit headers", async () => {
    const organization = await server.createOrganization()
    const { key } = await server.createKey(organization.id, ["*"])
    expect((await server.request("GET", "/api/v1/me", { key })).status).toBe(200)
    const reply = await server.request("GET", "/api/v1/me", { key })
    expectWire(reply, 429, `{"message":"Too Many Requests"}`)
    expect(Number(reply.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect(reply.headers.get("x-ratelimit-limit")).toBe("1")
    expect(reply.headers.get("x-ratelimit-remaining")).toBe("0")
  })
})

describe("error bodies on the wire: 5xx", () => {
  let server: TestServer
  /** Tags that fail: listing them dies of a bug, reading one finds the database gone. */
  const failingTags = Layer.effect(
    TagsRepo,
    Effect.map(TagsRepo, (tags) =>
      TagsRepo.of({
        ...tags,
        list: () => Effect.die(new Error("secret internals: password=hunter2")),
        find: () =>
          Effect.die(
            new SqlError.SqlError({
              cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
              message: "Failed to connect"
            })
          ) as Effect.Effect<Option.Option<never>>
      }))
  ).pipe(Layer.provide(TagsMemory.layerMemory), Layer.provide(MemoryStore.layer))

  beforeAll(async () => {
    server = await startServer("memory", {}, failingTags)
  })
  afterAll(() => server.close())

  const setup = async () => {
    const organization = await server.createOrganization()
    const { key } = await server.createKey(organization.id, ["*"])
    const project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Failing" } })).body.data.id
    return { key, project }
  }

  it("500: Server Error and the request id, nothing of the cause", async () => {
    const { key, project } = await setup()
    const reply = await server.request("GET", "/api/v1/tags", { key, project })
    const id = reply.headers.get("x-request-id")
    expectWire(reply, 500, `{"message":"Server Error","request_id":"${id}"}`)
  })

  it("503: Service Unavailable and the request id when the database cannot be reached", async () => {
    const { key, project } = await setup()
    const reply = await server.request("GET", "/api/v1/tags/1", { key, project })
    const id = reply.headers.get("x-request-id")
    expectWire(reply, 503, `{"message":"Service Unavailable","request_id":"${id}"}`)
  })
})

describe.each([sqlBackend])("error bodies on the wire: a stored row its schema rejects (%s)", (backend) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer(backend)
  })
  afterAll(() => server.close())

  // Rows are decoded with the domain schemas (src/Database/Rows.ts): a row written around the API that
  // no longer fits is a defect, answered 500 like any bug, never passed on half-valid.
  it("500: Server Error, for a monitor whose stored platforms the API does not know", async () => {
    const organization = await server.createOrganization()
    const { key } = await server.createKey(organization.id, ["*"])
    const project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Rows" } })).body.data.id
    const monitor = (await server.request("POST", "/api/v1/monitors", { key, project, body: { name: "US", country: "US", platforms: ["chatgpt"] } })).body.data
    expect((await server.request("GET", `/api/v1/monitors/${monitor.id}`, { key, project })).status).toBe(200)
    await server.sql!(`UPDATE monitors SET platforms = '{myspace}' WHERE id = ${monitor.id}`)
    const reply = await server.request("GET", `/api/v1/monitors/${monitor.id}`, { key, project })
    expectWire(reply, 500, `{"message":"Server Error","request_id":"${reply.headers.get("x-request-id")}"}`)
  })
})
