import { OpenApi } from "@effect/platform"
import { createConfig, lintFromString } from "@redocly/openapi-core"
import { describe, expect, it } from "vitest"
import { Api } from "../../src/Api.ts"

/**
 * The OpenAPI document the server serves at /api/v1/openapi.json (`HttpApiBuilder.middlewareOpenApi`
 * makes it with `OpenApi.fromApi`) is clean under Redocly's recommended rules: no error, no warning.
 * The linter is `@redocly/openapi-core`, the engine of Redocly CLI (a development dependency; it
 * works offline, on the document given).
 */
const lintedProblems = async (spec: unknown) => {
  const config = await createConfig({ extends: ["recommended"] })
  const problems = await lintFromString({ source: JSON.stringify(spec), absoluteRef: "openapi.json", config })
  return problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer ?? ""})`)
}

describe("the OpenAPI document under Redocly's recommended rules", () => {
  const spec = OpenApi.fromApi(Api)

  it("has no error and no warning", async () => {
    expect(await lintedProblems(spec)).toEqual([])
  })

  it("names its server, its licence (Apache-2.0) and one described tag per group", () => {
    expect(spec.servers).toEqual([{ url: "/", description: expect.any(String) }])
    expect(spec.info.license?.name).toBe("Apache-2.0")
    const names = spec.tags.map((tag) => tag.name)
    expect(new Set(names).size).toBe(names.length)
    for (const tag of spec.tags) expect(tag.description, tag.name).toBeTruthy()
    // Every operation's tag is one of them.
    const operationTags = Object.values(spec.paths).flatMap((item) => Object.values(item as Record<string, { tags?: Array<string> }>).flatMap((operation) => operation.tags ?? []))
    for (const tag of operationTags) expect(names).toContain(tag)
  })

  it("would report what the rules ask for: the linter is on", async () => {
    const bare = { ...spec, servers: undefined, info: { title: spec.info.title, version: spec.info.version }, tags: [...spec.tags, { name: spec.tags[0]!.name }] }
    const problems = await lintedProblems(bare)
    expect(problems.some((problem) => problem.includes("no-empty-servers"))).toBe(true)
    expect(problems.some((problem) => problem.includes("info-license"))).toBe(true)
    expect(problems.some((problem) => problem.includes("no-duplicated-tag-names"))).toBe(true)
    expect(problems.some((problem) => problem.includes("tag-description"))).toBe(true)
  })
})
