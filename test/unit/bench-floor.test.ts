import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type FloorServers, startFloorServers } from "../../scripts/bench/floor.ts"

// `npm run bench` sets the service's answers against these two servers' round trips with the same
// answer (docs/performance.md, "The floor"): that holds only if they give that answer, and follow it.
describe("the bench's floor servers", () => {
  let floor: FloorServers
  beforeAll(async () => {
    floor = await startFloorServers()
  })
  afterAll(async () => {
    await floor.close()
  })

  const answer = (url: string) =>
    fetch(url, { headers: { authorization: "Bearer bvm_whatever", "service-project-id": "1" } }).then(async (response) => ({
      status: response.status,
      type: response.headers.get("content-type"),
      body: await response.text()
    }))

  it("answer the body they were given: the bare one byte for byte, the framework's as the same JSON", async () => {
    const body = JSON.stringify({ data: [{ brand: { id: 1, name: "Acme é" }, visibility: 0.25, points: [null, 1.5] }], meta: { total: 1 } })
    floor.answerWith(body)
    const bare = await answer(floor.bareUrl)
    expect(bare).toEqual({ status: 200, type: "application/json", body })
    const framework = await answer(floor.frameworkUrl)
    expect(framework.status).toBe(200)
    expect(framework.type).toMatch(/^application\/json/)
    expect(JSON.parse(framework.body)).toEqual(JSON.parse(body))
  })

  it("follow the next scenario's answer", async () => {
    floor.answerWith(`{"data":[]}`)
    expect((await answer(floor.bareUrl)).body).toBe(`{"data":[]}`)
    expect(JSON.parse((await answer(floor.frameworkUrl)).body)).toEqual({ data: [] })
  })
})
