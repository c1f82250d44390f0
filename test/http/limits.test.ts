import * as Net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MAX_BODY_BYTES, MAX_JSON_DEPTH, nestsDeeperThan } from "../../src/Http/RequestBody.ts"
import { backends, startServer, type Reply, type TestServer } from "../support/TestServer.ts"

/**
 * The input limits of docs/security.md: every request that a hostile or careless client can make is
 * answered with a 4xx in the documented shape, before it can cost the server its memory or a 500.
 * Each case here was a defect: a body of any size parsed, a NUL or a deep nesting giving 500, a
 * multipart body giving 500 or no answer, `;` ending the path, an empty 431, a huge project id
 * giving 400, year 0000 valid on one endpoint and not another, lists without bounds.
 */

const INVALID = "The given data was invalid."

const expectMessage = (reply: Reply, status: number, message: string) => {
  expect(reply.status).toBe(status)
  expect(reply.body).toEqual({ message })
}

const expectFieldError = (reply: Reply, field: string, text: string) => {
  expect(reply.status).toBe(422)
  expect(reply.body.message).toBe(INVALID)
  expect(reply.body.errors[field]).toEqual([text])
}

/** One raw HTTP/1.1 exchange: what `fetch` would never send (a `;` left in the path, a lying body). */
const rawRequest = (baseUrl: string, head: string, body = ""): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = Net.connect({ host: hostname, port: Number(port) })
    let received = ""
    socket.setEncoding("utf8")
    socket.on("data", (chunk) => (received += chunk))
    socket.on("error", reject)
    socket.on("close", () => {
      const [header = "", ...rest] = received.split("\r\n\r\n")
      resolve({ status: Number(header.split(" ")[1]), body: rest.join("\r\n\r\n") })
    })
    socket.write(head + "\r\n\r\n" + body)
  })

describe("JSON nesting, counted on the raw text", () => {
  it("counts arrays and objects, not brackets inside strings", () => {
    expect(nestsDeeperThan(`{"a":[[1]]}`, 3)).toBe(false)
    expect(nestsDeeperThan(`{"a":[[[1]]]}`, 3)).toBe(true)
    expect(nestsDeeperThan(`{"a":"[[[[[[\\"[[[["}`, 1)).toBe(false)
    expect(nestsDeeperThan("[".repeat(100_000), MAX_JSON_DEPTH)).toBe(true)
  })
})

