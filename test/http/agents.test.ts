import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { catalogue } from "../../src/Traffic/Agent.ts"
import { listIndex, shippedSnapshots } from "../../src/Traffic/IpLists.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"
import ipaddr from "ipaddr.js"

/** GET /agents: the catalogue, for any valid key, with the prefixes each agent is verified against. */
describe.each(backends)("GET /agents (%s)", (backend) => {
  let server: TestServer
  let key: string
  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization()
    key = (await server.createKey(organization.id, [])).key
  })
  afterAll(() => server.close())

  it("answers 401 without a key and with an unknown one", async () => {
    expect((await server.request("GET", "/api/v1/agents")).status).toBe(401)
    const reply = await server.request("GET", "/api/v1/agents", { key: "bvm_unknownunknownunknownunknownunknown" })
    expect(reply.status).toBe(401)
    expect(reply.body).toEqual({ message: "Unauthenticated." })
  })

  it("answers every catalogue agent to a key with no ability and no project header", async () => {
    const reply = await server.request("GET", "/api/v1/agents", { key })
    expect(reply.status, reply.text).toBe(200)
    const agents = reply.body.data as Array<any>
    expect(agents.map((agent) => agent.id)).toEqual(catalogue.agents.map((agent) => agent.id))
    const gptbot = agents.find((agent) => agent.name === "GPTBot")
    expect(gptbot).toMatchObject({ id: "openai-gptbot", operator: "OpenAI", purpose: "training", platforms: ["chatgpt"] })
    expect(gptbot.verification.method).toBe("ip_list")
    expect(gptbot.verification.prefixes).toContain("20.171.206.0/24")
    expect(gptbot.verification.snapshot_date).toBe(shippedSnapshots.find((s) => s.id === "openai-gptbot")!.creationTime)
  })

  it("gives, for each agent with a list, exactly the prefixes the verifier uses", async () => {
    const agents = (await server.request("GET", "/api/v1/agents", { key })).body.data as Array<any>
    const index = listIndex(shippedSnapshots)
    for (const agent of agents) {
      const entry = catalogue.agents.find((a) => a.id === agent.id)!
      if (entry.verification.method === "none") {
        expect(agent.verification, agent.id).toEqual({ method: "none", lists: [], prefixes: [], snapshot_date: null, reverse_dns: [] })
        continue
      }
      // Every prefix shown verifies its first address; an agent with no snapshot shows none.
      const sets = entry.verification.lists.flatMap((list) => index.get(list) ?? [])
      if (sets.length === 0) expect(agent.verification.prefixes, agent.id).toEqual([])
      for (const prefix of agent.verification.prefixes as Array<string>) {
        const [address] = ipaddr.parseCIDR(prefix)
        expect(sets.some((set) => set.contains(address)), `${agent.id} ${prefix}`).toBe(true)
      }
    }
    // Token-only names and agents of operators that publish nothing have no list.
    expect(agents.find((agent) => agent.name === "Google-Extended").verification.method).toBe("none")
    expect(agents.find((agent) => agent.name === "Bytespider").verification.method).toBe("none")
    // An agent whose list has no snapshot yet says so.
    const mistral = agents.find((agent) => agent.name === "MistralAI-User")
    expect(mistral.verification.snapshot_date).toBeNull()
    expect(mistral.verification.prefixes).toEqual([])
  })
})
