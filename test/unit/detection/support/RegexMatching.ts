/**
 * The reference the automaton is held to: brand detection as it was written before it, one regular
 * expression per name (`iu` flags), run over the whole text and filtered by the same word-boundary
 * rules. Exact but slow (its cost grows with the number and the length of the names times the text),
 * so it lives in the tests only, as an oracle.
 */
import type { BrandToDetect, DetectedMention } from "../../../../src/Detection/Mentions.ts"
import { brandDomains, maskForSentiment, sentencesOf } from "../../../../src/Detection/Mentions.ts"
import { coversDomain, domainSpellings, normalizeDomain, type Occurrence } from "../../../../src/Detection/Matching.ts"
import { sentimentValue, toSentimentScore } from "../../../../src/Detection/Sentiment.ts"

const WORD_CHAR = /^[\p{L}\p{M}\p{N}]$/u
const NO_SPACE_SCRIPT =
  /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]$/u
const isNoSpaceChar = (ch: string): boolean => NO_SPACE_SCRIPT.test(ch)
const gluesToWord = (ch: string | undefined): boolean => ch !== undefined && WORD_CHAR.test(ch) && !isNoSpaceChar(ch)
const gluesToDomain = (ch: string | undefined): boolean => ch === "-" || ch === "_" || gluesToWord(ch)

const charBefore = (text: string, at: number): string | undefined => {
  if (at <= 0) return undefined
  const cp = text.codePointAt(at - 2)
  return at >= 2 && cp !== undefined && cp > 0xffff ? String.fromCodePoint(cp) : text[at - 1]
}
const charAt = (text: string, at: number): string | undefined => {
  const cp = text.codePointAt(at)
  return cp === undefined ? undefined : String.fromCodePoint(cp)
}

const escapeRegExp = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/]/gu, "\\$&")

const allMatches = (pattern: RegExp, text: string): Array<Occurrence> => {
  const found: Array<Occurrence> = []
  pattern.lastIndex = 0
  let m: RegExpExecArray | null
  while ((m = pattern.exec(text)) !== null) {
    found.push({ start: m.index, end: m.index + m[0].length })
    pattern.lastIndex = m.index + (charAt(text, m.index)?.length ?? 1)
  }
  return found
}

export const namePattern = (name: string): RegExp | undefined => {
  const words = name.normalize("NFC").trim().split(/\s+/u).filter((w) => w !== "")
  if (words.length === 0) return undefined
  const source = words.map((w) => escapeRegExp(w).replace(/['\u2019\u02bc]/gu, "['\u2019\u02bc]")).join("\\s+")
  return new RegExp(source, "giu")
}

export const regexNameOccurrences = (text: string, name: string): Array<Occurrence> => {
  const pattern = namePattern(name)
  if (pattern === undefined) return []
  return allMatches(pattern, text).filter(({ end, start }) => {
    const first = charAt(text, start)!
    const last = charBefore(text, end)!
    const leftOk = isNoSpaceChar(first) || !gluesToWord(charBefore(text, start))
    const rightOk = isNoSpaceChar(last) || !gluesToWord(charAt(text, end))
    return leftOk && rightOk
  })
}

export const regexDomainOccurrences = (text: string, domain: string): Array<Occurrence> =>
  domainSpellings(domain).flatMap((spelling) =>
    allMatches(new RegExp(escapeRegExp(spelling), "giu"), text).filter(({ end, start }) => {
      if (gluesToDomain(charBefore(text, start))) return false
      const next = charAt(text, end)
      return !gluesToDomain(next) && !(next === "." && gluesToDomain(charAt(text, end + 1)))
    })
  ).sort((a, b) => a.start - b.start)

/** `detectMentions` as it was, on the regex matcher. */
export const regexDetectMentions = (
  text: string,
  brands: ReadonlyArray<BrandToDetect>,
  citedDomains: ReadonlyArray<string> = []
): Array<DetectedMention> => {
  const nfc = text.normalize("NFC")
  const cited = citedDomains.map(normalizeDomain)
  const occurrences = new Map(brands.map((brand) =>
    [brand, <Array<Occurrence>> [
      ...[brand.name, ...brand.aliases].flatMap((name) => regexNameOccurrences(nfc, name)),
      ...brandDomains(brand).flatMap((domain) => regexDomainOccurrences(nfc, domain))
    ]] as const
  ))
  const found: Array<{ brand: BrandToDetect; first: number; length: number; occurrences: Array<Occurrence> }> = []
  for (const brand of brands) {
    if (brand.classification === "ignored") continue
    const own = occurrences.get(brand)!
    if (own.length > 0) {
      const first = own.reduce((min, o) => Math.min(min, o.start), Infinity)
      const length = own.reduce((max, o) => (o.start === first ? Math.max(max, o.end - o.start) : max), 0)
      found.push({ brand, first, length, occurrences: own })
      continue
    }
    const domains = brandDomains(brand)
    const citation = cited.findIndex((c) => c !== undefined && domains.some((d) => coversDomain(d, c)))
    if (citation !== -1) found.push({ brand, first: nfc.length + citation, length: 0, occurrences: [] })
  }
  found.sort((a, b) => a.first - b.first || b.length - a.length || a.brand.id - b.brand.id)
  const sentences = sentencesOf(maskForSentiment(nfc, [...occurrences.values()].flat()))
  const sentenceAt = (offset: number): number => {
    let at = 0
    while (at + 1 < sentences.starts.length && sentences.starts[at + 1]! <= offset) at++
    return at
  }
  return found.map(({ brand, first, occurrences }, i) => {
    const distinct = [...new Set(occurrences.map((o) => sentenceAt(o.start)))]
    return {
      brand_id: brand.id,
      position: i + 1,
      sentiment_score: occurrences.length === 0
        ? 50
        : toSentimentScore(distinct.reduce((sum, s) => sum + sentimentValue(sentences.texts[s]!), 0) / distinct.length),
      first_index: first
    }
  })
}
