/**
 * Where brand names and domains occur in a text (docs/api.md: "as a whole word,
 * case-insensitive, Unicode-aware", "or one of its domains occurs").
 *
 * Texts and names are compared in NFC, so a decomposed "é" in either matches a
 * precomposed one; offsets are therefore offsets in `text.normalize("NFC")`, which is
 * the text itself for the usual (already NFC) input. Case-insensitivity is Unicode simple
 * case folding, as the regex `iu` flags apply it ("ÉCLAIR" = "éclair"; "STRASSE" ≠ "straße").
 *
 * All the names and domains of a project are looked for at once, by one automaton read over the text
 * once (docs/detection.md, "Cost"): the work grows with the text, not with the number or shape of the
 * names.
 */
import { domainToASCII, domainToUnicode } from "node:url"
import { Automaton, type Meter } from "./Automaton.ts"
import { foldCodePoint } from "./CaseFolding.ts"
import { domainOfHost } from "./Urls.ts"

/** `[start, end)` offsets of one occurrence in the NFC text. */
export interface Occurrence {
  readonly start: number
  readonly end: number
}

// --- Characters ---------------------------------------------------------------------------------

/**
 * Scripts written without spaces between words (Chinese, Japanese, Thai, ...) or with
 * particles glued to nouns (Korean "삼성은"). Between two of their characters no word
 * boundary is visible, so boundaries cannot decide anything there.
 */
const NO_SPACE_CLASS =
  "\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}\\p{scx=Thai}\\p{scx=Lao}\\p{scx=Khmer}\\p{scx=Myanmar}"
const NO_SPACE_SCRIPT = new RegExp(`^[${NO_SPACE_CLASS}]$`, "u")
const WORD_CHAR = /^[\p{L}\p{M}\p{N}]$/u

/** What a character is, as bits. */
const WHITESPACE = 1
/**
 * A neighbour that glues onto a match, making it part of a longer word: a letter, mark or number,
 * except those of no-space scripts ("我推荐Acme的产品" mentions Acme).
 */
const GLUES_TO_WORD = 2
/** Hostname characters: a neighbour among these makes a longer domain. */
const GLUES_TO_DOMAIN = 4
const NO_SPACE = 8
const DOT = 16
/** ' ’ ʼ: one character in names ("McDonald's" = "McDonald’s"). */
const APOSTROPHE = 32
const KNOWN = 128

/** The bits of every code point met so far (0: not looked at yet). */
const traitsCache = new Uint8Array(0x110000)

const traitsOf = (codePoint: number): number => {
  let traits = traitsCache[codePoint]!
  if (traits === 0) {
    const ch = String.fromCodePoint(codePoint)
    const noSpace = NO_SPACE_SCRIPT.test(ch)
    const gluesToWord = WORD_CHAR.test(ch) && !noSpace
    traits = KNOWN |
      (/^\s$/u.test(ch) ? WHITESPACE : 0) |
      (gluesToWord ? GLUES_TO_WORD : 0) |
      (gluesToWord || ch === "-" || ch === "_" ? GLUES_TO_DOMAIN : 0) |
      (noSpace ? NO_SPACE : 0) |
      (ch === "." ? DOT : 0) |
      (ch === "'" || ch === "\u2019" || ch === "\u02bc" ? APOSTROPHE : 0)
    traitsCache[codePoint] = traits
  }
  return traits
}

// --- Symbols: text and names as the automaton reads them ------------------------------------------

/** A run of whitespace, in texts and names alike: whitespace in a name matches any run of it. */
const SPACE = 0x20
/** Any apostrophe, in names. */
const APOS = 0x27

/**
 * A text as the automata read it: one symbol a character (its case class), a run of whitespace one
 * symbol. Names read apostrophes as one; domains tell them apart.
 */
interface TextSymbols {
  readonly names: Int32Array
  readonly domains: Int32Array
  /** The traits of the character behind each symbol (of whitespace for a run). */
  readonly traits: Uint8Array
  /** Where each symbol starts in the text, then the text's length (one more entry than symbols). */
  readonly offsets: Int32Array
}

