import { describe, expect, it } from "@effect/vitest"
import type { BrandToDetect } from "../../../src/Detection/Mentions.js"
import type { Platform } from "../../../src/Domain/Platform.js"
import { type AnalysedAnswer, evidenceOf, examplesOf, mergeRollups, rollUp } from "../../../src/Suggestions/Evidence.js"
import { extractCandidates } from "../../../src/Suggestions/Extraction.js"
import { defaultGate, gateFailures, rankCandidates, reopensAfterDismissal, scoreCandidate } from "../../../src/Suggestions/Ranking.js"
import { untrackedShare } from "../../../src/Suggestions/UntrackedShare.js"

const tracked: ReadonlyArray<BrandToDetect> = [
  { id: 1, name: "Acme", aliases: [], domains: ["acme.com"], classification: "other" },
  { id: 2, name: "HubSpot", aliases: [], domains: [], classification: "competitor" }
]

let nextId = 1
const answer = (prompt_id: number, platform: Platform, day: string, text: string, citations: ReadonlyArray<string> = []): AnalysedAnswer => ({
  answer_id: nextId++,
  prompt_id,
  platform,
  day,
  text,
  extraction: extractCandidates({ text, citations }, { tracked, prompt: "best crm" })
})

const answers: ReadonlyArray<AnalysedAnswer> = [
  answer(1, "chatgpt", "2026-11-01", "- **Pipedrive**\n- **HubSpot**\n- Zoho"),
  answer(1, "gemini", "2026-11-02", "- **Pipedrive CRM**\n- Acme"),
  answer(2, "chatgpt", "2026-11-03", "Teams compare HubSpot with Pipedrive and Zoho.", ["https://www.pipedrive.com/pricing"]),
  answer(2, "chatgpt", "2026-11-03", "Acme is fine."),
  answer(1, "claude", "2026-11-04", "Try Acme or HubSpot; Zoho is cheaper.")
]

describe("rollups and evidence", () => {
  it("counts answers, prompts, platforms, list places, variants and domains per candidate", () => {
    const [pipedrive, zoho] = evidenceOf(rollUp(answers))
    expect(pipedrive).toStrictEqual({
      key: "pipedrive",
      name: "Pipedrive",
      variants: [{ name: "Pipedrive", answers: 2 }, { name: "Pipedrive CRM", answers: 1 }],
      domains: [{ domain: "pipedrive.com", answers: 1 }],
      answers: 3,
      prompts: [1, 2],
      platforms: ["chatgpt", "gemini"],
      in_list: 2,
      bold: 2,
      linked: 0,
      cited: 1,
      // Answers 1 and 3 name HubSpot, a tracked competitor.
      with_competitor: 2,
      // Orders 1 (before HubSpot), 1 (before Acme), 2 (after HubSpot).
      order_sum: 4,
      first_seen_on: "2026-11-01",
      last_seen_on: "2026-11-03"
    })
    expect(zoho).toMatchObject({ key: "zoho", answers: 3, prompts: [1, 2], platforms: ["chatgpt", "claude"], in_list: 1, order_sum: 3 + 3 + 3 })
  })

  it("gives the same rows whether rolled up at once or in parts (rebuild = incremental)", () => {
    const whole = rollUp(answers)
    expect(mergeRollups(rollUp(answers.slice(0, 2)), rollUp(answers.slice(2, 3)), rollUp(answers.slice(3)))).toStrictEqual(whole)
    expect(mergeRollups(rollUp([...answers].reverse()))).toStrictEqual(whole)
  })

  it("keeps the latest examples with the name's place in the snippet and the answer", () => {
    const long = answer(3, "grok", "2026-11-05", `${"word ".repeat(40)}then Pipedrive wins ${"again ".repeat(40)}`)
    const examples = examplesOf([...answers, long], "pipedrive", 2)
    expect(examples.map((e) => e.answer_id)).toEqual([long.answer_id, answers[2]!.answer_id])
    for (const e of examples) {
      expect(e.snippet.slice(e.highlight.start, e.highlight.end)).toBe("Pipedrive")
      const source = [...answers, long].find((a) => a.answer_id === e.answer_id)!.text
      expect(source.slice(e.offset, e.offset + e.snippet.length)).toBe(e.snippet)
    }
    // Cut at spaces, within the radius.
    expect(examples[0]!.snippet.startsWith("word ")).toBe(true)
    expect(examples[0]!.snippet.length).toBeLessThanOrEqual(80 * 2 + "Pipedrive".length)
  })
})

