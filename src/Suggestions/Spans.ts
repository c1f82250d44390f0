/**
 * Where an answer may name a brand (docs/suggestions.md, "Where names are looked for"): the structure of
 * its markdown first (list-item leads, bold text, headings, first cells of tables, link anchors), then
 * its prose (capitalised names that do not start a sentence, CamelCase and dotted names anywhere).
 * Spans only: which of them are brands is decided by `Extraction.ts`.
 *
 * Offsets are UTF-16 offsets in the NFC text, as in brand detection.
 */
import { integrationCue } from "./Vocabulary.ts"

export type SpanKind = "list" | "bold" | "heading" | "table" | "link" | "prose"

export interface Span {
  /** The span's characters: `text.slice(start, end)`. */
  readonly text: string
  readonly start: number
  readonly end: number
  readonly kind: SpanKind
  /** For a link anchor: the link's URL. */
  readonly url?: string
  /**
   * For prose: the span starts a sentence (or a line, or follows a colon), where any word is capitalised,
   * so it is a name only if the answer also writes it elsewhere.
   */
  readonly sentenceStart?: boolean
}

/** A name is short: longer leads are sentences. */
const MAX_WORDS = 5
const MAX_LENGTH = 60

/** The lead of a list item or heading ends at the first of these: "Pipedrive – visual pipelines", "Zoho CRM: cheap". */
const LEAD_END = /\s[-–—|]\s|\s[-–—]$|:|\s\(|,|;|\.(?:\s|$)|!|\?/u

const BOLD = /\*\*([^*\n]+?)\*\*|__([^_\n]+?)__/gu
const LINK = /(?<!!)\[([^\]\n]+)\]\((<?https?:\/\/[^)\s>]+>?)(?:\s+"[^"]*")?\)/gu
const LIST_ITEM = /^(\s*)(?:[-*+•]|\d{1,3}[.)])\s+/u
const HEADING = /^\s{0,3}#{1,6}\s+/u
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/u