const readText = (text: string): TextSymbols => {
  const names = new Int32Array(text.length)
  const domains = new Int32Array(text.length)
  const traits = new Uint8Array(text.length)
  const offsets = new Int32Array(text.length + 1)
  let count = 0
  for (let i = 0; i < text.length;) {
    const codePoint = text.codePointAt(i)!
    const these = traitsOf(codePoint)
    if ((these & WHITESPACE) === 0 || count === 0 || (traits[count - 1]! & WHITESPACE) === 0) {
      const folded = (these & WHITESPACE) !== 0 ? SPACE : foldCodePoint(codePoint)
      names[count] = (these & APOSTROPHE) !== 0 ? APOS : folded
      domains[count] = folded
      traits[count] = these
      offsets[count] = i
      count++
    }
    i += codePoint > 0xffff ? 2 : 1
  }
  offsets[count] = text.length
  return { names: names.subarray(0, count), domains: domains.subarray(0, count), traits: traits.subarray(0, count), offsets: offsets.subarray(0, count + 1) }
}

/**
 * The symbols of a brand name or alias, or undefined for a blank one. Whitespace in the name matches
 * any run of whitespace (line breaks, no-break spaces), an apostrophe any apostrophe, everything else
 * itself in any case.
 */
const nameSymbols = (name: string): Array<number> | undefined => {
  const words = name.normalize("NFC").trim().split(/\s+/u).filter((word) => word !== "")
  if (words.length === 0) return undefined
  const symbols: Array<number> = []
  words.forEach((word, i) => {
    if (i > 0) symbols.push(SPACE)
    for (const ch of word) {
      const codePoint = ch.codePointAt(0)!
      symbols.push((traitsOf(codePoint) & APOSTROPHE) !== 0 ? APOS : foldCodePoint(codePoint))
    }
  })
  return symbols
}

/** The symbols of one spelling of a domain: its characters in any case. */
const domainSymbols = (spelling: string): Array<number> => Array.from(spelling, (ch) => foldCodePoint(ch.codePointAt(0)!))

// --- Boundaries --------------------------------------------------------------------------------

/** What must hold around an occurrence at symbols [start, end) for it to count. */
interface Boundaries {
  readonly symbolsOf: (text: TextSymbols) => Int32Array
  readonly left: (traits: Uint8Array, start: number) => boolean
  readonly right: (traits: Uint8Array, end: number) => boolean
}

/**
 * Names match as whole words: the characters around the match must not glue onto it ("Acme" in
 * "acme's", "(Acme)", "ACME." but not "Acmeville", "SuperAcme", "Acme2"). A side where the match
 * itself ends in a no-space-script character ("阿里云" in "我推荐阿里云和腾讯云") is not checked:
 * there a plain substring is the best available rule.
 */
const NAME: Boundaries = {
  symbolsOf: (text) => text.names,
  left: (traits, start) => (traits[start]! & NO_SPACE) !== 0 || start === 0 || (traits[start - 1]! & GLUES_TO_WORD) === 0,
  right: (traits, end) => (traits[end - 1]! & NO_SPACE) !== 0 || end === traits.length || (traits[end]! & GLUES_TO_WORD) === 0
}

/**
 * Domains (or subdomains of them) match unless inside a longer domain: "acme.com" is found in
 * "acme.com", "www.acme.com/pricing", "blog.acme.com", "sales@acme.com" and "visit acme.com.", not in
 * "notacme.com", "acme.com.evil.io", "acme.com-shop.io" or "acme.community".
 */
const DOMAIN: Boundaries = {
  symbolsOf: (text) => text.domains,
  left: (traits, start) => start === 0 || (traits[start - 1]! & GLUES_TO_DOMAIN) === 0,
  // A dot followed by a label continues the name (acme.com.evil.io); a final dot ends a sentence.
  right: (traits, end) =>
    end === traits.length ||
    ((traits[end]! & GLUES_TO_DOMAIN) === 0 &&
      !((traits[end]! & DOT) !== 0 && end + 1 < traits.length && (traits[end + 1]! & GLUES_TO_DOMAIN) !== 0))
}

/**
 * Every occurrence that counts of an automaton's patterns, in the order of their ends (longest first at
 * one end): `visit` gets the pattern's index and the occurrence's symbols [start, end). A position where
 * no match may end costs nothing more; one where some may, one step per pattern ending there.
 */
