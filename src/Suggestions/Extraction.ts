/**
 * The candidate brands of one answer (docs/suggestions.md): names and domains the answer gives that are
 * no tracked brand, alias or brand domain. Pure and deterministic: the same answer and brands give the
 * same candidates.
 *
 * Tracked brands are found as brand detection finds them (`matchBrands`: whole words, Unicode case
 * folding, one automaton over the text); a span overlapping one of their occurrences is theirs, not a
 * candidate ("HubSpot CRM" when HubSpot is tracked).
 */
import type { Classification } from "../Domain/Brand.ts"
import { matchBrands, coversDomain, type Occurrence } from "../Detection/Matching.ts"
import { brandDomains, type BrandToDetect } from "../Detection/Mentions.ts"
import { normalizeUrl } from "../Detection/Urls.ts"
import { pageTypeOf, type PageType } from "../Sources/PageTypes.ts"
import { domainOccurrences, type DomainOccurrence, stopListedLabels } from "./Domains.ts"
import { domainKeyOf, keyOf } from "./Keys.ts"
import { type Span, type SpanKind, proseSpans, structuralSpans } from "./Spans.ts"
import { defaultCategoryWords, isGenericWord, plainWord } from "./Vocabulary.ts"

export interface ExtractionContext {
  /** Every brand of the project, ignored ones included (their names are never suggested). */
  readonly tracked: ReadonlyArray<BrandToDetect>
  /** The prompt the answer answers: its lower-case words name no brand. */
  readonly prompt: string
  /** Category words dropped from the end of keys (`categoryWordsOf` of the project's prompts). */
  readonly categoryWords?: ReadonlySet<string>
}

export interface CandidateOccurrence extends Occurrence {
  readonly kind: SpanKind
}

/** One candidate in one answer. */
export interface AnswerCandidate {
  readonly key: string
  /** Its spellings in this answer, as written, in order of first use. */
  readonly spellings: ReadonlyArray<string>
  /** The suggestible registrable domains linked to it, in order. */
  readonly domains: ReadonlyArray<string>
  /** Where the answer names it (empty when only a domain points at it). */
  readonly occurrences: ReadonlyArray<CandidateOccurrence>
  /**
   * 1-based order of its first appearance among the brands of the answer, tracked or confirmed candidates
   * (an unconfirmed one takes the place after those before it, without moving them).
   */
  readonly order: number
  readonly inList: boolean
  readonly bold: boolean
  readonly linked: boolean
  readonly cited: boolean
  /**
   * False when the answer only writes it at the start of sentences, without a domain: it counts only if
   * another answer of the window confirms it (`confirmNames`).
   */
  readonly confirmed: boolean
}

export interface TrackedMention {
  readonly brand_id: number
  readonly classification: Classification
  readonly order: number
}

export interface AnswerExtraction {
  readonly candidates: ReadonlyArray<AnswerCandidate>
  /** The tracked brands (not ignored) the answer names or cites, as brand detection counts them. */
  readonly tracked: ReadonlyArray<TrackedMention>
}

const STRUCTURAL: ReadonlyArray<SpanKind> = ["list", "heading", "table"]

/** Page types a publisher's citations have (`pageTypeOf`). */
const PUBLISHED: ReadonlySet<PageType> = new Set(["article", "listicle", "comparison"])

