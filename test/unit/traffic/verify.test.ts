import { describe, expect, it } from "@effect/vitest"
import { type Agent, catalogue } from "../../../src/Traffic/Agent.ts"
import { listIndex, shippedSnapshots } from "../../../src/Traffic/IpLists.ts"
import { publicAddress, verifier } from "../../../src/Traffic/Verify.ts"

const agent = (id: string): Agent => {
  const found = catalogue.agents.find((candidate) => candidate.id === id)
  if (found === undefined) throw new Error(id)
  return found
}

// Synthetic lists: OpenAI's GPTBot publishes 192.0.2.0/24 and 2001:db8:1::/48; Anthropic 198.51.100.0/24.
const lists = listIndex([
  { covers: ["openai-gptbot"], prefixes: ["192.0.2.0/24", "2001:db8:1::/48"] },
  { covers: ["anthropic-bots"], prefixes: ["198.51.100.0/24"] }
])
const DAY = "2026-10-10"

describe("verdicts", () => {
  const verify = verifier(lists)

  it("an agent from its operator's range is verified", () => {
    expect(verify(agent("openai-gptbot"), "192.0.2.10", DAY)).toBe("verified")
    expect(verify(agent("openai-gptbot"), "2001:db8:1::5", DAY)).toBe("verified")
    expect(verify(agent("anthropic-claude-user"), "198.51.100.9", DAY)).toBe("verified")
  })

  it("the same user agent from another range is outside the list", () => {
    expect(verify(agent("openai-gptbot"), "203.0.113.10", DAY)).toBe("outside_list")
    // Another operator's range does not verify it either.
    expect(verify(agent("openai-gptbot"), "198.51.100.9", DAY)).toBe("outside_list")
    expect(verify(agent("openai-gptbot"), "2001:db8:2::5", DAY)).toBe("outside_list")
  })

  it("an agent whose operator publishes nothing is unverifiable, whatever its address", () => {
    expect(verify(agent("bytedance-bytespider"), "192.0.2.10", DAY)).toBe("unverifiable")
    expect(verify(agent("meta-externalagent"), undefined, DAY)).toBe("unverifiable")
  })

  it("an agent whose list we hold no snapshot of is unverifiable", () => {
    // ChatGPT-User's list is published, but not among these synthetic ones.
    expect(verify(agent("openai-chatgpt-user"), "192.0.2.10", DAY)).toBe("unverifiable")
  })

  it("a line without a usable address is no_ip", () => {
    for (const ip of [undefined, "", "-", "not-an-ip", "10.1.2.3", "192.168.0.1", "127.0.0.1", "::1", "fe80::1", "fd00::1", "100.64.0.1"]) {
      expect(verify(agent("openai-gptbot"), ip, DAY), String(ip)).toBe("no_ip")
    }
  })

  it("a token-only name seen as a user agent is outside the list, even from the operator's own range", () => {
    const tokenLists = listIndex([{ covers: ["google-common-crawlers"], prefixes: ["192.0.2.0/24"] }])
    const verifyTokens = verifier(tokenLists)
    expect(verifyTokens(agent("google-extended"), "192.0.2.10", DAY)).toBe("outside_list")
    expect(verifyTokens(agent("apple-applebot-extended"), undefined, DAY)).toBe("outside_list")
    expect(verifyTokens(agent("google-googlebot"), "192.0.2.10", DAY)).toBe("verified")
  })

  it("an IPv4 client seen on an IPv6 socket is checked as IPv4", () => {
    expect(verify(agent("openai-gptbot"), "::ffff:192.0.2.10", DAY)).toBe("verified")
  })

  it("the shipped snapshots verify known crawler addresses and refuse a public resolver", () => {
    const shipped = verifier(listIndex(shippedSnapshots))
    expect(shipped(agent("google-googlebot"), "66.249.66.1", DAY)).toBe("verified")
    expect(shipped(agent("openai-gptbot"), "20.171.206.10", DAY)).toBe("verified")
    expect(shipped(agent("microsoft-bingbot"), "157.55.39.10", DAY)).toBe("verified")
    expect(shipped(agent("anthropic-claudebot"), "216.73.216.10", DAY)).toBe("verified")
    expect(shipped(agent("openai-gptbot"), "8.8.8.8", DAY)).toBe("outside_list")
    expect(shipped(agent("mistral-mistralai-user"), "8.8.8.8", DAY)).toBe("unverifiable")
  })
})

describe("publicAddress", () => {
  it("keeps public and documentation addresses, drops what can only be a proxy", () => {
    expect(publicAddress("203.0.113.5")?.toString()).toBe("203.0.113.5")
    expect(publicAddress("172.16.0.1")).toBeUndefined()
  })
})