describe("gate and rank", () => {
  const evidence = (key: string, answers: number, prompts: number, platforms: number, in_list: number, with_competitor = 0) => ({
    key,
    name: key,
    variants: [],
    domains: [],
    answers,
    prompts: Array.from({ length: prompts }, (_, i) => i + 1),
    platforms: (["chatgpt", "gemini", "claude"] as const).slice(0, platforms),
    in_list,
    bold: 0,
    linked: 0,
    cited: 0,
    with_competitor,
    order_sum: answers * 2,
    first_seen_on: "2026-11-01",
    last_seen_on: "2026-11-02"
  })

  it("lets through 3 answers in 2 prompts on 2 platforms, or in a list half the time", () => {
    expect(gateFailures(evidence("a", 3, 2, 2, 0))).toEqual([])
    expect(gateFailures(evidence("b", 4, 2, 1, 2))).toEqual([])
    expect(gateFailures(evidence("c", 2, 2, 2, 2))).toEqual(["named in 2 answers, 3 needed"])
    expect(gateFailures(evidence("d", 5, 1, 3, 5))).toEqual(["in 1 prompts, 2 needed"])
    expect(gateFailures(evidence("e", 4, 2, 1, 1))).toHaveLength(1)
    expect(defaultGate).toStrictEqual({ minAnswers: 3, minPrompts: 2, minPlatforms: 2, minListShare: 0.5 })
  })

  it("scores with Wilson intervals, list share, lift and average order computed by hand", () => {
    // 6 of 40 answers; 5 of the 20 answers with a tracked competitor.
    const scored = scoreCandidate(evidence("a", 6, 2, 2, 3, 5), { responses: 40, withCompetitor: 20 })
    expect(scored.rate).toBe(15)
    // Wilson: (6 + 1.9208 ∓ 1.96 √(6·34/40 + 0.9604)) / (40 + 3.8415)
    expect(scored.rate_ci).toStrictEqual({ low: 7.06, high: 29.07 })
    expect(scored.list_share).toBe(0.5)
    // (5/20) / (6/40) = 1.6667
    expect(scored.lift).toBe(1.67)
    expect(scored.average_order).toBe(2)
    expect(scored.why).toBe("named in 6 of 40 answers (15%, 95% CI 7.06–29.07%), in 2 prompts on 2 platforms, in a list in 3")
    expect(scoreCandidate(evidence("a", 6, 2, 2, 3), { responses: 40, withCompetitor: 0 }).lift).toBeNull()
  })

  it("ranks by the interval's lower bound: a rate measured on more answers first", () => {
    const ranked = rankCandidates(
      [evidence("small", 3, 2, 2, 0), evidence("big", 30, 3, 3, 10), evidence("never", 2, 1, 1, 0), evidence("mid", 10, 2, 2, 5)],
      { responses: 100, withCompetitor: 50 }
    )
    expect(ranked.map((r) => r.evidence.key)).toEqual(["big", "mid", "small"])
    // Equal evidence: by answers, then key.
    const tied = rankCandidates([evidence("b", 5, 2, 2, 0), evidence("a", 5, 2, 2, 0)], { responses: 50, withCompetitor: 0 })
    expect(tied.map((r) => r.evidence.key)).toEqual(["a", "b"])
  })

  it("reopens a dismissed suggestion when its lower bound has doubled", () => {
    expect(reopensAfterDismissal(5, 9.99)).toBe(false)
    expect(reopensAfterDismissal(5, 10)).toBe(true)
    expect(reopensAfterDismissal(0, 0)).toBe(false)
    expect(reopensAfterDismissal(0, 0.5)).toBe(true)
  })
})

describe("untracked share", () => {
  it("counts open candidates' mentions against all mentions, with an interval", () => {
    const share = untrackedShare(answers.map((a) => a.extraction), (key) => key !== "zoho")
    // Tracked mentions: HubSpot, Acme, HubSpot, Acme, Acme + HubSpot = 6; open candidates: Pipedrive × 3.
    expect(share).toStrictEqual({ untracked_mentions: 3, tracked_mentions: 6, share: 33.33, share_ci: { low: 12.06, high: 64.58 } })
    expect(untrackedShare([], () => true)).toStrictEqual({ untracked_mentions: 0, tracked_mentions: 0, share: null, share_ci: null })
  })
})
