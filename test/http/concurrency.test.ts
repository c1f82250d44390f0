import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { rollupMismatchesWith } from "../support/Rollups.ts"
import { type Reply, sqlBackend, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Concurrent writes, one test per write path, on the SQL backend of the run (PostgreSQL races for
 * real; the embedded database interleaves whole requests): never a 5xx, no lost or doubled rows, and
 * every analytics rollup equal to a recount from the raw tables afterwards.
 */

const today = () => new Date().toISOString().slice(0, 10)

const expectNoServerError = (replies: ReadonlyArray<Reply>) => {
  const failed = replies.filter((reply) => reply.status >= 500)
  expect(failed.map((reply) => `${reply.status} ${reply.text}`)).toEqual([])
}

describe(`concurrent writes (${sqlBackend})`, () => {
  let server: TestServer
  let key: string
  let organization: number

  beforeAll(async () => {
    server = await startServer(sqlBackend)
    organization = (await server.createOrganization()).id
    key = (await server.createKey(organization, ["*"])).key
  })
  afterAll(() => server.close())

  /** A project with one monitor and one prompt. */
  const setUp = async () => {
    const project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Race" } })).body.data.id as number
    const monitor = (await server.request("POST", "/api/v1/monitors", {
      key,
      project,
      body: { name: "M", country: "US", platforms: ["chatgpt", "perplexity"] }
    })).body.data.id as number
    const prompt = (await server.request("POST", "/api/v1/prompts", { key, project, body: { monitor_id: monitor, text: "Best CRM?" } }))
      .body.data.id as number
    return { project, monitor, prompt }
  }

  const ingest = (project: number, prompt: number, citations: ReadonlyArray<string>) =>
    server.request("POST", "/api/v1/responses", { key, project, body: { prompt_id: prompt, platform: "chatgpt", text: "An answer.", citations } })

  const mismatches = (project: number) => rollupMismatchesWith(server.sql!, project)

  it("one name created at once: one 201, the others 422, never a 500", async () => {
    const { project } = await setUp()
    const replies = await Promise.all(Array.from({ length: 10 }, () => server.request("POST", "/api/v1/tags", { key, project, body: { name: "Same" } })))
    expectNoServerError(replies)
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(1)
    expect(replies.filter((reply) => reply.status === 422).map((reply) => reply.body.errors.name)).toEqual(
      Array.from({ length: 9 }, () => ["The name has already been taken."])
    )
  })

  it("brands created at once near the cap: exactly 1,000, the others 422, never a 500", async () => {
    const { project } = await setUp()
    await server.sql!(`INSERT INTO brands (project_id, name) SELECT ${project}, 'Seeded ' || g FROM generate_series(1, 995) g`)
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => server.request("POST", "/api/v1/brands", { key, project, body: { name: `Rush ${i}` } }))
    )
    expectNoServerError(replies)
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(5)
    expect(replies.filter((reply) => reply.status === 422).map((reply) => reply.body.errors)).toEqual(
      Array.from({ length: 45 }, () => ({ brands: ["The project already has 1000 brands, the most it may have."] }))
    )
    const [count] = await server.sql!(`SELECT count(*)::int AS n FROM brands WHERE project_id = ${project}`)
    expect(count!.n).toBe(1000)
  })

  it("tags attached and detached at the same moment as answers are stored: every rollup stays exact", async () => {
    const { project, prompt } = await setUp()
    const tag = async (name: string) => (await server.request("POST", "/api/v1/tags", { key, project, body: { name } })).body.data.id as number
    const [x, y, z] = [await tag("X"), await tag("Y"), await tag("Z")]
    for (let i = 0; i < 3; i++) await ingest(project, prompt, [`https://a.com/${i}`, "https://b.com/"])
    const attach = (tagId: number) => server.request("POST", `/api/v1/prompts/${prompt}/tags/${tagId}`, { key, project })
    const detach = (tagId: number) => server.request("DELETE", `/api/v1/prompts/${prompt}/tags/${tagId}`, { key, project })
    for (let round = 0; round < 8; round++) {
      const replies = await Promise.all([
        attach(x),
        attach(y),
        round % 2 === 0 ? attach(z) : detach(z),
        ingest(project, prompt, ["https://b.com/", `https://c.com/${round}`]),
        ingest(project, prompt, ["https://a.com/", "https://b.com/"])
      ])
      expectNoServerError(replies)
      expect(await mismatches(project)).toEqual({})
      const both = await server.request("GET", `/api/v1/analytics/sources?start_date=${today()}&end_date=${today()}&tags[]=${x}&tags[]=${y}`, {
        key,
        project
      })
      const responses = await server.sql!(`SELECT count(*)::int AS n FROM responses WHERE project_id = ${project}`)
      const b = both.body.data.find((row: { source: { domain: string } }) => row.source.domain === "b.com")
      expect(b.used_count).toBe(responses[0]!.n)
      expect(b.used_percentage).toBe(100)
      await Promise.all([detach(x), detach(y)])
      expect(await mismatches(project)).toEqual({})
    }
  })

  it("a prompt's whole tag set replaced by a PATCH: each pair of tags counted once", async () => {
    const { project, prompt } = await setUp()
    const tag = async (name: string) => (await server.request("POST", "/api/v1/tags", { key, project, body: { name } })).body.data.id as number
    const [x, y, z] = [await tag("X"), await tag("Y"), await tag("Z")]
    await ingest(project, prompt, ["https://a.com/"])
    for (const tags of [[x, y], [x, y, z], [z], [], [y, x, z], [x]]) {
      const reply = await server.request("PATCH", `/api/v1/prompts/${prompt}`, { key, project, body: { tags } })
      expect(reply.status).toBe(200)
      expect(await mismatches(project), JSON.stringify(tags)).toEqual({})
    }
  })

  it("a brand's segments and a prompt's tags replaced at once: no 5xx, and the result is one of the sets sent", async () => {
    const { project, prompt } = await setUp()
    const make = async (path: string, name: string) =>
      (await server.request("POST", path, { key, project, body: { name } })).body.data.id as number
    const segments = [await make("/api/v1/segments", "S1"), await make("/api/v1/segments", "S2"), await make("/api/v1/segments", "S3")]
    const tags = [await make("/api/v1/tags", "T1"), await make("/api/v1/tags", "T2"), await make("/api/v1/tags", "T3")]
    const brand = await make("/api/v1/brands", "Acme")
    await ingest(project, prompt, ["https://a.com/"])
    const sets = [[segments[0]!, segments[1]!], [segments[1]!, segments[0]!], [segments[2]!], [segments[1]!, segments[2]!, segments[0]!]]
    const tagSets = [[tags[0]!, tags[1]!], [tags[1]!, tags[0]!], [tags[2]!], [tags[1]!, tags[2]!, tags[0]!]]
    for (let round = 0; round < 6; round++) {
      const replies = await Promise.all([
        ...sets.map((segment_ids) => server.request("PATCH", `/api/v1/brands/${brand}`, { key, project, body: { segment_ids } })),
        ...tagSets.map((ids) => server.request("PATCH", `/api/v1/prompts/${prompt}`, { key, project, body: { tags: ids } }))
      ])
      expectNoServerError(replies)
      const sorted = (ids: ReadonlyArray<number>) => [...ids].sort((a, b) => a - b)
      const brandNow = (await server.request("GET", `/api/v1/brands/${brand}`, { key, project })).body.data.segment_ids
      expect(sets.map(sorted)).toContainEqual(sorted(brandNow))
      const promptNow = (await server.request("GET", `/api/v1/prompts/${prompt}`, { key, project })).body.data.tags.map((t: { id: number }) => t.id)
      expect(tagSets.map(sorted)).toContainEqual(sorted(promptNow))
      expect(await mismatches(project)).toEqual({})
    }
  })

  it("a resource updated while it is deleted: the update is 200 or 404, never a 500", async () => {
    const { project, prompt } = await setUp()
    for (let round = 0; round < 10; round++) {
      const tag = (await server.request("POST", "/api/v1/tags", { key, project, body: { name: `Gone ${round}` } })).body.data.id
      const segment = (await server.request("POST", "/api/v1/segments", { key, project, body: { name: `Gone ${round}` } })).body.data.id
      const replies = await Promise.all([
        server.request("PATCH", `/api/v1/tags/${tag}`, { key, project, body: { color: "#000000" } }),
        server.request("DELETE", `/api/v1/tags/${tag}`, { key, project }),
        server.request("PATCH", `/api/v1/segments/${segment}`, { key, project, body: { name: "Renamed" } }),
        server.request("DELETE", `/api/v1/segments/${segment}`, { key, project }),
        server.request("PATCH", `/api/v1/prompts/${prompt}`, { key, project, body: { text: `Best CRM, take ${round}?` } })
      ])
      expectNoServerError(replies)
      for (const update of [replies[0]!, replies[2]!]) {
        expect([200, 404]).toContain(update.status)
        if (update.status === 404) expect(update.body.message).toMatch(/ not found$/)
      }
    }
  })

  it("a brand deleted while it is made its project's own: 204, the update 200 or 422, never a 500", async () => {
    const { project } = await setUp()
    for (let round = 0; round < 10; round++) {
      const brand = (await server.request("POST", "/api/v1/brands", { key, project, body: { name: `Own ${round}` } })).body.data.id as number
      const replies = await Promise.all([
        server.request("PATCH", `/api/v1/projects/${project}`, { key, body: { brand_id: brand } }),
        server.request("DELETE", `/api/v1/brands/${brand}`, { key, project }),
        server.request("PATCH", `/api/v1/projects/${project}`, { key, body: { brand_id: brand } })
      ])
      expectNoServerError(replies)
      expect(replies[1]!.status).toBe(204)
      for (const update of [replies[0]!, replies[2]!]) {
        if (update.status === 422) expect(update.body.errors).toEqual({ brand_id: ["The selected brand id is invalid."] })
        else expect(update.status, update.text).toBe(200)
      }
      // Whatever the order, the deleted brand is no project's own.
      expect((await server.request("GET", `/api/v1/projects/${project}`, { key })).body.data.brand_id).toBeNull()
    }
  })

  it("a monitor deleted while prompts are created on it and moved to it: 204, the writes 201, 200 or 422, never a 500", async () => {
    const { monitor: other, project } = await setUp()
    const created = async (path: string, body: object) => (await server.request("POST", path, { key, project, body })).body.data.id as number
    for (let round = 0; round < 10; round++) {
      const monitor = await created("/api/v1/monitors", { name: `M${round}`, country: "US", platforms: ["chatgpt"] })
      const moved = await created("/api/v1/prompts", { monitor_id: other, text: `Moved ${round}?` })
      const replies = await Promise.all([
        ...Array.from({ length: 3 }, (_, i) => server.request("POST", "/api/v1/prompts", { key, project, body: { monitor_id: monitor, text: `Q${i}?` } })),
        server.request("PATCH", `/api/v1/prompts/${moved}`, { key, project, body: { monitor_id: monitor } }),
        server.request("DELETE", `/api/v1/monitors/${monitor}`, { key, project })
      ])
      expectNoServerError(replies)
      expect(replies[4]!.status).toBe(204)
      for (const reply of replies.slice(0, 4)) {
        // Before the deletion: made (or moved) on the monitor, then taken along; after it: the monitor id is invalid.
        if (reply.status === 422) expect(reply.body.errors).toEqual({ monitor_id: ["The selected monitor id is invalid."] })
        else expect([200, 201], reply.text).toContain(reply.status)
      }
      const [left] = await server.sql!(`SELECT count(*)::int AS n FROM prompts WHERE monitor_id = ${monitor}`)
      expect(left!.n).toBe(0)
    }
  })

  it("a segment or tag deleted while brands' segments and prompts' tags are replaced and attached: 204, no 5xx, sets without it", async () => {
    const { monitor, project } = await setUp()
    const make = async (path: string, body: object) => (await server.request("POST", path, { key, project, body })).body.data.id as number
    for (let round = 0; round < 6; round++) {
      const [doomed, kept] = [await make("/api/v1/segments", { name: `D${round}` }), await make("/api/v1/segments", { name: `K${round}` })]
      const [gone, stays] = [await make("/api/v1/tags", { name: `D${round}` }), await make("/api/v1/tags", { name: `K${round}` })]
      const brands = [await make("/api/v1/brands", { name: `A${round}` }), await make("/api/v1/brands", { name: `B${round}` })]
      const prompts = [
        await make("/api/v1/prompts", { monitor_id: monitor, text: `A${round}?` }),
        await make("/api/v1/prompts", { monitor_id: monitor, text: `B${round}?` })
      ]
      const writes = [
        ...brands.map((brand) => server.request("PATCH", `/api/v1/brands/${brand}`, { key, project, body: { segment_ids: [kept, doomed] } })),
        ...brands.map((brand) => server.request("POST", `/api/v1/brands/${brand}/segments/${doomed}`, { key, project })),
        ...prompts.map((prompt) => server.request("PATCH", `/api/v1/prompts/${prompt}`, { key, project, body: { tags: [stays, gone] } })),
        ...prompts.map((prompt) => server.request("POST", `/api/v1/prompts/${prompt}/tags/${gone}`, { key, project }))
      ]
      const deletions = [
        server.request("DELETE", `/api/v1/segments/${doomed}`, { key, project }),
        server.request("DELETE", `/api/v1/tags/${gone}`, { key, project })
      ]
      const replies = await Promise.all([...writes, ...deletions])
      expectNoServerError(replies)
      expect(replies.slice(-2).map((reply) => reply.status)).toEqual([204, 204])
      for (const reply of replies.slice(0, -2)) {
        expect([200, 404, 422], reply.text).toContain(reply.status)
      }
      for (const brand of brands) {
        const now = (await server.request("GET", `/api/v1/brands/${brand}`, { key, project })).body.data.segment_ids
        expect(now).not.toContain(doomed)
      }
      for (const prompt of prompts) {
        const now = (await server.request("GET", `/api/v1/prompts/${prompt}`, { key, project })).body.data.tags.map((t: { id: number }) => t.id)
        expect(now).not.toContain(gone)
      }
      expect(await mismatches(project)).toEqual({})
    }
  })

  it("answers citing the same new domains in opposite orders never deadlock", async () => {
    const { project, prompt } = await setUp()
    for (let round = 0; round < 5; round++) {
      const [first, second] = [`https://x${round}.example.com/`, `https://y${round}.example.com/`]
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) => ingest(project, prompt, i % 2 === 0 ? [first, second] : [second, first]))
      )
      expectNoServerError(replies)
      expect(replies.every((reply) => reply.status === 201)).toBe(true)
    }
    const sources = await server.sql!(`SELECT domain, count(*)::int AS n FROM sources WHERE project_id = ${project} GROUP BY domain`)
    expect(sources.every((row) => row.n === 1)).toBe(true)
    expect(sources).toHaveLength(10)
    const citations = await server.sql!(
      `SELECT count(*)::int AS n FROM citations c JOIN responses r ON r.id = c.response_id WHERE r.project_id = ${project}`
    )
    expect(citations[0]!.n).toBe(100)
    expect(await mismatches(project)).toEqual({})
  })

  it("a project deleted while answers are stored: deleted, the writers get 201 or 404 Project not found, nothing is left", async () => {
    const { project, prompt } = await setUp()
    let deleting = false
    const writer = async (index: number) => {
      const replies: Array<Reply> = []
      for (let i = 0; i < 15; i++) {
        replies.push(await ingest(project, prompt, [`https://w${index}.com/${i % 3}`, "https://shared.com/"]))
        if (deleting && replies.at(-1)!.status === 404) break
      }
      return replies
    }
    const writers = Array.from({ length: 5 }, (_, index) => writer(index))
    await new Promise((resolve) => setTimeout(resolve, 50))
    deleting = true
    const deleted = await server.request("DELETE", `/api/v1/projects/${project}`, { key })
    const replies = (await Promise.all(writers)).flat()
    expect(deleted.status).toBe(204)
    expectNoServerError(replies)
    // The project check comes first (docs/api.md, "Errors"): a request that meets the deletion is a 404, never a
    // 422 on a prompt it could no longer find.
    for (const reply of replies) {
      expect([201, 404], reply.text).toContain(reply.status)
      if (reply.status === 404) expect(reply.body).toEqual({ message: "Project not found" })
    }
    for (const table of ["responses", "sources", "source_urls", "brand_mentions", "prompts", "monitors", "tags"]) {
      const left = await server.sql!(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = ${project}`)
      expect(left[0]!.n, table).toBe(0)
    }
    expect((await server.request("GET", `/api/v1/projects/${project}`, { key })).status).toBe(404)
  })
})
