import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import type { Question, QuestionBrand } from "../../src/Collector/Platform.js"
import { answerFor, simulate, simulatedClient, simulatedLabel } from "../../src/Collector/Simulated.js"
import { citedPages, toneSentences } from "../../src/Collector/SimulatedText.js"
import { scoreSentiment } from "../../src/Detection/Sentiment.js"
import { normalizeUrl } from "../../src/Detection/Urls.js"
import { platforms } from "../../src/Domain/Platform.js"
import { analyze } from "../../src/Responses/Analysis.js"
import type { BrandForDetection } from "../../src/Responses/Repo.js"

const brands: ReadonlyArray<QuestionBrand> = [
  { name: "Acme CRM", aliases: ["Acme"], domains: ["acme.com"], own: true },
  { name: "Globex", aliases: [], domains: ["globex.io"], own: false },
  { name: "Initech", aliases: ["Initech Cloud"], domains: ["initech.com"], own: false },
  { name: "Umbrella", aliases: [], domains: ["umbrella.co"], own: false },
  { name: "Hooli", aliases: ["Hooli XYZ"], domains: ["hooli.xyz"], own: false },
  { name: "Soylent", aliases: [], domains: [], own: false }
]

const question = (overrides: Partial<Question> = {}): Question => ({
  platform: "chatgpt",
  prompt: "What are the best CRM tools for small businesses?",
  promptId: 7,
  country: "US",
  day: "2026-11-21",
  brands,
  ...overrides
})

const days = Array.from({ length: 20 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10))

/** Many questions: every platform, twenty days, two prompts. */
const sample = (brandSet: ReadonlyArray<QuestionBrand>, prompt?: string): Array<Question> =>
  platforms.flatMap((platform) =>
    days.flatMap((day) => [1, 2].map((promptId) => question({ platform, day, promptId, brands: brandSet, ...(prompt ? { prompt } : {}) })))
  )

/** Detection as the service runs it, over the simulated answer; brand ids are 1-based indexes. */
const detect = (q: Question) => {
  const answer = answerFor(q)
  const forDetection: Array<BrandForDetection> = q.brands.map((brand, i) => ({
    id: i + 1,
    name: brand.name,
    aliases: brand.aliases,
    domains: brand.domains,
    classification: "competitor"
  }))
  const analyzed = analyze(
    { monitor_id: 1, prompt_id: q.promptId, platform: q.platform, country: q.country, text: answer.text, collected_at: new Date(0), citations: answer.citations },
    forDetection
  )
  if (Either.isLeft(analyzed)) throw new Error(JSON.stringify(analyzed.left))
  return [...analyzed.right.mentions].sort((a, b) => a.position - b.position)
}

const idsOf = (q: Question, chosen: ReadonlyArray<QuestionBrand>) => chosen.map((brand) => q.brands.indexOf(brand) + 1)

