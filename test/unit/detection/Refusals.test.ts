import { describe, expect, it } from "@effect/vitest"
import { phraseTables } from "../../../src/Detection/RefusalPhrases.js"
import { answerStateOfText, CONTENT_WORDS, normalizeForPhrases } from "../../../src/Detection/Refusals.js"
import { corpusCases, evaluate } from "../../support/RefusalCorpus.js"

const tuning = corpusCases.filter((c) => c.split === "tuning")
const holdout = corpusCases.filter((c) => c.split === "holdout")

/** Tuning cases the rules still get wrong, each explained in docs/detection.md ("Known misses"). */
const knownMisses = new Set(["t-en-38"])

describe("the labelled corpus", () => {
  it("has at least 60 cases in seven languages, with non-refusals that contain a refusal's words", () => {
    expect(corpusCases.length).toBeGreaterThanOrEqual(60)
    expect(new Set(corpusCases.map((c) => c.lang))).toEqual(new Set(["en", "de", "fr", "es", "it", "pt", "nl"]))
    expect(new Set(corpusCases.map((c) => c.id)).size).toBe(corpusCases.length)
    for (const c of corpusCases) expect(["answered", "refused", "empty"]).toContain(c.label)
    const answeredWithCannot = corpusCases.filter((c) => c.label === "answered" && /can'?t|cannot|can not/i.test(c.text))
    expect(answeredWithCannot.length).toBeGreaterThanOrEqual(10)
  })

  it.each(tuning.filter((c) => !knownMisses.has(c.id)).map((c) => [c.id, c.label, c.text] as const))(
    "%s is %s: %s",
    (_id, label, text) => {
      expect(answerStateOfText(text)).toBe(label)
    }
  )

  it("the known misses are still missed (remove an id from the list once the rules get it right)", () => {
    for (const c of tuning.filter((c) => knownMisses.has(c.id))) expect(answerStateOfText(c.text)).not.toBe(c.label)
  })

  it("holds the holdout's measured precision and recall (docs/detection.md)", () => {
    const result = evaluate(holdout)
    expect(result.cases).toBe(94)
    expect(result.notAnswered.precision).toBe(1)
    expect(result.notAnswered.recall).toBeGreaterThanOrEqual(51 / 58)
    expect(result.refused.precision).toBe(1)
    expect(result.refused.recall).toBeGreaterThanOrEqual(24 / 27)
    expect(result.empty.precision).toBe(1)
    expect(result.empty.recall).toBeGreaterThanOrEqual(27 / 31)
  })
})

describe("evaluate", () => {
  it("computes precision and recall per state and for the two together", () => {
    const cases = [
      { id: "a", split: "tuning", batch: 1, lang: "en", label: "refused", text: "r" },
      { id: "b", split: "tuning", batch: 1, lang: "en", label: "refused", text: "a" },
      { id: "c", split: "tuning", batch: 1, lang: "en", label: "empty", text: "r" },
      { id: "d", split: "tuning", batch: 1, lang: "en", label: "answered", text: "e" },
      { id: "e", split: "tuning", batch: 1, lang: "en", label: "answered", text: "a" }
    ] as const
    const byText = { r: "refused", a: "answered", e: "empty" } as const
    const result = evaluate(cases, (text) => byText[text as keyof typeof byText])
    expect(result.accuracy).toBeCloseTo(2 / 5)
    expect(result.refused).toEqual({ predicted: 2, actual: 2, correct: 1, precision: 0.5, recall: 0.5 })
    expect(result.empty).toEqual({ predicted: 1, actual: 1, correct: 0, precision: 0, recall: 0 })
    expect(result.notAnswered).toEqual({ predicted: 3, actual: 3, correct: 2, precision: 2 / 3, recall: 2 / 3 })
    expect(result.misses.map((m) => m.id)).toEqual(["b", "c", "d"])
  })
})

describe("answerStateOfText", () => {
  it.each([
    ["", "empty"],
    [" \n\t\r\n ", "empty"],
    ["**", "empty"],
    ["---\n> \n#", "empty"],
    ["Sorry.", "empty"],
    ["Thank you for your question!", "empty"],
    ["42", "answered"],
    ["Acme.", "answered"],
    // CRLF and lone CR break lines like LF.
    ["I can't help with that.\r\nSorry.", "refused"],
    ["I can't help with that.\rLet me know if there's anything else.", "refused"],
    // Markdown emphasis and curly apostrophes do not hide a phrase.
    ["**I’m sorry, but I _can’t_ help with that.**", "refused"],
    ["I CANNOT ASSIST WITH THAT REQUEST.", "refused"],
    // A refusal followed by two list items of content is an answer.
    ["I can't rank them, but here they are:\n- Acme\n- Globex", "answered"],
    ["I can't rank them.\n- Sorry\n- Let me know", "refused"],
    // Refusal and deflection together: the refusal names the state.
    ["I can't help with that. I don't have information about it either.", "refused"],
    // A refusal in a long answer is one clause among many.
    [`${"Acme leads the market with a broad product range. ".repeat(3)}I can't help with pricing.`, "answered"]
  ] as const)("%j is %s", (text, state) => {
    expect(answerStateOfText(text)).toBe(state)
  })

  it("needs CONTENT_WORDS words of content beside a refusal", () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ")
    expect(answerStateOfText(`I can't help with that. ${words(CONTENT_WORDS - 1)}.`)).toBe("refused")
    expect(answerStateOfText(`I can't help with that. ${words(CONTENT_WORDS)}.`)).toBe("answered")
  })

  it("normalizes case, compatibility forms, apostrophes, emphasis and spaces", () => {
    expect(normalizeForPhrases("  I’M  ＳＯＲＲＹ,\u00a0but **I** can`t  ")).toBe("i'm sorry, but i can't")
  })
})

describe("cost", () => {
  const everyPhrase = phraseTables.flatMap((t) => [...t.refusals, ...t.deflections, ...t.fillers, ...t.exceptions, ...t.contrasts])

  it("every phrase has a bounded length: no *, + or open {n,} quantifier, no back-reference", () => {
    expect(everyPhrase.length).toBeGreaterThan(100)
    for (const phrase of everyPhrase) {
      expect(phrase, phrase).not.toMatch(/(?<!\\)[*+]|\{\d*,\}|\\[1-9]/)
      expect(() => new RegExp(phrase, "u")).not.toThrow()
    }
  })

  it("answers long adversarial inputs correctly (each in one pass; the rules are bounded by construction)", () => {
    const megabyte = 1 << 20
    // One clause of a megabyte that nearly matches a refusal at every word, and is not one.
    const nearMisses = "i can't i cannot i'm not able to i won't be ".repeat(megabyte / 44)
    expect(answerStateOfText(nearMisses)).toBe("answered")
    // A megabyte of refusals, then the answer on the last line.
    const refusals = "I can't help with that. ".repeat(megabyte / 24)
    expect(answerStateOfText(`${refusals}\nThe leading vendors are Acme, Globex and Initech.`)).toBe("answered")
    expect(answerStateOfText(refusals)).toBe("refused")
    // Long runs of spaces, punctuation, list markers and apostrophes.
    expect(answerStateOfText(" ".repeat(megabyte))).toBe("empty")
    expect(answerStateOfText(".".repeat(megabyte))).toBe("empty")
    expect(answerStateOfText("'".repeat(megabyte) + "a")).toBe("answered")
    expect(answerStateOfText("- \n".repeat(megabyte / 3))).toBe("empty")
    expect(answerStateOfText(`i ${"x".repeat(megabyte)} can't help`)).toBe("answered")
  })
})
