import { describe, expect, it } from "@effect/vitest"
import type { QuestionBrand } from "../../../src/Collector/Platform.js"
import { simulate } from "../../../src/Collector/Simulated.js"
import { rivalSentences, simulatedRivals } from "../../../src/Collector/SimulatedRivals.js"
import { citedPages } from "../../../src/Collector/SimulatedText.js"
import { citationsFrom } from "../../../src/Detection/Citations.js"
import { scoreSentiment } from "../../../src/Detection/Sentiment.js"
import { platforms } from "../../../src/Domain/Platform.js"
import { type AnalysedAnswer, evidenceOf, rollUp } from "../../../src/Suggestions/Evidence.js"
import { extractCandidates } from "../../../src/Suggestions/Extraction.js"
import { keyOf } from "../../../src/Suggestions/Keys.js"
import { rankCandidates } from "../../../src/Suggestions/Ranking.js"
import { confirmedKeys, variantKeys, withConfirmedNames, withVariants } from "../../../src/Suggestions/Variants.js"

const brands: ReadonlyArray<QuestionBrand> = [
  { name: "Acme CRM", aliases: ["Acme"], domains: ["acme.com"], own: true },
  { name: "Globex", aliases: [], domains: ["globex.io"], own: false },
  { name: "Initech", aliases: [], domains: ["initech.com"], own: false }
]
const tracked = brands.map((b, i) => ({ id: i + 1, name: b.name, aliases: b.aliases, domains: b.domains, classification: "competitor" as const }))
const prompts = ["What are the best CRM tools?", "Which CRM is cheapest?", "Is Acme worth it?"]
const days = ["2026-11-20", "2026-11-21", "2026-11-22"]

const questions = platforms.flatMap((platform) =>
  days.flatMap((day) => prompts.map((prompt, i) => ({ platform, day, prompt, promptId: i + 1, country: "US", brands })))
)

describe("the simulated platform's untracked rivals", () => {
  it("writes rival lines the sentiment lexicon reads as neutral", () => {
    for (const sentence of rivalSentences) expect(scoreSentiment(sentence.replace("{r}", "Xxxx")), sentence).toBe(50)
  })

  it("names rivals in some answers, with variants, and extraction finds each one it names", () => {
    let named = 0
    const spellings = new Set<string>()
    for (const q of questions) {
      const { answer, untracked } = simulate(q)
      const found = extractCandidates({ text: answer.text, citations: citationsFrom(answer).map((c) => c.url) }, { tracked, prompt: q.prompt })
      const keys = found.candidates.map((c) => c.key)
      for (const spelling of untracked) {
        expect(keys, answer.text).toContain(keyOf(spelling))
        spellings.add(spelling)
      }
      if (untracked.length > 0) named++
    }
    expect(named / questions.length).toBeGreaterThan(0.4)
    expect(named / questions.length).toBeLessThan(0.8)
    expect(spellings.has("Harborline CRM") || spellings.has("Brightline Suite")).toBe(true)
  })

  it("gives a demo project suggestions that pass the gate, and only rivals among them", () => {
    const answers: Array<AnalysedAnswer> = questions.map((q, i) => {
      const { answer } = simulate(q)
      return {
        answer_id: i + 1,
        prompt_id: q.promptId,
        platform: q.platform,
        day: q.day,
        text: answer.text,
        extraction: extractCandidates({ text: answer.text, citations: answer.citations }, { tracked, prompt: q.prompt })
      }
    })
    const confirmed = confirmedKeys(answers.map((a) => a.extraction))
    const kept = answers.map((a) => ({ ...a, extraction: withConfirmedNames(a.extraction, confirmed) }))
    const variants = variantKeys(rollUp(kept))
    const merged = kept.map((a) => ({ ...a, extraction: withVariants(a.extraction, variants) }))
    const ranked = rankCandidates(evidenceOf(rollUp(merged)), { responses: answers.length, withCompetitor: answers.length })
    const rivalKeys = new Set(simulatedRivals.flatMap((r) => r.spellings.map((s) => keyOf(s))))
    const named = ranked.filter((r) => r.evidence.variants.length > 0).map((r) => r.evidence.key)
    expect(named.length).toBeGreaterThanOrEqual(3)
    for (const key of named) expect(rivalKeys.has(key), key).toBe(true)
    // A candidate only cited is a site of the simulated universe that the stop-list does not hold (a known
    // gap of hosts.json: mckinsey.com), never a tracked brand's.
    const universe = new Set(citedPages.map(([host]) => host.replace(/^www\./u, "")))
    for (const r of ranked.filter((r) => r.evidence.variants.length === 0)) {
      for (const d of r.evidence.domains) expect(universe.has(d.domain), d.domain).toBe(true)
    }
    // Variants merge: Harborline CRM is Harborline.
    expect(ranked.find((r) => r.evidence.key === "harborline")?.evidence.variants.map((v) => v.name)).toContain("Harborline")
  })
})
