/**
 * Brand mentions of one response (docs/api.md): which
 * brands it names, in which order they first appear, and the sentiment around them.
 */
import type { Classification } from "../Domain/Brand.ts"
import { findUrls } from "./Citations.ts"
import { type BrandMatches, coversDomain, matchBrands, normalizeDomain, type Occurrence } from "./Matching.ts"
import { sentimentValue, toSentimentScore } from "./Sentiment.ts"

export interface BrandToDetect {
  readonly id: number
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  readonly domains: ReadonlyArray<string>
  readonly classification: Classification
}

export interface DetectedMention {
  readonly brand_id: number
  /** 1..n without gaps, by first occurrence. */
  readonly position: number
  /** Integer 0..100, 50 neutral. */
  readonly sentiment_score: number
  /**
   * Offset of the first occurrence in the NFC text (UTF-16 code units); for a brand
   * found through citations only, `text.length + i` with i the 0-based index of the
   * first cited domain it covers, so such brands rank after every text match.
   */
  readonly first_index: number
}

/** Score of a brand without any sentence to judge (mentioned through a citation only). */
const NEUTRAL = 50

/**
 * Detects the brands mentioned in a response text.
 *
 * - A brand is mentioned by a whole-word occurrence of its name or an alias, by an
 *   occurrence of one of its domains (or a subdomain), or, failing both, by a cited
 *   domain equal to or under one of its domains (`citedDomains`, in citation order).
 * - `ignored` brands get no mention; blank names, aliases and domains are skipped, and
 *   domains without a dot are ignored (a bare word is what names are for).
 * - Positions rank brands by first occurrence; at the same offset the longer match
 *   comes first ("Acme Cloud" before "Acme": it is the more specific reading), then the
 *   lower brand id.
 * - The sentiment is the average of the sentence sentiments of every distinct sentence
 *   holding one of its text occurrences, rounded once; brand names, domains and URLs in
 *   those sentences are masked first so that "Best Buy" or "greatdeals.com" carry no
 *   opinion. A brand found only through citations scores 50.
 */
export const detectMentions = (
  text: string,
  brands: ReadonlyArray<BrandToDetect>,
  citedDomains: ReadonlyArray<string> = []
): Array<DetectedMention> => {
  const nfc = text.normalize("NFC")
  const cited = citedDomains.map(normalizeDomain)
  // Every brand's occurrences, ignored ones included: their names are masked for sentiment too.
  const matches = matchBrands(nfc, brands.map((brand) => ({ names: [brand.name, ...brand.aliases], domains: brandDomains(brand) })))

  const found: Array<{ brand: BrandToDetect; index: number; first: number; length: number; inText: boolean }> = []
  brands.forEach((brand, index) => {
    if (brand.classification === "ignored") return
    const first = matches.firstOf(index)
    if (first !== undefined) {
      found.push({ brand, index, first: first.start, length: first.length, inText: true })
      return
    }
    const domains = brandDomains(brand)
    const citation = cited.findIndex((c) => c !== undefined && domains.some((d) => coversDomain(d, c)))
    if (citation !== -1) found.push({ brand, index, first: nfc.length + citation, length: 0, inText: false })
  })
  found.sort((a, b) => a.first - b.first || b.length - a.length || a.brand.id - b.brand.id)

  const inText = found.filter((f) => f.inText)
  // Sentences are found only when some brand occurs in the text.
  const scores = inText.length === 0 ? new Map<number, number>() : sentimentScores(nfc, matches, inText.map((f) => f.index))
  return found.map(({ brand, first, index }, i) => ({
    brand_id: brand.id,
    position: i + 1,
    sentiment_score: scores.get(index) ?? NEUTRAL,
    first_index: first
  }))
}

/** The brand's canonical domains that look like domains (at least one dot). */
export const brandDomains = (brand: Pick<BrandToDetect, "domains">): Array<string> =>
  brand.domains.flatMap((raw) => {
    const domain = normalizeDomain(raw)
    return domain !== undefined && domain.includes(".") ? [domain] : []
  })

/**
 * Each brand's score (by index): the average sentiment of the distinct sentences holding one of its
 * occurrences, the sentences found in the text with every brand masked.
 */
const sentimentScores = (text: string, matches: BrandMatches, brands: ReadonlyArray<number>): Map<number, number> => {
  const sentences = sentencesOf(maskForSentiment(text, matches.covered))
  const values = new Map<number, number>()
  const valueOf = (sentence: number): number => {
    let value = values.get(sentence)
    if (value === undefined) values.set(sentence, (value = sentimentValue(sentences.texts[sentence]!)))
    return value
  }
  const lists = matches.sentencesOf(sentences.starts, brands)
  return new Map(brands.map((brand, i) => {
    const distinct = lists[i]!
    return [brand, toSentimentScore(distinct.reduce((sum, sentence) => sum + valueOf(sentence), 0) / distinct.length)] as const
  }))
}

/**
 * The text as the sentence splitter and the lexicon should see it, same length so that
 * offsets still hold: brand occurrences become one neutral token of `x`s (the sentence
 * keeps its subject, and "Yahoo!" cannot end a sentence), upper case where the original
 * is (the splitter reads ". Foo" as a new sentence but ". foo" not); URLs become spaces
 * (their `?` and `.` cannot end a sentence either).
 */
export const maskForSentiment = (text: string, occurrences: ReadonlyArray<Occurrence>): string => {
  // UTF-16 units, as offsets are; occurrences and URLs never split a surrogate pair.
  const units = text.split("")
  for (const { end, start } of occurrences) {
    for (let i = start; i < end; i++) units[i] = /\p{Lu}/u.test(units[i]!) ? "X" : "x"
  }
  for (const { end, start } of findUrls(text)) units.fill(" ", start, end)
  return units.join("")
}

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" })

/** A window of the text segmented at once: big enough for a few sentences, small enough to stay linear. */
const SEGMENT_WINDOW = 4096

/**
 * The sentences of a text, as the segmenter finds them in the whole text, found window by window:
 * the segmenter's cost grows faster than the length of what it is given (0.5 s for 200,000
 * characters, 3 ms for 20,000), so a long answer is segmented in windows. Each window starts at a
 * boundary already found and its last sentence, which the window's end may cut, is found again by
 * the next window; a sentence longer than a window widens it.
 */
export const sentencesOf = (text: string): { readonly starts: Array<number>; readonly texts: Array<string> } => {
  const starts: Array<number> = []
  const texts: Array<string> = []
  let from = 0
  let window = SEGMENT_WINDOW
  while (from < text.length) {
    const end = Math.min(text.length, from + window)
    const segments = Array.from(segmenter.segment(text.slice(from, end)))
    const last = end === text.length
    if (!last && segments.length < 2) {
      window *= 2
      continue
    }
    for (const { index, segment } of last ? segments : segments.slice(0, -1)) {
      starts.push(from + index)
      texts.push(segment)
    }
    if (last) break
    from += segments.at(-1)!.index
    window = SEGMENT_WINDOW
  }
  return { starts, texts }
}
