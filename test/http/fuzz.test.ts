import * as Net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Fixture, makeFixture } from "../support/Endpoints.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Malformed input to every operation of the OpenAPI document, generated from it: bad JSON, wrong
 * types, huge and deeply nested values, NUL and lone surrogates, overflowing numbers, odd content
 * types, odd path segments, odd query values and project headers. Whatever comes in, the answer is
 * never a 5xx, always arrives, and any 4xx has the documented error shape.
 */

interface Operation {
  readonly method: string
  readonly path: string
  readonly pathParams: ReadonlyArray<string>
  readonly queryParams: ReadonlyArray<string>
  readonly projectScoped: boolean
  readonly bodyProperties: ReadonlyArray<string> | undefined
}

/** A request to make: the raw pieces, sent as they are. */
interface Attempt {
  readonly label: string
  readonly method: string
  /** Path and query, sent verbatim in the request line. */
  readonly target: string
  readonly headers: Record<string, string>
  readonly body?: string
}

/** The operations of the document, with what a request to each can carry. */
const operationsOf = (document: any): ReadonlyArray<Operation> => {
  const resolve = (schema: any): any => schema?.$ref ? resolve(document.components.schemas[schema.$ref.split("/").at(-1)]) : schema
  const operations: Array<Operation> = []
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const parameters: Array<any> = operation.parameters ?? []
      const body = resolve(operation.requestBody?.content?.["application/json"]?.schema)
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === "query").map((p) => p.name),
        projectScoped: parameters.some((p) => p.in === "header" && p.name.toLowerCase() === "service-project-id"),
        bodyProperties: body === undefined ? undefined : Object.keys(body.properties ?? {})
      })
    }
  }
  return operations
}

const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth)

/** JSON texts of odd values, for a body property. */
const oddValues: ReadonlyArray<readonly [string, string]> = [
  ["a number", "123"],
  ["a string", `"text"`],
  ["true", "true"],
  ["an array", "[]"],
  ["an object", "{}"],
  ["null", "null"],
  ["1e308", "1e308"],
  ["-1", "-1"],
  ["0", "0"],
  ["-0", "-0"],
  ["1.5", "1.5"],
  ["2^53 + 1", "9007199254740993"],
  ["2^63 - 1", "9223372036854775807"],
  ["a NUL", `"a\\u0000b"`],
  ["a lone surrogate", `"a\\ud800b"`],
  ["an array holding a NUL", `["\\u0000"]`],
  ["300,000 characters", JSON.stringify("x".repeat(300_000))],
  ["100,000 items", `[${Array(100_000).fill("1").join(",")}]`],
  ["100,000-deep nesting", deep(100_000)],
  ["a deep object", `${`{"a":`.repeat(1000)}1${"}".repeat(1000)}`]
]

const oddSegments = ["0", "-1", "1.5", "abc", "%00", "9223372036854775807", "99999999999999999999999", "x".repeat(5000), "41;x", "41#x"]

const oddQueryValues = ["%00", "9223372036854775807", "-1", "abc", "x".repeat(5000), "%ED%A0%80"]

const oddProjectHeaders = ["9223372036854775807", "-1", "1e3", "0", "abc", "1.5"]

/** One raw HTTP/1.1 exchange, with a bound on how long it may take. */
const send = (baseUrl: string, attempt: Attempt): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = Net.connect({ host: hostname, port: Number(port) })
    const chunks: Array<Buffer> = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`${attempt.label}: no answer within 10 s`))
    }, 10_000)
    socket.on("data", (chunk) => chunks.push(chunk))
    socket.on("error", (error) => {
      clearTimeout(timer)
      reject(new Error(`${attempt.label}: ${error.message}`))
    })
    socket.on("close", () => {
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString("utf8")
      const [head = "", ...rest] = text.split("\r\n\r\n")
      resolve({ status: Number(head.split(" ")[1]), body: rest.join("\r\n\r\n") })
    })
    const body = attempt.body === undefined ? undefined : Buffer.from(attempt.body, "utf8")
    const headers = {
      host: "localhost",
      connection: "close",
      ...attempt.headers,
      ...(body === undefined || "content-length" in attempt.headers ? {} : { "content-length": String(body.length) })
    }
    socket.write(`${attempt.method} ${attempt.target} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n\r\n`)
    if (body !== undefined) socket.write(body)
  })

/** The documented error shape of a 4xx. */
const checkErrorShape = (label: string, status: number, text: string) => {
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error(`${label}: ${status} with a body that is not JSON: ${text.slice(0, 200)}`)
  }
  expect(typeof body?.message, `${label}: ${status} ${text.slice(0, 200)}`).toBe("string")
  if (status === 422) {
    expect(typeof body.errors, label).toBe("object")
    for (const [field, messages] of Object.entries(body.errors)) {
      expect(Array.isArray(messages), `${label}: errors.${field}`).toBe(true)
      for (const message of messages as Array<unknown>) expect(typeof message, `${label}: errors.${field}`).toBe("string")
    }
  }
  if (status === 403) expect(typeof body.required_ability, label).toBe("string")
}

