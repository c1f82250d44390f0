import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * A path names a route only when it is the route's path exactly (docs/api.md, "Errors"): another case,
 * a doubled slash or a trailing slash is `404 Not found`, as any unknown path, and acts on nothing.
 * The router's defaults ignored all three: `DELETE /api/v1/PROMPTS/38/tags/146` detached the tag.
 */
describe.each(backends)("route matching (%s)", (backend) => {
  let server: TestServer
  let key: string
  let project: number
  let prompt: number
  let tag: number

  beforeAll(async () => {
    server = await startServer(backend)
    key = (await server.createKey((await server.createOrganization()).id, ["*"])).key
    project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Routes" } })).body.data.id
    tag = (await server.request("POST", "/api/v1/tags", { key, project, body: { name: "Exact" } })).body.data.id
    const monitor = (await server.request("POST", "/api/v1/monitors", {
      key,
      project,
      body: { name: "M", country: "US", platforms: ["chatgpt"] }
    })).body.data.id
    prompt = (await server.request("POST", "/api/v1/prompts", { key, project, body: { monitor_id: monitor, text: "Best CRM?", tags: [tag] } }))
      .body.data.id
  })
  afterAll(() => server.close())

  const tagsOfPrompt = async () =>
    ((await server.request("GET", `/api/v1/prompts/${prompt}`, { key, project })).body.data.tags as Array<{ id: number }>).map((t) => t.id)

  it("is 404 Not found for another case, a doubled slash or a trailing slash, and changes nothing", async () => {
    const variants = [
      `/api/v1/PROMPTS/${prompt}/tags/${tag}`,
      `/API/v1/prompts/${prompt}/tags/${tag}`,
      `/api/v1/prompts/${prompt}/Tags/${tag}`,
      `/api/v1//prompts/${prompt}/tags/${tag}`,
      `//api/v1/prompts/${prompt}/tags/${tag}`,
      `/api/v1/prompts/${prompt}//tags/${tag}`,
      `/api/v1/prompts/${prompt}/tags/${tag}/`
    ]
    for (const path of variants) {
      const reply = await server.request("DELETE", path, { key, project })
      expect([path, reply.status, reply.body]).toEqual([path, 404, { message: "Not found" }])
    }
    expect(await tagsOfPrompt()).toEqual([tag])
    // The exact path detaches it.
    expect((await server.request("DELETE", `/api/v1/prompts/${prompt}/tags/${tag}`, { key, project })).status).toBe(200)
    expect(await tagsOfPrompt()).toEqual([])
  })

  it("holds for reads and for the routes beside the API", async () => {
    for (const path of ["/api/v1/Tags", "/api/v1/tags/", "/api/v1//tags", "/api//v1/tags", "/api/v1/ME", "/Health", "/health/", "/READY", "/docs/", "/api/v1/openapi.json/"]) {
      const reply = await server.request("GET", path, { key, project })
      expect([path, reply.status, reply.body]).toEqual([path, 404, { message: "Not found" }])
    }
    for (const path of ["/api/v1/tags", "/api/v1/tags?page=1", "/api/v1/me", "/health", "/ready", "/api/v1/openapi.json"]) {
      expect([path, (await server.request("GET", path, { key, project })).status]).toEqual([path, 200])
    }
  })

  it("answers 405 only on a path that is a route exactly; a near miss stays 404", async () => {
    expect((await server.request("PUT", "/api/v1/tags", { key })).status).toBe(405)
    for (const path of ["/api/v1/tags/", "/api/v1/Tags", "/api/v1//tags"]) {
      const reply = await server.request("PUT", path, { key })
      expect([path, reply.status, reply.headers.get("allow")]).toEqual([path, 404, null])
    }
  })
})