/** A span of `text` from `start` to `end`, trimmed of spaces, markup and trailing punctuation; undefined if empty. */
const trimmed = (text: string, start: number, end: number, kind: SpanKind, extra: Partial<Span> = {}): Span | undefined => {
  while (start < end && /[\s*_`"'“”‘’(\[#>]/u.test(text[start]!)) start++
  while (end > start && /[\s*_`"'“”‘’)\].,:;!?]/u.test(text[end - 1]!)) end--
  // A possessive belongs to the sentence, not the name.
  const possessive = /['’]s$/u.exec(text.slice(start, end))
  if (possessive !== null) end -= possessive[0].length
  if (end <= start) return undefined
  const value = text.slice(start, end)
  if (value.length > MAX_LENGTH || value.split(/\s+/u).length > MAX_WORDS) return undefined
  return { text: value, start, end, kind, ...extra }
}

/** The lead of a line's content starting at `from`: up to the first separator, unless it is bold or a link. */
const leadOf = (text: string, from: number, lineEnd: number, kind: SpanKind): Array<Span> => {
  const content = text.slice(from, lineEnd)
  // Numbered headings: "## 3. Pipedrive".
  const numbering = /^\s*\d{1,3}[.)]\s+/u.exec(content)
  const at = from + (numbering?.[0].length ?? 0)
  const rest = text.slice(at, lineEnd)
  const bold = /^\s*(?:\*\*([^*\n]+?)\*\*|__([^_\n]+?)__)/u.exec(rest)
  if (bold !== null) {
    const inner = at + bold[0].indexOf(bold[1] ?? bold[2]!)
    return spanUpTo(text, inner, inner + (bold[1] ?? bold[2]!).length, kind)
  }
  const link = /^\s*\[([^\]\n]+)\]\(/u.exec(rest)
  if (link !== null) {
    const inner = at + link[0].indexOf("[") + 1
    return spanUpTo(text, inner, inner + link[1]!.length, kind)
  }
  return spanUpTo(text, at, lineEnd, kind)
}

/**
 * The span from `start` to the first separator before `end`; when the part before a colon is a label
 * ("Best for enterprises: Salesforce"), the part after it too.
 */
const spanUpTo = (text: string, start: number, end: number, kind: SpanKind): Array<Span> => {
  const part = text.slice(start, end)
  const separator = LEAD_END.exec(part)
  const leadEnd = separator === null ? end : start + separator.index
  const lead = trimmed(text, start, leadEnd, kind)
  const spans = lead === undefined ? [] : [lead]
  if (separator !== null && separator[0] === ":") {
    const after = start + separator.index + 1
    const tail = LEAD_END.exec(text.slice(after, end).replace(/^\s+/u, (s) => " ".repeat(s.length)))
    const next = trimmed(text, after, tail === null ? end : after + tail.index, kind)
    if (next !== undefined) spans.push(next)
  }
  return spans
}

/** The spans of the answer's markdown structure. */
export const structuralSpans = (text: string): Array<Span> => {
  const spans: Array<Span> = []
  const lines = linesOf(text)
  lines.forEach((line, i) => {
    const content = text.slice(line.start, line.end)
    const item = LIST_ITEM.exec(content)
    const heading = HEADING.exec(content)
    if (heading !== null) {
      spans.push(...leadOf(text, line.start + heading[0].length, line.end, "heading"))
    } else if (item !== null) {
      spans.push(...leadOf(text, line.start + item[0].length, line.end, "list"))
    } else if (/^\s*\|/u.test(content) && !TABLE_SEPARATOR.test(content)) {
      // The header row (the one above the separator) names columns, not brands.
      const next = lines[i + 1]
      const isHeader = next !== undefined && TABLE_SEPARATOR.test(text.slice(next.start, next.end))
      if (!isHeader) {
        const open = line.start + content.indexOf("|") + 1
        const close = text.indexOf("|", open)
        const cellEnd = close === -1 || close > line.end ? line.end : close
        spans.push(...leadOf(text, open, cellEnd, "table"))
      }
    }
  })
  for (const match of text.matchAll(BOLD)) {
    const inner = match.index + 2
    const span = trimmed(text, inner, inner + (match[1] ?? match[2]!).length, "bold")
    if (span !== undefined) spans.push(span)
  }
  for (const match of text.matchAll(LINK)) {
    const inner = match.index + 1
    const url = match[2]!.replace(/^<|>$/gu, "")
    const span = trimmed(text, inner, inner + match[1]!.length, "link", { url })
    if (span !== undefined) spans.push(span)
  }
  return spans
}

interface Line {
  readonly start: number
  readonly end: number
}

const linesOf = (text: string): Array<Line> => {
  const lines: Array<Line> = []
  let start = 0
  for (;;) {
    const end = text.indexOf("\n", start)
    lines.push({ start, end: end === -1 ? text.length : end })
    if (end === -1) return lines
    start = end + 1
  }
}

// --- Prose ---------------------------------------------------------------------------------------

/** A word: letters and digits, with inner dots, hyphens, apostrophes, `&` and `+` ("Monday.com", "AT&T", "Google+"). */
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}]|[.'’&+-](?=[\p{L}\p{N}]))*\+?/gu

/** A word written as a name: capitalised ("Pipedrive", "SAP"), CamelCase ("HubSpot", "eBay") or digit-led with a capital ("1Password"). */
const isCapitalised = (word: string): boolean => /^\p{Lu}/u.test(word) || /^\p{N}+\p{Lu}/u.test(word) || /^\p{Ll}+\p{Lu}/u.test(word)

/** CamelCase or a dotted name: a name wherever it stands ("HubSpot", "ClickUp", "Monday.com"). */
const isNameShaped = (word: string): boolean =>
  /\p{Ll}\p{Lu}/u.test(word) || /^\p{N}+\p{L}/u.test(word) || /^\p{L}[\p{L}\p{N}-]*\.\p{L}{2,}$/u.test(word)

/** Words that may join two capitalised words in one name ("Bank of America", "Marks & Spencer"); not "and", which joins two names far more often. */
const JOINERS = new Set(["of", "de"])

/**
 * The capitalised runs of the prose: sequences of capitalised words separated by single spaces (or one
 * joiner), not inside a link's target or inline code. Sentences with an integration cue ("integrates
 * with Gmail") give none.
 */
export const proseSpans = (text: string): Array<Span> => {
  const masked = maskMarkup(text)
  const spans: Array<Span> = []
  const words = Array.from(masked.matchAll(WORD), (m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }))
  let i = 0
  while (i < words.length) {
    if (!isCapitalised(words[i]!.word) && !isNameShaped(words[i]!.word)) {
      i++
      continue
    }
    let j = i
    for (;;) {
      const next = words[j + 1]
      if (next === undefined) break
      // "Marks & Spencer": `&` alone is no word, so it shows as the gap.
      if (masked.slice(words[j]!.end, next.start) === " & " && isCapitalised(next.word)) {
        j++
        continue
      }
      if (!oneSpaceBetween(masked, words[j]!.end, next.start)) break
      if (isCapitalised(next.word)) {
        j++
        continue
      }
      const after = words[j + 2]
      if (JOINERS.has(next.word) && after !== undefined && isCapitalised(after.word) && oneSpaceBetween(masked, next.end, after.start)) {
        j += 2
        continue
      }
      break
    }
    const start = words[i]!.start
    const end = words[j]!.end
    const sentence = sentenceAround(masked, start)
    if (!integrationCue.test(sentence)) {
      const span = trimmed(text, start, end, "prose", { sentenceStart: startsSentence(masked, start) })
      if (span !== undefined) spans.push(span)
      else {
        // A long run ("The Best CRM Software For Small Teams"): its name-shaped words still count.
        for (let k = i; k <= j; k++) {
          const w = words[k]!
          if (isNameShaped(w.word)) spans.push({ text: w.word, start: w.start, end: w.end, kind: "prose", sentenceStart: false })
        }
      }
    }
    i = j + 1
  }
  return spans
}

