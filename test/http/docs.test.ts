import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { endpoints } from "../support/Endpoints.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

describe.each(backends)("docs, health and readiness (%s)", (backend) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer(backend)
  })
  afterAll(() => server.close())

  it("serves an OpenAPI document describing every endpoint", async () => {
    const reply = await server.request("GET", "/api/v1/openapi.json")
    expect(reply.status).toBe(200)
    const spec = reply.body
    expect(spec.openapi).toMatch(/^3\./)
    expect(spec.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" })
    for (const endpoint of endpoints) {
      const path = endpoint.name.split(" ")[1]!
      const operation = spec.paths[`/api/v1${path}`]?.[endpoint.method.toLowerCase()]
      expect(operation, endpoint.name).toBeDefined()
      expect(operation.summary, endpoint.name).toBeTruthy()
      expect(operation.description, endpoint.name).toBeTruthy()
      expect(operation.security, endpoint.name).toEqual([{ bearer: [] }])
      const header = operation.parameters?.find((parameter: any) => parameter.in === "header" && parameter.name === "service-project-id")
      expect(header !== undefined, endpoint.name).toBe(endpoint.projectScoped)
      if (endpoint.ability !== null) expect(operation.description, endpoint.name).toContain(endpoint.ability)
      const success = operation.responses[String(endpoint.success)]
      expect(success, endpoint.name).toBeDefined()
      // A JSON body shows an example; the one raw body (a log upload) is described as binary.
      const body = operation.requestBody?.content
      if (body) {
        if (body["application/json"]) expect(body["application/json"].schema.examples?.length, endpoint.name).toBeGreaterThan(0)
        else expect(body["application/octet-stream"].schema, endpoint.name).toEqual({ type: "string", format: "binary" })
      }
    }
    expect(JSON.stringify(spec)).not.toContain("HttpApiDecodeError")
  })

  it("the OpenAPI document shows a response's answer details, and the optional ones POST /responses takes", async () => {
    const spec = (await server.request("GET", "/api/v1/openapi.json")).body
    const details = ["model", "answer_state", "finish_reason", "input_tokens", "output_tokens", "cost_usd", "search_queries", "retrieved_urls"]
    const response = spec.components.schemas.Response
    for (const field of details) expect(response.properties[field], field).toBeDefined()
    expect(response.required).toEqual(expect.arrayContaining(details))
    expect(JSON.stringify(response.properties.answer_state)).toContain("no_answer")
    const body = spec.paths["/api/v1/responses"].post.requestBody.content["application/json"].schema
    const resolved = body.$ref === undefined ? body : spec.components.schemas[body.$ref.split("/").pop()]
    for (const field of details) expect(resolved.properties[field], field).toBeDefined()
    expect(resolved.required).not.toEqual(expect.arrayContaining(["answer_state"]))
    expect(resolved.properties.retrieved_urls).toMatchObject({ type: "array", maxItems: 200 })
  })

  it("serves a docs page that loads nothing from the internet", async () => {
    const reply = await server.request("GET", "/docs")
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toContain("text/html")
    expect(reply.text).not.toMatch(/<script[^>]+src=["']https?:/)
    expect(reply.text).not.toMatch(/<link[^>]+href=["']https?:/)
    expect(reply.text).toContain("Brand Visibility Monitoring API")
  })

  it("answers /health and /ready", async () => {
    expect(await server.request("GET", "/health")).toMatchObject({ status: 200, body: { status: "ok" } })
    expect(await server.request("GET", "/ready")).toMatchObject({ status: 200, body: { status: "ready" } })
  })
})
