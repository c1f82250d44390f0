import { describe, expect, it } from "@effect/vitest"
import { referralPlatform } from "../../../src/Traffic/Referrals.ts"

describe("AI referrals", () => {
  it.each([
    ["https://chatgpt.com/", "/", "chatgpt"],
    ["https://chat.openai.com/c/123", "/", "chatgpt"],
    ["https://www.perplexity.ai/search?q=crm", "/", "perplexity"],
    ["https://perplexity.ai/", "/", "perplexity"],
    ["https://gemini.google.com/app", "/", "gemini"],
    ["https://copilot.microsoft.com/", "/", "copilot"],
    ["https://claude.ai/chat/abc", "/", "claude"],
    ["https://grok.com/", "/", "grok"],
    ["https://CHATGPT.COM:443/", "/", "chatgpt"],
    // By utm_source when there is no referer (most AI apps send none).
    [undefined, "/pricing?utm_source=chatgpt.com", "chatgpt"],
    [undefined, "/pricing?utm_medium=referral&utm_source=perplexity", "perplexity"],
    [undefined, "/pricing?UTM_SOURCE=Copilot.com", "copilot"],
    [undefined, "/pricing?utm_source=claude.ai", "claude"],
    // The referer wins over utm_source.
    ["https://gemini.google.com/", "/?utm_source=chatgpt.com", "gemini"]
  ])("%s %s -> %s", (referer, path, platform) => {
    expect(referralPlatform(referer, path)).toBe(platform)
  })

  it.each([
    ["https://www.google.com/", "/"],
    ["https://www.bing.com/search?q=crm", "/"],
    ["https://notchatgpt.com/", "/"],
    ["https://chatgpt.com.evil.example/", "/"],
    ["android-app://com.google.android.gm/", "/"],
    [undefined, "/?utm_source=newsletter"],
    [undefined, "/?ref=chatgpt.com"],
    ["-", "/"]
  ])("%s %s is no AI referral", (referer, path) => {
    expect(referralPlatform(referer, path)).toBeUndefined()
  })
})
