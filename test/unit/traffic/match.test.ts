import { describe, expect, it } from "@effect/vitest"
import { catalogue } from "../../../src/Traffic/Agent.ts"
import { botFamily, OWN_USER_AGENT_TOKEN, userAgentMatcher } from "../../../src/Traffic/Match.ts"
import { BROWSER_UA, GPTBOT_UA } from "./fixtures.ts"

const match = userAgentMatcher(catalogue.agents)
const agentOf = (userAgent: string) => {
  const result = match(userAgent)
  return result.kind === "agent" ? result.agent.id : result.kind
}

describe("matching user agents", () => {
  it.each([
    [GPTBOT_UA, "openai-gptbot"],
    ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot)", "openai-oai-searchbot"],
    ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", "openai-chatgpt-user"],
    ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", "anthropic-claudebot"],
    ["Claude-SearchBot/1.0", "anthropic-claude-searchbot"],
    ["Claude-User/1.0", "anthropic-claude-user"],
    ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", "perplexity-perplexitybot"],
    ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)", "perplexity-user"],
    ["Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "google-googlebot"],
    ["Googlebot-Image/1.0", "google-googlebot"],
    ["Mozilla/5.0 (compatible; Google-CloudVertexBot; +https://cloud.google.com/enterprise-search)", "google-cloudvertexbot"],
    ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", "microsoft-bingbot"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "apple-applebot"],
    ["DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)", "duckduckgo-duckassistbot"],
    ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)", "mistral-mistralai-user"],
    ["CCBot/2.0 (https://commoncrawl.org/faq/)", "commoncrawl-ccbot"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/600.2.5 (KHTML, like Gecko) Version/8.0.2 Safari/600.2.5 (Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)", "amazon-amazonbot"],
    ["meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", "meta-externalagent"],
    ["meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)", "meta-externalfetcher"],
    ["Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)", "bytedance-bytespider"],
    ["Mozilla/5.0 (compatible; Google-Extended)", "google-extended"]
  ])("%s -> %s", (userAgent, id) => {
    expect(agentOf(userAgent)).toBe(id)
  })

  it("tries the longest pattern first: Applebot-Extended is not Applebot", () => {
    expect(agentOf("Mozilla/5.0 (Applebot-Extended/0.1)")).toBe("apple-applebot-extended")
    // Whatever order the catalogue lists them in.
    const reversed = userAgentMatcher([...catalogue.agents].reverse())
    const result = reversed("Mozilla/5.0 (Applebot-Extended/0.1)")
    expect(result.kind === "agent" && result.agent.id).toBe("apple-applebot-extended")
  })

  it("is case-insensitive", () => {
    expect(agentOf("mozilla/5.0 (compatible; gptbot/1.2)")).toBe("openai-gptbot")
  })

  it("recognises our own collector before any agent it may mention", () => {
    expect(match(`${OWN_USER_AGENT_TOKEN}/0.1 (+https://github.com; like GPTBot)`).kind).toBe("own")
  })

  it("tells unknown bots from people", () => {
    expect(match("Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)")).toEqual({ kind: "unknown_bot", family: "ahrefsbot" })
    expect(match("python-requests/2.31.0")).toEqual({ kind: "unknown_bot", family: "python-requests" })
    expect(match(BROWSER_UA)).toEqual({ kind: "person" })
  })
})

describe("botFamily", () => {
  it.each([
    ["Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", "semrushbot"],
    ["Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "yandexbot"],
    ["curl/8.5.0", "curl"],
    ["Go-http-client/1.1", "go-http-client"],
    ["Scrapy/2.11 (+https://scrapy.org)", "scrapy"],
    ["", "unknown"]
  ])("%s -> %s", (userAgent, family) => {
    expect(botFamily(userAgent)).toBe(family)
  })
})
