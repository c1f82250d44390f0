/**
 * Where a brand name or a domain occurs in a text (docs/api.md: "as a whole word,
 * case-insensitive, Unicode-aware", "or one of its domains occurs").
 *
 * Texts and names are compared in NFC, so a decomposed "é" in either matches a
 * precomposed one; offsets are therefore offsets in `text.normalize("NFC")`, which is
 * the text itself for the usual (already NFC) input. Case-insensitivity is the regex
 * `iu` flags: Unicode simple case folding ("ÉCLAIR" = "éclair"; "STRASSE" ≠ "straße").
 */
import { domainToASCII, domainToUnicode } from "node:url"
import { domainOfHost } from "./Urls.ts"

/** `[start, end)` offsets of one occurrence in the NFC text. */
export interface Occurrence {
  readonly start: number
  readonly end: number
}

const WORD_CHAR = /^[\p{L}\p{M}\p{N}]$/u

/**
 * Scripts written without spaces between words (Chinese, Japanese, Thai, ...) or with
 * particles glued to nouns (Korean "삼성은"). Between two of their characters no word
 * boundary is visible, so boundaries cannot decide anything there.
 */
const NO_SPACE_CLASS =
  "\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}\\p{scx=Thai}\\p{scx=Lao}\\p{scx=Khmer}\\p{scx=Myanmar}"
const NO_SPACE_SCRIPT = new RegExp(`^[${NO_SPACE_CLASS}]$`, "u")

const isNoSpaceChar = (ch: string): boolean => NO_SPACE_SCRIPT.test(ch)

/**
 * Whether a neighbouring character glues onto a match, making it part of a longer word:
 * a letter, mark or number, except those of no-space scripts ("我推荐Acme的产品"
 * mentions Acme).
 */
const gluesToWord = (ch: string | undefined): boolean =>
  ch !== undefined && WORD_CHAR.test(ch) && !isNoSpaceChar(ch)

/** Hostname characters: a neighbour among these makes a longer domain. */
const gluesToDomain = (ch: string | undefined): boolean => ch === "-" || ch === "_" || gluesToWord(ch)

/** The whole code point just before / at an offset (surrogate pairs kept together). */
const charBefore = (text: string, at: number): string | undefined => {
  if (at <= 0) return undefined
  const cp = text.codePointAt(at - 2)
  return at >= 2 && cp !== undefined && cp > 0xffff ? String.fromCodePoint(cp) : text[at - 1]
}
const charAt = (text: string, at: number): string | undefined => {
  const cp = text.codePointAt(at)
  return cp === undefined ? undefined : String.fromCodePoint(cp)
}

/** Regex syntax characters; `-` must not be escaped outside a class under the `u` flag. */
const escapeRegExp = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/]/gu, "\\$&")

/** Every (possibly overlapping) match of a global regex, as occurrences. */
const allMatches = (pattern: RegExp, text: string): Array<Occurrence> => {
  const found: Array<Occurrence> = []
  pattern.lastIndex = 0
  let m: RegExpExecArray | null
  while ((m = pattern.exec(text)) !== null) {
    found.push({ start: m.index, end: m.index + m[0].length })
    // One code point on, so that a rejected match does not hide one that starts inside it.
    pattern.lastIndex = m.index + (charAt(text, m.index)?.length ?? 1)
  }
  return found
}

/**
 * The words of a text, to tell at once whether a name can occur in it (`wordsOf`). A word is a run of
 * letters, marks and numbers, or one character of a no-space script (those glue to nothing). Every
 * occurrence of a name starts one of its words where the name's first word starts: the characters
 * around that word in the name (the start, a space, punctuation) are not word characters, and the
 * whole-word rule keeps the text's characters around the match from gluing onto it.
 */
const WORD = new RegExp(`[${NO_SPACE_CLASS}]|(?:(?![${NO_SPACE_CLASS}])[\\p{L}\\p{M}\\p{N}])+`, "gu")

