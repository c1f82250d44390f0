import { describe, expect, it } from "@effect/vitest"
import ipaddr from "ipaddr.js"
import { catalogue, purposes } from "../../../src/Traffic/Agent.ts"
import { parsePublishedList, prefixesHash, shippedSnapshots } from "../../../src/Traffic/IpLists.ts"

const listIds = new Set(catalogue.lists.map((list) => list.id))

describe("the agent catalogue", () => {
  it("has unique agent ids and names, and unique list ids", () => {
    const ids = catalogue.agents.map((agent) => agent.id)
    expect(new Set(ids).size).toBe(ids.length)
    const names = catalogue.agents.map((agent) => agent.name.toLowerCase())
    expect(new Set(names).size).toBe(names.length)
    expect(listIds.size).toBe(catalogue.lists.length)
  })

  it("covers the agents the issue names, with their documented purpose", () => {
    const purposeOf = Object.fromEntries(catalogue.agents.map((agent) => [agent.name, agent.purpose]))
    expect(purposeOf).toMatchObject({
      GPTBot: "training",
      "OAI-SearchBot": "search_index",
      "ChatGPT-User": "user_fetch",
      ClaudeBot: "training",
      "Claude-SearchBot": "search_index",
      "Claude-User": "user_fetch",
      PerplexityBot: "search_index",
      "Perplexity-User": "user_fetch",
      Googlebot: "search_engine",
      "Google-Extended": "token_only",
      "Google-CloudVertexBot": "agent",
      bingbot: "search_engine",
      Applebot: "search_engine",
      "Applebot-Extended": "token_only",
      DuckAssistBot: "user_fetch",
      "MistralAI-User": "user_fetch",
      CCBot: "training",
      Amazonbot: "training",
      "meta-externalagent": "training",
      "meta-externalfetcher": "user_fetch",
      Bytespider: "training"
    })
    expect(new Set(catalogue.agents.map((agent) => agent.purpose))).toEqual(new Set(purposes))
  })

  it("names only lists it declares, and token-only names have nothing to verify", () => {
    for (const agent of catalogue.agents) {
      if (agent.verification.method === "ip_list") {
        for (const list of agent.verification.lists) expect(listIds.has(list), `${agent.id}: ${list}`).toBe(true)
      }
      if (agent.purpose === "token_only") expect(agent.verification.method).toBe("none")
    }
  })

  it("matches each agent by its own name", () => {
    for (const agent of catalogue.agents) {
      expect(agent.patterns.some((pattern) => agent.name.toLowerCase().includes(pattern.toLowerCase())), agent.id).toBe(true)
    }
  })
})

describe("the shipped address lists", () => {
  it("are intact: each hash matches its prefixes, and every prefix is a valid CIDR", () => {
    for (const snapshot of shippedSnapshots) {
      expect(prefixesHash(snapshot.prefixes), snapshot.id).toBe(snapshot.sha256)
      for (const prefix of snapshot.prefixes) expect(ipaddr.isValidCIDR(prefix), `${snapshot.id}: ${prefix}`).toBe(true)
    }
  })

  it("cover declared lists only, and every declared list but the two no mirror held", () => {
    const covered = new Set(shippedSnapshots.flatMap((snapshot) => snapshot.covers))
    for (const list of covered) expect(listIds.has(list), list).toBe(true)
    expect([...listIds].filter((list) => !covered.has(list)).sort()).toEqual(["duckduckgo-duckassistbot", "mistral-user"])
  })

  it("record where each came from, and a date: the operator's creationTime or the mirror's last change", () => {
    for (const snapshot of shippedSnapshots) {
      expect(snapshot.creationTime ?? snapshot.listChangedAt, snapshot.id).not.toBeNull()
      expect(snapshot.mirror.form === "verbatim", snapshot.id).toBe(snapshot.creationTime !== null)
    }
  })
})

describe("parsePublishedList", () => {
  it("reads the operators' shape and drops malformed entries", () => {
    const text = JSON.stringify({
      creationTime: "2026-08-18T23:56:36Z",
      prefixes: [{ ipv4Prefix: "192.0.2.0/24" }, { ipv6Prefix: "2001:db8::/32" }, { ipv4Prefix: "not-a-cidr" }, {}]
    })
    expect(parsePublishedList(text)).toEqual({ creationTime: "2026-08-18T23:56:36Z", prefixes: ["192.0.2.0/24", "2001:db8::/32"] })
  })

  it("refuses a body that is not the shape (an HTML error page served with a 200)", () => {
    expect(() => parsePublishedList("<html>Service unavailable</html>")).toThrow()
    expect(() => parsePublishedList(`{"items": []}`)).toThrow()
  })
})
