import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type TestServer } from "../support/TestServer.ts"

/**
 * The OpenAPI document promises, for each operation, only what it can answer (docs/api.md, "Errors"):
 * a 404 where a path id can be missing or the project header names a project, a 422 where there is a
 * query or a body to validate. Every operation with a path id or a body declares them.
 */
describe("the errors each operation of the OpenAPI document declares", () => {
  let server: TestServer
  let operations: Array<{ readonly name: string; readonly operation: any }>
  beforeAll(async () => {
    server = await startServer("memory")
    const spec = (await server.request("GET", "/api/v1/openapi.json")).body
    operations = Object.entries<Record<string, any>>(spec.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation }))
    )
  })
  afterAll(() => server.close())

  const parameters = (operation: any, where: string): Array<any> =>
    (operation.parameters ?? []).filter((parameter: any) => parameter.in === where)

  it("reads the whole API", () => {
    expect(operations.length).toBeGreaterThan(50)
  })

  it("declares a 404 only with a path id or the project header, and always with them", () => {
    const wrong = operations.filter(({ operation }) => {
      const pathId = parameters(operation, "path").length > 0
      const projectHeader = parameters(operation, "header").some((parameter) => parameter.name === "service-project-id")
      return (operation.responses["404"] !== undefined) !== (pathId || projectHeader)
    })
    expect(wrong.map(({ name }) => name)).toEqual([])
  })

  it("declares a 422 only with a query or a body, and always with a body", () => {
    const wrong = operations.filter(({ operation }) => {
      const query = parameters(operation, "query").length > 0
      const body = operation.requestBody !== undefined
      const declared = operation.responses["422"] !== undefined
      return (declared && !query && !body) || (body && !declared)
    })
    expect(wrong.map(({ name }) => name)).toEqual([])
  })

  it("declares the key's refusals and the server's failures on every operation", () => {
    for (const { name, operation } of operations) {
      for (const status of ["401", "403", "429", "500", "503"]) expect(operation.responses[status], `${name} ${status}`).toBeDefined()
    }
  })
})
