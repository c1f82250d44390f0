import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { abilities } from "../../src/Domain/Ability.ts"
import { call, endpoints, makeFixture } from "../support/Endpoints.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/** Each endpoint refused without its ability, allowed with it alone and with `*`. */
describe.each(backends)("abilities matrix (%s)", (backend) => {
  let server: TestServer
  let organization: number
  let admin: string
  beforeAll(async () => {
    server = await startServer(backend)
    organization = (await server.createOrganization()).id
    admin = (await server.createKey(organization, ["*"])).key
  })
  afterAll(() => server.close())

  it("covers every ability the endpoints use", () => {
    for (const endpoint of endpoints) {
      if (endpoint.ability !== null) expect(abilities).toContain(endpoint.ability)
    }
  })

  describe.each(endpoints.filter((endpoint) => endpoint.ability !== null))("$name", (endpoint) => {
    it("is refused with 403 to a key with every other ability", async () => {
      const fixture = await makeFixture(server, admin)
      const others = abilities.filter((ability) => ability !== endpoint.ability)
      const { key } = await server.createKey(organization, others)
      const reply = await call(server, endpoint, key, fixture)
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual({ message: "This action is unauthorized.", required_ability: endpoint.ability })
    })
  })

  describe.each(endpoints)("$name", (endpoint) => {
    it("is allowed to a key with only its ability", async () => {
      const fixture = await makeFixture(server, admin)
      const { key } = await server.createKey(organization, endpoint.ability === null ? [] : [endpoint.ability])
      const reply = await call(server, endpoint, key, fixture)
      expect(reply.status, reply.text).toBe(endpoint.success)
    })

    it("is allowed to a key with *", async () => {
      const fixture = await makeFixture(server, admin)
      const { key } = await server.createKey(organization, ["*"])
      const reply = await call(server, endpoint, key, fixture)
      expect(reply.status, reply.text).toBe(endpoint.success)
      if (endpoint.success === 204) expect(reply.text).toBe("")
    })
  })
})