describe.each(backends)("input limits (%s)", (backend) => {
  let server: TestServer
  let key: string
  let project: number
  let prompt: number

  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization()
    key = (await server.createKey(organization.id, ["*"])).key
    project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Limits" } })).body.data.id
    const monitor = (await server.request("POST", "/api/v1/monitors", {
      key,
      project,
      body: { name: "M", country: "US", platforms: ["chatgpt"] }
    })).body.data.id
    prompt = (await server.request("POST", "/api/v1/prompts", { key, project, body: { monitor_id: monitor, text: "Best CRM?" } }))
      .body.data.id
  })
  afterAll(() => server.close())

  const post = (path: string, rawBody: string, contentType = "application/json") =>
    server.request("POST", path, { key, project, rawBody, headers: { "content-type": contentType } })

  describe("the body", () => {
    it("over 1 MiB by its Content-Length is 413 before anything is read", async () => {
      const body = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES) })
      expectMessage(await post("/api/v1/tags", body), 413, `The request body must not be larger than ${MAX_BODY_BYTES} bytes.`)
    })

    it("streamed without a length is cut off at 1 MiB with 413", async () => {
      const chunk = new TextEncoder().encode("x".repeat(64 * 1024))
      const response = await fetch(`${server.baseUrl}/api/v1/tags`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "service-project-id": String(project), "content-type": "application/json" },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < 20; i++) controller.enqueue(chunk)
            controller.close()
          }
        }),
        duplex: "half"
      } as RequestInit)
      expect(response.status).toBe(413)
      expect(await response.json()).toEqual({ message: `The request body must not be larger than ${MAX_BODY_BYTES} bytes.` })
    })

    it("of a form, multipart or plain text is 415, a truncated multipart body included", async () => {
      const message = "The request body must be JSON, sent with Content-Type: application/json."
      expectMessage(await post("/api/v1/tags", `{"name":"x"}`, "multipart/form-data; boundary=XX"), 415, message)
      expectMessage(await post("/api/v1/tags", "--XX\r\nContent-Disp", "multipart/form-data; boundary=XX"), 415, message)
      expectMessage(await post("/api/v1/tags", "name=x", "application/x-www-form-urlencoded"), 415, message)
      expectMessage(await post("/api/v1/tags", `{"name":"x"}`, "text/plain"), 415, message)
      const tags = await server.request("GET", "/api/v1/tags", { key, project })
      expect(tags.body.data.map((tag: { name: string }) => tag.name)).not.toContain("x")
    })

    it("as JSON with a charset, or without a Content-Type, is read as JSON", async () => {
      expect((await post("/api/v1/tags", `{"name":"charset"}`, "application/json; charset=utf-8")).status).toBe(201)
      const body = `{"name":"bare"}`
      const bare = await rawRequest(
        server.baseUrl,
        `POST /api/v1/tags HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nService-Project-Id: ${project}\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close`,
        body
      )
      expect(bare.status).toBe(201)
    })

    it("nested deeper than the limit is 400, in any field", async () => {
      const message = `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`
      const deep = "[".repeat(100_000) + "]".repeat(100_000)
      expectMessage(await post("/api/v1/tags", `{"name":${deep}}`), 400, message)
      expectMessage(await post("/api/v1/monitors", `{"name":"m","country":"US","platforms":${deep}}`), 400, message)
      expectMessage(await post("/api/v1/monitors", `{"name":"m","country":"US","platforms":["chatgpt"],"schedule":${deep}}`), 400, message)
      expectMessage(await post("/api/v1/projects", `{"name":"p","domain":${deep}}`), 400, message)
    })
  })

  describe("strings", () => {
    const nulMessage = (field: string) => `The ${field} field must be valid Unicode text without NUL characters.`

    it("with a NUL are refused with 422 wherever they would be stored", async () => {
      expectFieldError(await server.request("POST", "/api/v1/tags", { key, project, body: { name: "a\u0000b" } }), "name", nulMessage("name"))
      expectFieldError(
        await server.request("POST", "/api/v1/brands", { key, project, body: { name: "Acme", aliases: ["A\u0000"] } }),
        "aliases.0",
        nulMessage("aliases item")
      )
      expectFieldError(
        await server.request("POST", "/api/v1/responses", { key, project, body: { prompt_id: prompt, platform: "chatgpt", text: "x\u0000" } }),
        "text",
        nulMessage("text")
      )
      const citation = await server.request("POST", "/api/v1/responses", {
        key,
        project,
        body: { prompt_id: prompt, platform: "chatgpt", text: "x", citations: ["https://acme.com/\u0000"] }
      })
      expectFieldError(citation, "citations.0", "The citation must be valid Unicode text without NUL characters.")
      expectFieldError(
        await server.request("PATCH", `/api/v1/prompts/${prompt}`, { key, project, body: { text: "\u0000" } }),
        "text",
        nulMessage("text")
      )
    })

    it("with a lone surrogate are refused with 422, a whole pair is kept", async () => {
      expectFieldError(await post("/api/v1/tags", `{"name":"a\\ud800b"}`), "name", nulMessage("name"))
      const emoji = await post("/api/v1/tags", `{"name":"\\ud83d\\ude00"}`)
      expect(emoji.status).toBe(201)
      expect(emoji.body.data.name).toBe("\u{1F600}")
    })
  })

  describe("lists", () => {
    const many = (n: number, item: (i: number) => unknown) => Array.from({ length: n }, (_, i) => item(i))

    it("a brand takes at most 50 aliases and 50 domains", async () => {
      const brand = (body: object) => server.request("POST", "/api/v1/brands", { key, project, body: { name: "Big", ...body } })
      expectFieldError(await brand({ aliases: many(51, (i) => `alias ${i}`) }), "aliases", "The aliases field must not have more than 50 items.")
      expectFieldError(await brand({ domains: many(51, (i) => `d${i}.com`) }), "domains", "The domains field must not have more than 50 items.")
      const atLimit = await brand({ aliases: many(50, (i) => `alias ${i}`), domains: many(50, (i) => `d${i}.com`) })
      expect(atLimit.status).toBe(201)
      expect(atLimit.body.data.aliases).toHaveLength(50)
    })

    it("a prompt takes at most 100 tag ids, a brand 100 segment ids, a monitor 100 platform names", async () => {
      const prompts = await server.request("PATCH", `/api/v1/prompts/${prompt}`, { key, project, body: { tags: many(101, () => 1) } })
      expectFieldError(prompts, "tags", "The tags field must not have more than 100 items.")
      const brand = await server.request("POST", "/api/v1/brands", { key, project, body: { name: "S", segment_ids: many(101, () => 1) } })
      expectFieldError(brand, "segment_ids", "The segment ids field must not have more than 100 items.")
      const monitor = await server.request("POST", "/api/v1/monitors", {
        key,
        project,
        body: { name: "M", country: "US", platforms: many(101, () => "chatgpt") }
      })
      expectFieldError(monitor, "platforms", "The platforms field must not have more than 100 items.")
    })

    it("a response takes at most 100 citations", async () => {
      const reply = await server.request("POST", "/api/v1/responses", {
        key,
        project,
        body: { prompt_id: prompt, platform: "chatgpt", text: "x", citations: many(101, (i) => `https://s${i}.com/`) }
      })
      expectFieldError(reply, "citations", "The citations field must not have more than 100 items.")
    })
  })

  describe("identifiers", () => {
    it("a path with ; or # is no route: 404, and nothing is touched", async () => {
      const deleted = await rawRequest(
        server.baseUrl,
        `DELETE /api/v1/prompts/${prompt};x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nService-Project-Id: ${project}\r\nConnection: close`
      )
      expect(deleted.status).toBe(404)
      expect(JSON.parse(deleted.body)).toEqual({ message: "Not found" })
      const hash = await rawRequest(
        server.baseUrl,
        `GET /api/v1/projects/${project}#x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close`
      )
      expect(hash.status).toBe(404)
      expect((await server.request("GET", `/api/v1/prompts/${prompt}`, { key, project })).status).toBe(200)
    })

    it("a Service-Project-Id too large for any id is 404 Project not found, not 400", async () => {
      expectMessage(await server.request("GET", "/api/v1/tags", { key, project: "9223372036854775807" }), 404, "Project not found")
      expectMessage(await server.request("GET", "/api/v1/tags", { key, project: "-1" }), 400, "Invalid header Service-Project-Id")
    })

    it("ids too large for any row are invalid selections, in a body and in a query", async () => {
      const body = await server.request("POST", "/api/v1/responses", {
        key,
        project,
        rawBody: `{"prompt_id": 9223372036854775807, "platform": "chatgpt", "text": "x"}`,
        headers: { "content-type": "application/json" }
      })
      expectFieldError(body, "prompt_id", "The selected prompt id is invalid.")
      const query = await server.request("GET", "/api/v1/responses?monitor_id=9223372036854775807", { key, project })
      expectFieldError(query, "monitor_id", "The selected monitor id is invalid.")
    })
  })

  it("a calendar date of year 0000 is valid on /responses as on analytics", async () => {
    const today = new Date().toISOString().slice(0, 10)
    const responses = await server.request("GET", `/api/v1/responses?start_date=0000-01-01&end_date=${today}`, { key, project })
    expect(responses.status).toBe(200)
    const analytics = await server.request("GET", `/api/v1/analytics/sources?start_date=0000-01-01&end_date=${today}`, { key, project })
    expect(analytics.status).toBe(200)
  })

  it("headers over 16 KiB get 431 with a JSON body", async () => {
    const reply = await rawRequest(server.baseUrl, `GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\nConnection: close`)
    expect(reply.status).toBe(431)
    expect(JSON.parse(reply.body)).toEqual({ message: "Request Header Fields Too Large" })
    const url = await rawRequest(server.baseUrl, `GET /api/v1/me?x=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close`)
    expect(url.status).toBe(431)
  })

  it("after all of it, the server still answers", async () => {
    expect((await server.request("GET", "/api/v1/me", { key })).status).toBe(200)
  })
})