describe("simulated platform", () => {
  it("answers the same slot with the same bytes", () => {
    const first = answerFor(question())
    expect(answerFor(question())).toStrictEqual(first)
    expect(Effect.runSync(simulatedClient("chatgpt").ask(question()))).toStrictEqual(first)
  })

  it("answers another day, platform or prompt differently", () => {
    expect(new Set(days.map((day) => answerFor(question({ day })).text)).size).toBe(days.length)
    expect(new Set(platforms.map((platform) => answerFor(question({ platform })).text)).size).toBe(platforms.length)
    expect(new Set([1, 2, 3, 4, 5].map((promptId) => answerFor(question({ promptId })).text)).size).toBe(5)
    // The client's platform seeds the answer.
    expect(Effect.runSync(simulatedClient("claude").ask(question()))).toStrictEqual(answerFor(question({ platform: "claude" })))
  })

  it("labels every answer as simulated", () => {
    for (const q of sample(brands)) {
      const answer = answerFor(q)
      expect(answer.simulated).toBe(true)
      expect(answer.text.split("\n")[0]).toBe(simulatedLabel)
    }
  })

  it("cites 2 to 8 URLs of the fixed universe or the brands' sites, recurring across answers", () => {
    const universe = new Set(citedPages.flatMap(([domain, paths]) => paths.map((path) => `https://${domain}${path}`)))
    const brandDomains = new Set(brands.flatMap((brand) => brand.domains))
    const seen = new Map<string, number>()
    const countBy = new Map<string, Array<number>>()
    for (const q of sample(brands)) {
      const { citations } = answerFor(q)
      expect(citations.length).toBeGreaterThanOrEqual(2)
      expect(citations.length).toBeLessThanOrEqual(8)
      expect(new Set(citations).size).toBe(citations.length)
      for (const url of citations) {
        const normalized = normalizeUrl(url)
        expect(normalized, url).toBeDefined()
        expect(universe.has(url) || brandDomains.has(normalized!.domain), url).toBe(true)
        seen.set(url, (seen.get(url) ?? 0) + 1)
      }
      countBy.set(q.platform, [...(countBy.get(q.platform) ?? []), citations.length])
    }
    expect([...seen.values()].some((n) => n > 5)).toBe(true)
    expect([...seen.keys()].some((url) => brandDomains.has(normalizeUrl(url)!.domain))).toBe(true)
    const mean = (platform: string) => countBy.get(platform)!.reduce((a, b) => a + b, 0) / countBy.get(platform)!.length
    expect(mean("perplexity")).toBeGreaterThan(mean("google_ai_overview"))
  })

  it("writes tone sentences the lexicon scores as intended", () => {
    const score = (template: string) => scoreSentiment(template.replace("{b}", "Xxxx"))
    for (const t of toneSentences.positive) expect(score(t), t).toBeGreaterThan(50)
    for (const t of toneSentences.neutral) expect(score(t), t).toBe(50)
    for (const t of toneSentences.negative) expect(score(t), t).toBeLessThan(50)
  })

  it("mentions exactly the brands it chose, in varying order and tone", () => {
    const positions = new Map<number, Set<number>>()
    const scores = new Set<number>()
    const counts: Array<number> = []
    let ownMentioned = 0
    let ownFirst = 0
    let aliasUsed = 0
    const questions = sample(brands)
    for (const q of questions) {
      const { answer, mentioned } = simulate(q)
      const mentions = detect(q)
      // Same brands, and in the order the simulator wrote them.
      expect(mentions.map((m) => m.brand_id)).toStrictEqual(idsOf(q, mentioned))
      for (const m of mentions) {
        positions.set(m.brand_id, (positions.get(m.brand_id) ?? new Set()).add(m.position))
        scores.add(m.sentiment_score)
      }
      counts.push(mentioned.length)
      if (mentioned[0]?.own) ownFirst++
      if (mentioned.some((b) => b.own)) ownMentioned++
      if (/\bAcme\b(?! CRM)|Initech Cloud|Hooli XYZ/u.test(answer.text)) aliasUsed++
    }
    expect(positions.get(1)!.size).toBeGreaterThan(2)
    expect(scores.size).toBeGreaterThan(10)
    expect([...scores].some((s) => s < 50) && [...scores].some((s) => s > 50) && scores.has(50)).toBe(true)
    const share = ownMentioned / questions.length
    expect(share).toBeGreaterThan(0.5)
    expect(share).toBeLessThan(0.95)
    expect(ownFirst).toBeLessThan(ownMentioned * 0.6)
    expect(aliasUsed).toBeGreaterThan(0)
    const usual = counts.filter((n) => n >= 2 && n <= 5).length
    expect(usual / counts.length).toBeGreaterThan(0.75)
  })

  it("names no brand by accident, even brands named like common words or cited sites", () => {
    const tricky: ReadonlyArray<QuestionBrand> = [
      { name: "Acme", aliases: [], domains: ["acme.com"], own: true },
      { name: "Acme Cloud", aliases: [], domains: ["cloud.acme.com"], own: false },
      { name: "Pricing", aliases: [], domains: [], own: false },
      { name: "Reviewers", aliases: [], domains: [], own: false },
      { name: "Sources", aliases: [], domains: [], own: false },
      { name: "G2", aliases: [], domains: ["g2.com"], own: false },
      { name: "Reddit", aliases: [], domains: ["reddit.com"], own: false },
      { name: "CRM", aliases: [], domains: [], own: false }
    ]
    for (const q of sample(tricky, "Is Acme a good CRM?")) {
      const { mentioned } = simulate(q)
      expect(detect(q).map((m) => m.brand_id), answerFor(q).text).toStrictEqual(idsOf(q, mentioned))
      // "Acme Cloud" can never be named without naming "Acme" too.
      expect(mentioned.map((b) => b.name)).not.toContain("Acme Cloud")
    }
  })

  it("writes a `$` in a prompt or a brand name as is", () => {
    const money: ReadonlyArray<QuestionBrand> = [{ name: "Ca$$h", aliases: [], domains: [], own: true }]
    const texts = days.map((day) => answerFor(question({ day, brands: money, prompt: "Best CRM under $$50 a month?" })).text)
    expect(texts.some((t) => t.includes("CRM under $$50"))).toBe(true)
    expect(texts.some((t) => t.includes("Ca$$h"))).toBe(true)
  })

  it("answers a project without brands", () => {
    const answer = answerFor(question({ brands: [] }))
    expect(answer.text.startsWith(`${simulatedLabel}\n`)).toBe(true)
    expect(answer.citations.length).toBeGreaterThanOrEqual(2)
  })
})