/** Whether a capitalised word at `start` could be capitalised for its place alone. */
const startsSentence = (text: string, start: number): boolean => {
  let k = start - 1
  while (k >= 0 && /[ \t*_"'“‘(\[]/u.test(text[k]!)) k--
  if (k < 0 || text[k] === "\n" || text[k] === "|") return true
  if (/[.!?:]/u.test(text[k]!)) return true
  // After a list marker or heading marker at the start of a line.
  const lineStart = text.lastIndexOf("\n", k) + 1
  return /^\s*(?:[-*+•>#]+|\d{1,3}[.)])\s*$/u.test(text.slice(lineStart, k + 1))
}

const oneSpaceBetween = (text: string, end: number, start: number): boolean => start - end === 1 && text[end] === " "

/** The sentence holding `at`: from the last `.!?` or line break before it to the next. */
const sentenceAround = (text: string, at: number): string => {
  let from = at
  while (from > 0 && !/[!?\n]/u.test(text[from - 1]!) && !(text[from - 1] === "." && /\s/u.test(text[from] ?? ""))) from--
  const rest = /[.!?](?:\s|$)|\n/u.exec(text.slice(at))
  return text.slice(from, rest === null ? text.length : at + rest.index)
}

/** The text with link targets, bare URLs and inline code blanked (same length, so offsets hold). */
const maskMarkup = (text: string): string =>
  text
    .replace(/\]\([^)\n]*\)/gu, (s) => "]" + " ".repeat(s.length - 1))
    .replace(/https?:\/\/[^\s)>\]]+/giu, (s) => " ".repeat(s.length))
    .replace(/`[^`\n]*`/gu, (s) => " ".repeat(s.length))