const forEachOccurrence = (
  automaton: Automaton,
  boundaries: Boundaries,
  text: TextSymbols,
  meter: Meter,
  visit: (pattern: number, start: number, end: number) => void
): void => {
  const { traits } = text
  automaton.scan(boundaries.symbolsOf(text), meter, (end, output) => {
    if (!boundaries.right(traits, end)) return
    for (let node = output; node !== 0; node = automaton.shorter(node)) {
      meter.steps++
      const pattern = automaton.patternOf(node)
      const start = end - automaton.lengths[pattern]!
      if (boundaries.left(traits, start)) visit(pattern, start, end)
    }
  })
}

/** The occurrences of one pattern, as offsets in the text. */
const occurrencesOf = (text: string, boundaries: Boundaries, symbols: ReadonlyArray<number> | undefined): Array<Occurrence> => {
  if (symbols === undefined) return []
  const read = readText(text)
  const found: Array<Occurrence> = []
  forEachOccurrence(Automaton.build([symbols]), boundaries, read, { steps: 0 }, (_, start, end) => {
    found.push({ start: read.offsets[start]!, end: read.offsets[end]! })
  })
  return found
}

/** Whole-word occurrences of a name in an NFC text. */
export const findNameOccurrences = (text: string, name: string): Array<Occurrence> => occurrencesOf(text, NAME, nameSymbols(name))

/** Occurrences of a domain (or of a subdomain of it) in an NFC text, case-insensitive, not inside a longer domain. */
export const findDomainOccurrences = (text: string, domain: string): Array<Occurrence> =>
  domainSpellings(domain)
    .flatMap((spelling) => occurrencesOf(text, DOMAIN, domainSymbols(spelling)))
    .sort((a, b) => a.start - b.start)

// --- Every brand of a project at once --------------------------------------------------------------

/** What a brand is found by: names and aliases, and canonical domains (`normalizeDomain`). */
export interface BrandNames {
  readonly names: ReadonlyArray<string>
  readonly domains: ReadonlyArray<string>
}

/**
 * Nodes one automaton holds at most (some 20 MB): a project's names beyond that (only a project near
 * every limit at once gets there, with names that share little) go into further automata, each built,
 * read over the text and dropped in turn, so that memory stays bounded whatever the names.
 */
export const MAX_AUTOMATON_NODES = 500_000

/** The occurrences of a project's brands in one text. */
export interface BrandMatches {
  /** Steps the automata took over the text (see `Automaton`): grows with the text, not the names. */
  readonly steps: number
  /**
   * A brand's first occurrence (offset in the text) and the length of its longest occurrence there,
   * or undefined when the text does not name it.
   */
  readonly firstOf: (brand: number) => { readonly start: number; readonly length: number } | undefined
  /** The parts of the text inside an occurrence of some brand, as disjoint intervals in order. */
  readonly covered: ReadonlyArray<Occurrence>
  /**
   * For each brand asked for, the distinct sentences holding the start of one of its occurrences, by
   * index in `sentenceStarts` (the ascending offsets where sentences start, the first 0).
   */
  readonly sentencesOf: (sentenceStarts: ReadonlyArray<number>, brands: ReadonlyArray<number>) => Array<Array<number>>
}

interface Pattern {
  readonly boundaries: Boundaries
  readonly symbols: ReadonlyArray<number>
}

/**
 * Every occurrence of these patterns in the text (`visit` gets the pattern's id): an automaton per kind of
 * pattern, or several when the patterns need more than `MAX_AUTOMATON_NODES` nodes, each built, read over
 * the text and dropped in turn.
 */
const forEachPatternOccurrence = (
  patterns: ReadonlyArray<Pattern>,
  ids: ReadonlyArray<number>,
  text: TextSymbols,
  meter: Meter,
  visit: (id: number, start: number, end: number) => void
): void => {
  for (const boundaries of [NAME, DOMAIN]) {
    let rest = ids.filter((id) => patterns[id]!.boundaries === boundaries)
    while (rest.length > 0) {
      const automaton = Automaton.build(rest.map((id) => patterns[id]!.symbols), MAX_AUTOMATON_NODES)
      const these = rest
      forEachOccurrence(automaton, boundaries, text, meter, (pattern, start, end) => visit(these[pattern]!, start, end))
      rest = rest.slice(automaton.lengths.length)
    }
  }
}