/** The candidates of one answer. */
export const extractCandidates = (
  input: { readonly text: string; readonly citations: ReadonlyArray<string> },
  context: ExtractionContext
): AnswerExtraction => {
  const text = input.text.normalize("NFC")
  const categoryWords = context.categoryWords ?? defaultCategoryWords
  const matches = matchBrands(text, context.tracked.map((b) => ({ names: [b.name, ...b.aliases], domains: brandDomains(b) })))
  const trackedKeys = new Set(context.tracked.flatMap((b) => [b.name, ...b.aliases].map((n) => keyOf(n, categoryWords))))
  const trackedDomains = context.tracked.flatMap(brandDomains)
  const promptWords = lowerCaseWordsOf(context.prompt)

  // Names.
  const spans = [...structuralSpans(text), ...proseSpans(text)]
  const named: Array<{ span: Span; key: string }> = []
  for (const raw of spans) {
    const span = withoutLeadingGenericWords(raw)
    if (span === undefined || !isNameLike(span.text)) continue
    if (overlaps(matches.covered, span)) continue
    if (span.text.split(/\s+/u).every((w) => promptWords.has(plainWord(w)))) continue
    const key = keyOf(span.text, categoryWords)
    if (key === "" || trackedKeys.has(key) || stopListedLabels.has(key) || isBareLowerCaseDomain(span.text)) continue
    named.push({ span, key })
  }
  // A name that only starts sentences must be written elsewhere too ("Apple Watch is not a CRM."), in this
  // answer or, once the window is read, another (`Variants.ts`); until then it is unconfirmed.
  const confirmed = new Set(named.filter((n) => n.span.kind !== "prose" || n.span.sentenceStart !== true).map((n) => n.key))
  const names = named

  // Domains.
  const links = spans.flatMap((s) => (s.kind === "link" && s.url !== undefined ? [{ url: s.url, at: s.start }] : []))
  const domains = domainOccurrences(text, input.citations, links).filter((o) =>
    !trackedDomains.some((d) => coversDomain(d, o.domain) || coversDomain(o.domain, d))
  )
  const domainKeys = domains.map((o) => domainKeyOf(o.domain))

  const byKey = new Map<string, { spans: Array<Span>; domains: Array<DomainOccurrence> }>()
  const entry = (key: string) => {
    let found = byKey.get(key)
    if (found === undefined) byKey.set(key, (found = { spans: [], domains: [] }))
    return found
  }
  for (const { key, span } of names) entry(key).spans.push(span)
  const nameKeys = [...new Set(names.map((n) => n.key))]
  domains.forEach((o, i) => {
    let key = domainKeys[i]!
    // "keepersecurity.com", "mizunousa.com": a domain whose main label starts with a name of the answer is that name's.
    if (!byKey.has(key)) key = nameKeys.find((k) => k.length >= 4 && key.startsWith(k)) ?? key
    if (key === "" || trackedKeys.has(key) || stopListedLabels.has(key)) return
    // "security.org" cited names no brand; "monday.com" written in the text does.
    if (isGenericWord(key) && o.source !== "text") return
    if (trackedKeys.has(domainKeys[i]!)) return
    entry(key).domains.push(o)
  })

  // Order: every tracked brand and candidate by first appearance (a cited-only one after the text).
  const firsts: Array<{ id: string; first: number; length: number }> = []
  const tracked: Array<{ brand: BrandToDetect; first: number }> = []
  context.tracked.forEach((brand, i) => {
    if (brand.classification === "ignored") return
    const match = matches.firstOf(i)
    let first = match?.start
    if (first === undefined) {
      const cited = input.citations.findIndex((url) => {
        const host = normalizeUrl(url)?.domain
        return host !== undefined && brandDomains(brand).some((d) => coversDomain(d, host))
      })
      if (cited !== -1) first = text.length + cited
    }
    if (first !== undefined) {
      tracked.push({ brand, first })
      firsts.push({ id: `t${brand.id}`, first, length: match?.length ?? 0 })
    }
  })
  // A domain only cited or linked, never named, through articles and lists alone is a publisher.
  for (const [key, found] of byKey) {
    if (found.spans.length === 0 && found.domains.every((d) => d.url !== undefined && PUBLISHED.has(pageTypeOf(d.url)))) byKey.delete(key)
  }
  const confirmedKey = (key: string) => confirmed.has(key) || (byKey.get(key)?.domains.length ?? 0) > 0
  const candidates = [...byKey].map(([key, found]) => {
    const occurrences = dedupe(found.spans)
    const first = Math.min(...occurrences.map((o) => o.start), ...found.domains.map((d) => d.at))
    firsts.push({ id: `c${key}`, first, length: occurrences[0] ? occurrences[0].end - occurrences[0].start : 0 })
    return { key, found, occurrences }
  })
  firsts.sort((a, b) => a.first - b.first || b.length - a.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  // An unconfirmed name does not move the others: it takes the place after the brands before it.
  const isUnconfirmed = (id: string) => id.startsWith("c") && !confirmedKey(id.slice(1))
  const orderOf = new Map<string, number>()
  let placed = 0
  for (const f of firsts) {
    if (isUnconfirmed(f.id)) orderOf.set(f.id, placed + 1)
    else orderOf.set(f.id, ++placed)
  }

  return {
    candidates: candidates
      .map(({ found, key, occurrences }): AnswerCandidate => ({
        key,
        spellings: [...new Set(occurrences.map((o) => text.slice(o.start, o.end)))],
        domains: [...new Set(found.domains.map((d) => d.domain))],
        occurrences,
        order: orderOf.get(`c${key}`)!,
        inList: occurrences.some((o) => STRUCTURAL.includes(o.kind)),
        bold: found.spans.some((s) => s.kind === "bold"),
        linked: found.spans.some((s) => s.kind === "link") || found.domains.some((d) => d.source === "link"),
        cited: found.domains.some((d) => d.source === "citation"),
        confirmed: confirmedKey(key)
      }))
      .sort((a, b) => a.order - b.order),
    tracked: tracked
      .map(({ brand }) => ({ brand_id: brand.id, classification: brand.classification, order: orderOf.get(`t${brand.id}`)! }))
      .sort((a, b) => a.order - b.order)
  }
}

/** The occurrences of a candidate, one per place (a bold list lead is one occurrence, of the stronger kind). */
const dedupe = (spans: ReadonlyArray<Span>): Array<CandidateOccurrence> => {
  const rank: Record<SpanKind, number> = { list: 0, heading: 1, table: 2, link: 3, bold: 4, prose: 5 }
  const sorted = [...spans].sort((a, b) => a.start - b.start || rank[a.kind] - rank[b.kind])
  const kept: Array<CandidateOccurrence> = []
  for (const span of sorted) {
    const last = kept.at(-1)
    if (last !== undefined && span.start < last.end) continue
    kept.push({ start: span.start, end: span.end, kind: span.kind })
  }
  return kept
}

/** The span without its leading generic words ("Best Pipedrive" → "Pipedrive"), or undefined if nothing is left. */
const withoutLeadingGenericWords = (span: Span): Span | undefined => {
  let { start, text } = span
  for (;;) {
    const word = /^\S+\s+/u.exec(text)
    if (word === null || !isGenericWord(word[0])) break
    start += word[0].length
    text = text.slice(word[0].length)
  }
  return text.split(/\s+/u).every(isGenericWord) ? undefined : { ...span, text, start }
}

/** A name starts with a capital, a digit and a capital, or a lower-case CamelCase prefix; holds a letter. */
const isNameLike = (name: string): boolean =>
  /\p{L}/u.test(name) && (/^\p{Lu}/u.test(name) || /^\p{N}+\p{L}/u.test(name) || /^\p{Ll}+\p{Lu}/u.test(name))

/** "g2.com" as a link's anchor is the domain, not a name; "Monday.com" is a name. */
const isBareLowerCaseDomain = (name: string): boolean => /^[\p{Ll}\p{N}-]+(?:\.[\p{Ll}\p{N}-]+)+$/u.test(name)

const overlaps = (covered: ReadonlyArray<Occurrence>, span: Occurrence): boolean =>
  covered.some((o) => o.start < span.end && span.start < o.end)

/** The words a prompt writes in lower case (and its first word): they describe the need, they name nothing. */
const lowerCaseWordsOf = (prompt: string): ReadonlySet<string> => {
  const words = prompt.split(/\s+/u).filter((w) => w !== "")
  return new Set(words.filter((w, i) => i === 0 || !/\p{Lu}/u.test(w)).map(plainWord))
}