/**
 * A word as compared: lower, upper, then lower case again, so that every pair of characters the `iu`
 * flags match (long s and s, Kelvin sign and k, final sigma and sigma, ẞ and ß) folds to the same; a
 * pair it folds together that the regex tells apart (ß and ss) only costs a check.
 */
const foldWord = (word: string): string => word.toLowerCase().toUpperCase().toLowerCase()

/** The folded words of an NFC text, for `findNameOccurrences` and `findDomainOccurrences`. */
export const wordsOf = (text: string): ReadonlySet<string> => new Set(Array.from(text.matchAll(WORD), (match) => foldWord(match[0])))

/**
 * The folded first word of a name (or a domain), when every occurrence must start it: undefined for a
 * name without any word, or with a space before its first word (whitespace matches a run of any length).
 */
const firstWordOf = (name: string): string | undefined => {
  const trimmed = name.normalize("NFC").trim()
  WORD.lastIndex = 0
  const match = WORD.exec(trimmed)
  WORD.lastIndex = 0
  if (match === null || /\s/u.test(trimmed.slice(0, match.index))) return undefined
  return foldWord(match[0])
}

/** Whether a name cannot occur in a text of these words (no words given: it may). */
const cannotOccur = (name: string, words: ReadonlySet<string> | undefined): boolean => {
  if (words === undefined) return false
  const first = firstWordOf(name)
  return first !== undefined && !words.has(first)
}

/**
 * The regex of a brand name or alias, or undefined for a blank one. Whitespace in the
 * name matches any run of whitespace (line breaks, no-break spaces), and an apostrophe
 * matches the typographic ones ("McDonald's" = "McDonald’s"); everything else literally.
 */
export const namePattern = (name: string): RegExp | undefined => {
  const words = name.normalize("NFC").trim().split(/\s+/u).filter((w) => w !== "")
  if (words.length === 0) return undefined
  const source = words.map((w) => escapeRegExp(w).replace(/['\u2019\u02bc]/gu, "['\u2019\u02bc]")).join("\\s+")
  return new RegExp(source, "giu")
}

/**
 * Whole-word occurrences of a name in an NFC text: the characters around the match
 * must not glue onto it ("Acme" in "acme's", "(Acme)", "ACME." but not "Acmeville",
 * "SuperAcme", "Acme2"). A side where the name itself ends in a no-space-script
 * character ("阿里云" in "我推荐阿里云和腾讯云") is not checked: there a plain
 * substring is the best available rule.
 */
export const findNameOccurrences = (text: string, name: string, words?: ReadonlySet<string>): Array<Occurrence> => {
  // Most names of a project are absent from a given answer: a set look-up says so without a scan.
  if (cannotOccur(name, words)) return []
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

/**
 * Occurrences of a domain (or of a subdomain of it) in an NFC text, case-insensitive,
 * not inside a longer domain: "acme.com" is found in "acme.com", "www.acme.com/pricing",
 * "blog.acme.com", "sales@acme.com" and "visit acme.com.", not in "notacme.com",
 * "acme.com.evil.io", "acme.com-shop.io" or "acme.community".
 */
export const findDomainOccurrences = (text: string, domain: string, words?: ReadonlySet<string>): Array<Occurrence> =>
  domainSpellings(domain).flatMap((spelling) =>
    cannotOccur(spelling, words) ? [] : allMatches(new RegExp(escapeRegExp(spelling), "giu"), text).filter(({ end, start }) => {
      if (gluesToDomain(charBefore(text, start))) return false
      const next = charAt(text, end)
      // A dot followed by a label continues the name (acme.com.evil.io); a final dot ends a sentence.
      return !gluesToDomain(next) && !(next === "." && gluesToDomain(charAt(text, end + 1)))
    })
  ).sort((a, b) => a.start - b.start)

/** Whether a cited domain is the brand's domain or one of its subdomains. */
export const coversDomain = (brandDomain: string, citedDomain: string): boolean =>
  citedDomain === brandDomain || citedDomain.endsWith(`.${brandDomain}`)