/**
 * The occurrences of every brand's names, aliases and domains in an NFC text. Each distinct name is
 * looked for once whatever the brands sharing it; a name whose first word the text lacks is not looked
 * for at all (its every occurrence would start with that word).
 */
export const matchBrands = (text: string, brands: ReadonlyArray<BrandNames>): BrandMatches => {
  const words = wordsOf(text)
  const patterns: Array<Pattern> = []
  const idOf = new Map<string, number>()
  const add = (boundaries: Boundaries, symbols: ReadonlyArray<number> | undefined): Array<number> => {
    if (symbols === undefined) return []
    const key = `${boundaries === NAME ? "n" : "d"}${String.fromCodePoint(...symbols)}`
    let id = idOf.get(key)
    if (id === undefined) {
      id = patterns.length
      idOf.set(key, id)
      patterns.push({ boundaries, symbols })
    }
    return [id]
  }
  /** Each brand's pattern ids: names and aliases, then domains, as given. */
  const brandPatterns = brands.map((brand) => [
    ...brand.names.flatMap((name) => cannotOccur(name, words) ? [] : add(NAME, nameSymbols(name))),
    ...brand.domains.flatMap((domain) =>
      domainSpellings(domain).flatMap((spelling) => cannotOccur(spelling, words) ? [] : add(DOMAIN, domainSymbols(spelling)))
    )
  ])
  const read = readText(text)
  const meter: Meter = { steps: 0 }

  // First pass: where each pattern first occurs, and what the occurrences cover.
  const first = new Int32Array(patterns.length).fill(-1)
  const coveredFrom = new Int32Array(read.offsets.length).fill(-1)
  forEachPatternOccurrence(patterns, [...patterns.keys()], read, meter, (id, start, end) => {
    if (first[id] === -1) first[id] = start
    if (coveredFrom[end] === -1 || start < coveredFrom[end]!) coveredFrom[end] = start
  })
  // The union of the occurrences, as disjoint intervals: from the last end back, each reaching to its start.
  const covered: Array<Occurrence> = []
  for (let end = coveredFrom.length - 1; end > 0; end--) {
    let start = coveredFrom[end]!
    if (start === -1) continue
    let reach = end
    // Every occurrence ending inside [start, end) joins the interval, and may take its start further back.
    while (reach > start) {
      reach--
      if (coveredFrom[reach] !== -1 && coveredFrom[reach]! < start) start = coveredFrom[reach]!
    }
    covered.push({ start: read.offsets[start]!, end: read.offsets[end]! })
    end = start + 1
  }
  covered.reverse()

  return {
    steps: meter.steps,
    covered,
    firstOf: (brand) => {
      let start = -1
      let length = 0
      for (const id of brandPatterns[brand]!) {
        const at = first[id]!
        if (at === -1 || (start !== -1 && at > start)) continue
        const here = read.offsets[at + patterns[id]!.symbols.length]! - read.offsets[at]!
        length = at === start ? Math.max(length, here) : here
        start = at
      }
      return start === -1 ? undefined : { start: read.offsets[start]!, length }
    },
    // Second pass (sentences are found on a text masked with `covered`): each wanted pattern's distinct
    // sentences, in order; then each brand's, in the order of its patterns.
    sentencesOf: (sentenceStarts, wanted) => {
      const sentenceOfSymbol = new Int32Array(read.traits.length)
      let sentence = 0
      for (let symbol = 0; symbol < sentenceOfSymbol.length; symbol++) {
        while (sentence + 1 < sentenceStarts.length && sentenceStarts[sentence + 1]! <= read.offsets[symbol]!) sentence++
        sentenceOfSymbol[symbol] = sentence
      }
      const lists = new Map<number, Array<number>>()
      for (const brand of wanted) for (const id of brandPatterns[brand]!) if (first[id] !== -1) lists.set(id, [])
      // Only the wanted brands' patterns that occur are read again.
      forEachPatternOccurrence(patterns, [...lists.keys()], read, meter, (id, start) => {
        const list = lists.get(id)!
        const at = sentenceOfSymbol[start]!
        // A pattern's occurrences come in order: a repeat of a sentence is the last one listed.
        if (list.at(-1) !== at) list.push(at)
      })
      const seenBy = new Int32Array(sentenceStarts.length).fill(-1)
      return wanted.map((brand) => {
        const distinct: Array<number> = []
        for (const id of brandPatterns[brand]!) {
          for (const at of lists.get(id) ?? []) {
            if (seenBy[at] === brand) continue
            seenBy[at] = brand
            distinct.push(at)
          }
        }
        return distinct
      })
    }
  }
}

