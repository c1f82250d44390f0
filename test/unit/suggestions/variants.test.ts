import { describe, expect, it } from "@effect/vitest"
import type { BrandToDetect } from "../../../src/Detection/Mentions.js"
import { type AnalysedAnswer, evidenceOf, rollUp } from "../../../src/Suggestions/Evidence.js"
import { extractCandidates } from "../../../src/Suggestions/Extraction.js"
import { confirmedKeys, variantKeys, withConfirmedNames, withVariants } from "../../../src/Suggestions/Variants.js"

const tracked: ReadonlyArray<BrandToDetect> = [{ id: 1, name: "Nike", aliases: [], domains: ["nike.com"], classification: "competitor" }]
const analyse = (texts: ReadonlyArray<[string, ReadonlyArray<string>?]>): Array<AnalysedAnswer> =>
  texts.map(([text, citations = []], i) => ({
    answer_id: i + 1,
    prompt_id: 1 + (i % 2),
    platform: i % 2 === 0 ? "chatgpt" : "gemini",
    day: "2026-11-01",
    text,
    extraction: extractCandidates({ text, citations }, { tracked, prompt: "best running shoes" })
  }))

describe("variants over a window", () => {
  it("folds product names into the brand named alone elsewhere, once per answer", () => {
    const answers = analyse([
      ["- **Hoka Clifton 9**: soft\n- **Asics Gel-Kayano 31**: stable"],
      ["- **Hoka**: cushioned\n- **Proton Pass**: private"],
      ["Runners love the Hoka Clifton 9 and the Hoka Bondi."],
      ["Many run in Asics or Saucony Ride 17."]
    ])
    const variants = variantKeys(rollUp(answers))
    // The prose of answer 3 reads "Hoka Clifton" (a lone digit is no capitalised word), a list lead "Asics Gel-Kayano 31".
    expect(Object.fromEntries(variants)).toStrictEqual({
      asicsgelkayano: "asics",
      asicsgelkayano31: "asics",
      hokabondi: "hoka",
      hokaclifton: "hoka",
      hokaclifton9: "hoka"
    })
    const confirmed = confirmedKeys(answers.map((a) => a.extraction))
    const merged = answers.map((a) => ({ ...a, extraction: withVariants(withConfirmedNames(a.extraction, confirmed), variants) }))
    const hoka = evidenceOf(rollUp(merged)).find((e) => e.key === "hoka")!
    // Answer 3 names two variants: one answer.
    expect(hoka.answers).toBe(3)
    expect(hoka.variants).toStrictEqual([
      { name: "Hoka Clifton", answers: 2 },
      { name: "Hoka", answers: 1 },
      { name: "Hoka Bondi", answers: 1 },
      { name: "Hoka Clifton 9", answers: 1 }
    ])
    // Nothing says "Saucony" or "Proton" alone: those stay whole ("Runners" only starts a sentence).
    expect(evidenceOf(rollUp(merged)).map((e) => e.key)).toStrictEqual(["asics", "hoka", "protonpass", "sauconyride"])
  })

  it("links a domain never named to the name its label starts with, or that starts with its label", () => {
    const answers = analyse([
      ["- **Altra**: wide\n- **Proton Pass**", ["https://www.altrarunning.com/", "https://proton.me/pass"]],
      ["Shoes for wide feet.", ["https://www.altrarunning.com/shoes"]]
    ])
    expect(Object.fromEntries(variantKeys(rollUp(answers)))).toStrictEqual({ altrarunning: "altra", proton: "protonpass" })
  })

  it("keeps a sentence-initial name when another answer confirms it", () => {
    const answers = analyse([["Capsule is simple."], ["Teams pick Capsule."], ["Podiatrists agree."]])
    const confirmed = confirmedKeys(answers.map((a) => a.extraction))
    expect([...confirmed]).toStrictEqual(["capsule"])
    expect(answers.map((a) => withConfirmedNames(a.extraction, confirmed).candidates.map((c) => c.key))).toStrictEqual([["capsule"], ["capsule"], []])
  })
})
