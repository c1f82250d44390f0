import * as Net from "node:net"
import { Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { contentSecurityPolicy } from "../../src/Web/Site.ts"
import { startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Every answer carries hardening headers (docs/security.md, "Headers"): the API's JSON, its errors,
 * health, metrics and Node's own refusals forbid a browser to run, load or frame anything from them and
 * to guess their type; the pages (the dashboard, /docs) keep policies of their own. The API's answers
 * had none.
 */

const API_POLICY = "default-src 'none'; frame-ancestors 'none'"

const expectApiHeaders = (what: string, headers: Headers) => {
  expect([what, headers.get("content-security-policy")]).toEqual([what, API_POLICY])
  expect([what, headers.get("x-content-type-options")]).toEqual([what, "nosniff"])
  expect([what, headers.get("x-frame-options")]).toEqual([what, "DENY"])
  expect([what, headers.get("referrer-policy")]).toEqual([what, "no-referrer"])
}

describe("hardening headers", () => {
  let server: TestServer
  let key: string
  let project: number

  beforeAll(async () => {
    server = await startServer("memory", { metrics: true, metricsToken: Option.some(Redacted.make("scrape")) })
    key = (await server.createKey((await server.createOrganization()).id, ["*"])).key
    project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Headers" } })).body.data.id
  })
  afterAll(() => server.close())

  it("are on every answer of the API, its errors included", async () => {
    const replies = {
      "200": await server.request("GET", "/api/v1/tags", { key, project }),
      "201": await server.request("POST", "/api/v1/tags", { key, project, body: { name: "Headed" } }),
      "400": await server.request("POST", "/api/v1/tags", { key, project, rawBody: "{", headers: { "content-type": "application/json" } }),
      "401": await server.request("GET", "/api/v1/me"),
      "403": await server.request("GET", "/api/v1/tags", { key: (await server.createKey((await server.createOrganization()).id, ["projects:read"])).key, project }),
      "404 route": await server.request("GET", "/api/v1/nothing"),
      "404 row": await server.request("GET", "/api/v1/tags/99999", { key, project }),
      "405": await server.request("PUT", "/api/v1/tags", { key }),
      "413": await server.request("POST", "/api/v1/tags", { key, project, rawBody: "x".repeat(2 * 1024 * 1024) }),
      "415": await server.request("POST", "/api/v1/tags", { key, project, rawBody: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } }),
      "422": await server.request("POST", "/api/v1/tags", { key, project, body: {} }),
      "204": await server.request("DELETE", `/api/v1/tags/${(await server.request("POST", "/api/v1/tags", { key, project, body: { name: "Gone" } })).body.data.id}`, { key, project }),
      "health": await server.request("GET", "/health"),
      "ready": await server.request("GET", "/ready"),
      "metrics": await server.request("GET", "/metrics", { headers: { authorization: "Bearer scrape" } }),
      "metrics 401": await server.request("GET", "/metrics"),
      "openapi": await server.request("GET", "/api/v1/openapi.json")
    }
    for (const [what, reply] of Object.entries(replies)) {
      expect([what, reply.status]).toEqual([what, Number(what.slice(0, 3)) || reply.status])
      expectApiHeaders(what, reply.headers)
    }
  })

  it("are on Node's own refusals too (a 431 here; its 400 and 408 are written alike)", async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(server.baseUrl)
      const socket = Net.connect({ host: hostname, port: Number(port) })
      let received = ""
      socket.setEncoding("utf8")
      socket.on("data", (chunk) => (received += chunk))
      socket.on("error", reject)
      socket.on("close", () => resolve(received))
      socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`)
    })
    const [head = "", body] = raw.split("\r\n\r\n")
    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 431 Request Header Fields Too Large")
    const headers = new Headers(head.split("\r\n").slice(1).map((line) => line.split(/:\s*/, 2) as [string, string]))
    expectApiHeaders("431", headers)
    expect(JSON.parse(body!)).toEqual({ message: "Request Header Fields Too Large" })
  })

  it("leave the dashboard's own policy as it is", async () => {
    // Built or not (503 then), the dashboard's answers carry its policy, not the API's.
    const reply = await fetch(`${server.baseUrl}/sign-in`)
    expect(reply.headers.get("content-security-policy")).toBe(contentSecurityPolicy)
    expect(reply.headers.get("x-frame-options")).toBe("DENY")
  })
})