// --- The first-word filter ---------------------------------------------------------------------

/**
 * The words of a text, to tell at once whether a name can occur in it. A word is a run of
 * letters, marks and numbers, or one character of a no-space script (those glue to nothing). Every
 * occurrence of a name starts one of its words where the name's first word starts: the characters
 * around that word in the name (the start, a space, punctuation) are not word characters, and the
 * whole-word rule keeps the text's characters around the match from gluing onto it.
 */
const WORD = new RegExp(`[${NO_SPACE_CLASS}]|(?:(?![${NO_SPACE_CLASS}])[\\p{L}\\p{M}\\p{N}])+`, "gu")

/**
 * A word as compared: lower, upper, then lower case again, so that every pair of characters the `iu`
 * flags match (long s and s, Kelvin sign and k, final sigma and sigma, ẞ and ß) folds to the same; a
 * pair it folds together that matching tells apart (ß and ss) only costs a look.
 */
const foldWord = (word: string): string => word.toLowerCase().toUpperCase().toLowerCase()

/**
 * Apostrophes are one character to matching, but "ʼ" is a letter and "’" is not: both are read as "'"
 * before words are told apart, in texts and names alike.
 */
const withPlainApostrophes = (text: string): string => text.replace(/[\u2019\u02bc]/gu, "'")

/** The folded words of an NFC text. */
const wordsOf = (text: string): ReadonlySet<string> =>
  new Set(Array.from(withPlainApostrophes(text).matchAll(WORD), (match) => foldWord(match[0])))

/**
 * The folded first word of a name (or a domain), when every occurrence must start it: undefined for a
 * name without any word, or with a space before its first word (whitespace matches a run of any length).
 */
const firstWordOf = (name: string): string | undefined => {
  const trimmed = withPlainApostrophes(name.normalize("NFC").trim())
  WORD.lastIndex = 0
  const match = WORD.exec(trimmed)
  WORD.lastIndex = 0
  if (match === null || /\s/u.test(trimmed.slice(0, match.index))) return undefined
  return foldWord(match[0])
}

/** Whether a name cannot occur in a text of these words. */
const cannotOccur = (name: string, words: ReadonlySet<string>): boolean => {
  const first = firstWordOf(name)
  return first !== undefined && !words.has(first)
}

// --- Domains -----------------------------------------------------------------------------------

/**
 * A domain in canonical form: ASCII (punycode) lower case, no trailing dot, no leading
 * `www.` (as Source domains); a URL or `host/path` is reduced to its host. Undefined
 * when no hostname can be read.
 */
export const normalizeDomain = (raw: string): string | undefined => {
  const trimmed = raw.trim()
  if (trimmed === "") return undefined
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//iu.test(trimmed) ? trimmed : `http://${trimmed}`
  let hostname: string
  try {
    hostname = new URL(withScheme).hostname
  } catch {
    return undefined
  }
  const host = hostname.replace(/\.+$/u, "")
  return host === "" ? undefined : domainOfHost(host)
}

/**
 * The spellings of a domain to look for in a text: its ASCII form and, for an IDN,
 * its Unicode form (texts write "bücher.de", citations carry "xn--bcher-kva.de").
 */
export const domainSpellings = (domain: string): Array<string> => {
  const ascii = domainToASCII(domain) || domain
  const unicode = domainToUnicode(ascii).normalize("NFC")
  return unicode !== "" && unicode !== ascii ? [ascii, unicode] : [ascii]
}

/** Whether a cited domain is the brand's domain or one of its subdomains. */
export const coversDomain = (brandDomain: string, citedDomain: string): boolean =>
  citedDomain === brandDomain || citedDomain.endsWith(`.${brandDomain}`)