describe.each(backends)("fuzzing every operation (%s)", (backend) => {
  let server: TestServer
  let key: string
  let fixture: Fixture
  let operations: ReadonlyArray<Operation>

  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization()
    key = (await server.createKey(organization.id, ["*"])).key
    fixture = await makeFixture(server, key)
    operations = operationsOf((await server.request("GET", "/api/v1/openapi.json")).body)
  })
  afterAll(() => server.close())

  /** A path with every parameter named by the fixture, except `odd` for `param`. */
  const pathOf = (operation: Operation, param?: string, odd?: string) =>
    operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === param ? odd! : String(fixture[name as keyof Fixture] ?? fixture.project))

  const baseHeaders = (operation: Operation): Record<string, string> => ({
    authorization: `Bearer ${key}`,
    ...(operation.projectScoped ? { "service-project-id": String(fixture.project) } : {})
  })

  /** What to send to one operation. DELETEs only ever get odd paths: their fixture must stay. */
  const attemptsOf = (operation: Operation): Array<Attempt> => {
    const name = `${operation.method} ${operation.path}`
    const attempts: Array<Attempt> = []
    const json = { ...baseHeaders(operation), "content-type": "application/json" }
    for (const param of operation.pathParams) {
      for (const odd of oddSegments) {
        attempts.push({ label: `${name} with {${param}} = ${odd.slice(0, 30)}`, method: operation.method, target: pathOf(operation, param, odd), headers: baseHeaders(operation) })
      }
    }
    if (operation.method === "DELETE") return attempts
    const path = pathOf(operation)
    if (operation.projectScoped) {
      for (const header of oddProjectHeaders) {
        attempts.push({ label: `${name} with Service-Project-Id ${header}`, method: operation.method, target: path, headers: { ...baseHeaders(operation), "service-project-id": header } })
      }
    }
    for (const param of operation.queryParams) {
      for (const value of oddQueryValues) {
        attempts.push({ label: `${name}?${param}=${value.slice(0, 30)}`, method: operation.method, target: `${path}?${param}=${value}`, headers: baseHeaders(operation) })
        attempts.push({ label: `${name}?${param}[]=${value.slice(0, 30)} twice`, method: operation.method, target: `${path}?${param}[]=${value}&${param}[]=${value}`, headers: baseHeaders(operation) })
      }
      attempts.push({
        label: `${name}?${param}[] repeated 1,000 times`,
        method: operation.method,
        target: `${path}?${Array.from({ length: 1000 }, (_, i) => `${param}[]=${i}`).join("&")}`,
        headers: baseHeaders(operation)
      })
    }
    if (operation.bodyProperties === undefined) return attempts
    const raw: ReadonlyArray<readonly [string, string, string]> = [
      ["no body", "", "application/json"],
      ["truncated JSON", `{"name": "x`, "application/json"],
      ["not JSON", "hello", "application/json"],
      ["a JSON array", "[1, 2]", "application/json"],
      ["a JSON string", `"text"`, "application/json"],
      ["JSON null", "null", "application/json"],
      ["100,000-deep nesting", deep(100_000), "application/json"],
      ["JSON with a charset", "{}", "application/json; charset=utf-8"],
      ["multipart with JSON", `{"name":"x"}`, "multipart/form-data; boundary=XX"],
      ["truncated multipart", "--XX\r\nContent-Disp", "multipart/form-data; boundary=XX"],
      ["plain text", `{"name":"x"}`, "text/plain"],
      ["a form", "name=x", "application/x-www-form-urlencoded"]
    ]
    for (const [label, body, contentType] of raw) {
      attempts.push({ label: `${name} with ${label}`, method: operation.method, target: path, headers: { ...json, "content-type": contentType }, body })
    }
    for (const property of operation.bodyProperties) {
      for (const [label, value] of oddValues) {
        attempts.push({ label: `${name} with ${property} = ${label}`, method: operation.method, target: path, headers: json, body: `{"${property}": ${value}}` })
      }
    }
    return attempts
  }

  it("answers every malformed request with a 4xx (or a success) in the documented shape, never a 5xx, never a hang", async () => {
    expect(operations.length).toBeGreaterThan(40)
    const failures: Array<string> = []
    let sent = 0
    for (const operation of operations) {
      for (const attempt of attemptsOf(operation)) {
        sent++
        const reply = await send(server.baseUrl, attempt)
        if (!(reply.status >= 200 && reply.status < 500)) {
          failures.push(`${attempt.label}: ${reply.status} ${reply.body.slice(0, 200)}`)
          continue
        }
        if (reply.status >= 400) {
          try {
            checkErrorShape(attempt.label, reply.status, reply.body)
          } catch (error) {
            failures.push(String(error))
          }
        }
      }
    }
    expect(failures).toEqual([])
    expect(sent).toBeGreaterThan(1000)
    // Still serving, with its fixture's project intact.
    expect((await server.request("GET", `/api/v1/projects/${fixture.project}`, { key })).status).toBe(200)
  }, 240_000)

  it("refuses a 100 MB body with 413 without reading it into memory", async () => {
    const before = process.memoryUsage().rss
    const reply = await send(server.baseUrl, {
      label: "POST /api/v1/tags with 100 MB",
      method: "POST",
      target: "/api/v1/tags",
      headers: { ...baseHeaders({ projectScoped: true } as Operation), "content-type": "application/json", "content-length": String(100 * 2 ** 20) },
      body: `{"name": "${"x".repeat(1024)}`
    })
    expect(reply.status).toBe(413)
    expect(JSON.parse(reply.body)).toEqual({ message: "The request body must not be larger than 1048576 bytes." })
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 2 ** 20)
    expect((await server.request("GET", "/health")).status).toBe(200)
  })
})
