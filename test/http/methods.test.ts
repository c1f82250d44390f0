import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/** A known path asked with a method it does not serve is 405 with `Allow`; an unknown path stays 404. */
describe.each(backends)("methods (%s)", (backend) => {
  let server: TestServer
  let key: string
  beforeAll(async () => {
    server = await startServer(backend)
    key = (await server.createKey((await server.createOrganization()).id, ["*"])).key
  })
  afterAll(() => server.close())

  it("answers 405 with the methods the path serves", async () => {
    const list = await server.request("PUT", "/api/v1/tags", { key })
    expect(list.status).toBe(405)
    expect(list.body).toEqual({ message: "Method Not Allowed" })
    expect(list.headers.get("allow")).toBe("GET, POST")
    const one = await server.request("POST", "/api/v1/tags/12", { key })
    expect(one.status).toBe(405)
    expect(one.headers.get("allow")).toBe("GET, PATCH, DELETE")
  })

  it("before authentication, like routing", async () => {
    const reply = await server.request("DELETE", "/api/v1/me")
    expect(reply.status).toBe(405)
    expect(reply.headers.get("allow")).toBe("GET")
  })

  it("keeps 404 Not found for a path the API does not have", async () => {
    const reply = await server.request("GET", "/api/v1/nothing-here", { key })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({ message: "Not found" })
  })
})
