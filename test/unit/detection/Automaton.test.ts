import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { foldCodePoint } from "../../../src/Detection/CaseFolding.ts"
import { findDomainOccurrences, findNameOccurrences } from "../../../src/Detection/Matching.ts"
import { type BrandToDetect, detectMentions, sentencesOf } from "../../../src/Detection/Mentions.ts"
import { regexDetectMentions, regexDomainOccurrences, regexNameOccurrences } from "./support/RegexMatching.ts"

/**
 * The automaton finds exactly what one case-insensitive regular expression per name finds (the matcher it
 * replaced, kept as an oracle in ./support): same occurrences, same mentions, same scores.
 */

/** Characters that stress case folding, word boundaries, apostrophes, whitespace and no-space scripts. */
const alphabet = [
  "a", "A", "c", "m", "e", "s", "S", "ſ", "k", "K", "\u212a", "σ", "ς", "Σ", "ß", "ẞ", "i", "I", "İ", "ı", "\ufb05", "\ufb06",
  "é", "e\u0301", "阿", "里", "云", "の", "1", "2", " ", " ", "\u00a0", "\n", "\t", "'", "’", "ʼ", "&", ".", "-", "_", "/", "(",
  ")", "!", ",", "@", "😀", "𝐀"
]
const textOf = (min: number, max: number) => fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((chars) => chars.join(""))

describe("the automaton against the regex matcher", () => {
  it("finds every name exactly where a regular expression does", () => {
    fc.assert(
      fc.property(textOf(0, 80), textOf(1, 8), (text, name) => {
        const nfc = text.normalize("NFC")
        expect(findNameOccurrences(nfc, name)).toEqual(regexNameOccurrences(nfc, name))
      }),
      { seed: 20261124, numRuns: 6000 }
    )
  })

  it("finds names drawn from the text itself exactly where a regular expression does", () => {
    fc.assert(
      fc.property(textOf(1, 60), fc.nat(), fc.nat(), (text, from, length) => {
        const nfc = text.normalize("NFC")
        const start = from % nfc.length
        const name = nfc.slice(start, start + 1 + (length % 8))
        expect(findNameOccurrences(nfc, name)).toEqual(regexNameOccurrences(nfc, name))
      }),
      { seed: 20261125, numRuns: 3000 }
    )
  })

  it("finds domains and subdomains exactly where a regular expression does", () => {
    const label = fc.array(fc.constantFrom("a", "c", "m", "e", "x", "n", "-", "1", "ü", "'", "’"), { minLength: 1, maxLength: 5 }).map((c) => c.join(""))
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 2, maxLength: 3 }),
        fc.array(fc.oneof(label, fc.constantFrom(" ", ".", "@", "/", "www.", "-", "'", "’", "\u212a")), { maxLength: 12 }),
        (labels, parts) => {
          const domain = labels.join(".")
          const text = [...parts, domain, ...parts].join("").normalize("NFC")
          expect(findDomainOccurrences(text, domain)).toEqual(regexDomainOccurrences(text, domain))
        }
      ),
      { seed: 20261126, numRuns: 2000 }
    )
  })

  it("detects the same mentions, positions and scores", () => {
    const words = ["Acme", "acme", "ACME Cloud", "Acme’s", "阿里云", "ſtraße", "Kelvin", "good", "awful", "great", "Yahoo!", "C++", "a", "a a"]
    const name = fc.oneof(fc.constantFrom(...words), textOf(1, 6))
    const brand = (id: number) =>
      fc.record({
        name,
        aliases: fc.array(name, { maxLength: 3 }),
        domains: fc.array(fc.constantFrom("acme.com", "straße.de", "xn--bcher-kva.de", "c.io", "acme"), { maxLength: 2 }),
        classification: fc.constantFrom("competitor" as const, "other" as const, "ignored" as const)
      }).map((fields): BrandToDetect => ({ id, ...fields }))
    const piece = fc.oneof(
      fc.constantFrom(...words, "acme.com", "blog.acme.com", "bücher.de", " ", ". ", "! ", "\n\n", "not ", "https://c.io/x?y. "),
      textOf(1, 4)
    )
    fc.assert(
      fc.property(
        fc.tuple(brand(1), brand(2), brand(3), brand(4)),
        fc.array(piece, { maxLength: 40 }),
        fc.array(fc.constantFrom("acme.com", "docs.c.io", "x.org"), { maxLength: 3 }),
        (brands, pieces, cited) => {
          const text = pieces.join("")
          expect(detectMentions(text, brands, cited)).toEqual(regexDetectMentions(text, brands, cited))
        }
      ),
      { seed: 20261127, numRuns: 1500 }
    )
  })
})

describe("case classes", () => {
  /** Every code point of planes 0 and 1 (lone surrogates left out), as one string. */
  const everyCharacter = (() => {
    const chunks: Array<string> = []
    for (let from = 0; from < 0x20000; from += 0x1000) {
      const codePoints: Array<number> = []
      for (let cp = from; cp < from + 0x1000; cp++) if (cp < 0xd800 || cp > 0xdfff) codePoints.push(cp)
      chunks.push(String.fromCodePoint(...codePoints))
    }
    return chunks.join("")
  })()

  it("are the regex engine's: each class holds exactly what the `iu` flags match", () => {
    // A character with a case partner changes under case folding, or is what a partner folds to: the
    // classes of those characters, matched against every character, show every partnership there is.
    const cased = Array.from(everyCharacter.matchAll(/[\p{Changes_When_Casefolded}\p{Changes_When_Casemapped}]/gu), (m) => m[0])
    const representatives = new Set(cased.map((ch) => foldCodePoint(ch.codePointAt(0)!)))
    let members = 0
    for (const representative of representatives) {
      for (const match of everyCharacter.matchAll(new RegExp(String.fromCodePoint(representative), "giu"))) {
        expect(foldCodePoint(match[0].codePointAt(0)!)).toBe(representative)
        members++
      }
    }
    // Every cased character is in the class of its representative, and the classes hold nothing else.
    expect(members).toBe(new Set(cased.concat([...representatives].map((r) => String.fromCodePoint(r)))).size)
    for (const ch of everyCharacter) {
      const codePoint = ch.codePointAt(0)!
      if (foldCodePoint(codePoint) !== codePoint) expect(representatives.has(foldCodePoint(codePoint))).toBe(true)
    }
  })

  it("cover every cased character: none lies beyond plane 1", () => {
    let beyond = 0
    for (let cp = 0x20000; cp <= 0x10ffff; cp++) {
      if (/[\p{Changes_When_Casefolded}\p{Changes_When_Casemapped}]/u.test(String.fromCodePoint(cp))) beyond++
    }
    expect(beyond).toBe(0)
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
