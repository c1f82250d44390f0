import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { findDomainOccurrences, findNameOccurrences, wordsOf } from "../../../src/Detection/Matching.ts"
import { detectMentions, sentencesOf } from "../../../src/Detection/Mentions.ts"

/**
 * The word index only skips names that cannot occur: with it, every name and domain is found exactly
 * where the full scan finds it, and names absent from a long text cost no scan at all.
 */

/** Characters that stress case folding, word boundaries and no-space scripts. */
const alphabet = [
  "a", "A", "c", "m", "e", "s", "S", "ſ", "k", "K", "\u212a", "σ", "ς", "Σ", "ß", "ẞ", "i", "I", "İ", "ı",
  "é", "e\u0301", "阿", "里", "云", "の", "1", "2", " ", " ", "\u00a0", "\n", "'", "’", "&", ".", "-", "_", "/", "(", ")", "!", ","
]
const textOf = (min: number, max: number) => fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((chars) => chars.join(""))

describe("the word index of a text", () => {
  it("finds every name exactly where the full scan does", () => {
    fc.assert(
      fc.property(textOf(0, 80), textOf(1, 8), (text, name) => {
        const nfc = text.normalize("NFC")
        expect(findNameOccurrences(nfc, name, wordsOf(nfc))).toEqual(findNameOccurrences(nfc, name))
      }),
      { seed: 20261124, numRuns: 6000 }
    )
  })

  it("finds names drawn from the text itself exactly where the full scan does", () => {
    fc.assert(
      fc.property(textOf(1, 60), fc.nat(), fc.nat(), (text, from, length) => {
        const nfc = text.normalize("NFC")
        const start = from % nfc.length
        const name = nfc.slice(start, start + 1 + (length % 8))
        expect(findNameOccurrences(nfc, name, wordsOf(nfc))).toEqual(findNameOccurrences(nfc, name))
      }),
      { seed: 20261125, numRuns: 3000 }
    )
  })

  it("finds domains and subdomains exactly where the full scan does", () => {
    const label = fc.array(fc.constantFrom("a", "c", "m", "e", "x", "n", "-", "1", "ü"), { minLength: 1, maxLength: 5 }).map((c) => c.join(""))
    fc.assert(
      fc.property(fc.array(label, { minLength: 2, maxLength: 3 }), fc.array(fc.oneof(label, fc.constantFrom(" ", ".", "@", "/", "www.", "-")), { maxLength: 12 }), (labels, parts) => {
        const domain = labels.join(".")
        const text = [...parts, domain, ...parts].join("").normalize("NFC")
        expect(findDomainOccurrences(text, domain, wordsOf(text))).toEqual(findDomainOccurrences(text, domain))
      }),
      { seed: 20261126, numRuns: 2000 }
    )
  })

  it("detects the same mentions as without it", () => {
    const brands = [
      { id: 1, name: "Acme", aliases: ["ACME Cloud", "Acme’s"], domains: ["acme.com"], classification: "competitor" as const },
      { id: 2, name: "阿里云", aliases: [], domains: [], classification: "competitor" as const },
      { id: 3, name: "ſtraße", aliases: ["Kelvin"], domains: ["straße.de"], classification: "other" as const }
    ]
    const text = "Try ACME Cloud (acme.com) or 阿里云; STRASSE is not straße, but \u212aelvin is kelvin. Visit blog.acme.com!"
    expect(detectMentions(text, brands).map((m) => [m.brand_id, m.position])).toEqual([[1, 1], [2, 2], [3, 3]])
  })

  it("skips names whose first word the text lacks, without scanning for them", () => {
    const text = "A long answer about CRMs. ".repeat(4000)
    const words = wordsOf(text)
    const scanned = new Set<string>()
    const original = RegExp.prototype.exec
    RegExp.prototype.exec = function(this: RegExp, input: string) {
      if (input === text) scanned.add(this.source)
      return original.call(this, input)
    }
    try {
      for (let i = 0; i < 10_000; i++) expect(findNameOccurrences(text, `Absent Brand ${i}`, words)).toEqual([])
      expect(findNameOccurrences(text, "CRMs", words)).toHaveLength(4000)
    } finally {
      RegExp.prototype.exec = original
    }
    expect([...scanned]).toEqual(["CRMs"])
  })
})

describe("sentences found window by window", () => {
  const whole = (text: string) => {
    const starts: Array<number> = []
    const texts: Array<string> = []
    for (const { index, segment } of new Intl.Segmenter("en", { granularity: "sentence" }).segment(text)) {
      starts.push(index)
      texts.push(segment)
    }
    return { starts, texts }
  }

  it("are the sentences of the whole text, whatever their length", () => {
    const words = "the best crm for small agencies is hubspot because it is easy to use; salesforce costs more".split(" ")
    let prose = ""
    for (let i = 0; prose.length < 30_000; i++) {
      const sentence = Array.from({ length: 5 + (i % 40) }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(" ")
      prose += `${sentence[0]!.toUpperCase()}${sentence.slice(1)}${[". ", "! ", "? ", ".\n\n", "... ", ". \"", ".) "][i % 7]}`
    }
    const texts = [
      "",
      "One sentence without an end",
      prose,
      "Acme is fine. ".repeat(3000),
      `A sentence far longer than a window ${"and on ".repeat(2000)}ends here. Then a short one.`,
      `Mr. Smith went to Washington. He said "no." Then: e.g. this ${"x".repeat(5000)}. 中文句子。日本語の文。`
    ]
    for (const text of texts) expect(sentencesOf(text)).toEqual(whole(text))
  })
})
