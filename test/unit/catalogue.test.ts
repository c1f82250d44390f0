import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "vitest"
import { Api } from "../../src/Api.ts"
import { endpoints } from "../support/Endpoints.ts"

/**
 * The catalogue the abilities and tenancy suites sweep (test/support/Endpoints.ts) names every endpoint
 * of the Api declaration, and nothing else: a new endpoint left out of it fails here instead of
 * escaping both suites silently.
 */
describe("the endpoint catalogue of the tests", () => {
  it("is exactly the endpoints of the Api", () => {
    const declared: Array<string> = []
    HttpApi.reflect(Api, {
      onGroup: () => {},
      onEndpoint: ({ endpoint }) => {
        declared.push(`${endpoint.method} ${endpoint.path.replace(/^\/api\/v1/, "").replace(/:(\w+)/g, "{$1}")}`)
      }
    })
    expect([...endpoints.map((endpoint) => endpoint.name)].sort()).toEqual(declared.sort())
  })
})
