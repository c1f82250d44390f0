/**
 * Citations of a response (docs/api.md): the platform's own list when it gave one,
 * else the URLs found in the answer text: markdown links, `<...>` autolinks and bare
 * URLs, in order of appearance, every occurrence counted.
 *
 * Only URLs written with an `http://` or `https://` scheme are found; `www.example.com`
 * without a scheme is prose, not a citation (it could as well be a mention of a domain,
 * which brand detection handles on its own).
 */
import { normalizeUrl } from "./Urls.ts"

/** One URL found in a text; `start`/`end` delimit its characters in the text. */
export interface UrlSpan {
  readonly url: string
  readonly start: number
  readonly end: number
}

/** One kept citation: the string as given, its normalized form and its Source domain. */
export interface ExtractedCitation {
  /** 1-based, in the order the citations were kept. */
  readonly position: number
  readonly raw: string
  readonly url: string
  readonly domain: string
}

/**
 * Citations of a response. `citations`, when given (even empty), is authoritative and
 * kept in order; when absent (`undefined` or `null`), the URLs of `text` are used.
 * Entries that do not normalize (not absolute http(s)) are skipped, and positions
 * count the kept entries only, so they stay 1..n without gaps.
 */
export const citationsFrom = (input: {
  readonly citations?: ReadonlyArray<string> | null | undefined
  readonly text: string
}): Array<ExtractedCitation> => {
  const raws = input.citations ?? citationsFromText(input.text)
  const kept: Array<ExtractedCitation> = []
  for (const raw of raws) {
    const normalized = normalizeUrl(raw)
    if (normalized !== undefined) kept.push({ position: kept.length + 1, raw: withoutCredentials(raw), ...normalized })
  }
  return kept
}

/**
 * A cited URL as given, less any user name and password (`http://user:pw@host/` → `http://host/`):
 * a platform's answer may carry them, and the service must not keep or show them. The userinfo ends
 * at the authority's last `@`, as URL parsers read it.
 */
export const withoutCredentials = (raw: string): string => raw.replace(/^(\s*[a-z][a-z0-9+.-]*:\/\/)[^/?#\\]*@/i, "$1")

/** The URLs of a text, in order of appearance, duplicates included. */
export const citationsFromText = (text: string): Array<string> => findUrls(text).map((span) => span.url)

/**
 * Candidate starts: a markdown link or image (`[` / `![`), an autolink (`<http`) or a
 * scheme. Scanning resumes after whatever was consumed, so a link's label and target
 * are never read a second time as bare URLs.
 */
const START = /!?\[|<(?=https?:\/\/)|https?:\/\//giu

/** The URLs of a text with their places (markdown targets: the target's characters). */
export const findUrls = (text: string): Array<UrlSpan> => {
  const found: Array<UrlSpan> = []
  const start = new RegExp(START.source, START.flags)
  let match: RegExpExecArray | null
  while ((match = start.exec(text)) !== null) {
    const at = match.index
    const token = match[0]
    if (token.endsWith("[")) {
      const link = parseInlineLink(text, at + token.length - 1)
      if (link === undefined) continue // plain brackets: scan on inside them
      if (link.target !== undefined) found.push(link.target)
      else found.push(...findUrls(text.slice(link.labelStart, link.labelEnd)).map(shift(link.labelStart)))
      start.lastIndex = link.end
    } else if (token === "<") {
      const autolink = /<(https?:\/\/[^\s<>]+)>/iuy
      autolink.lastIndex = at
      const m = autolink.exec(text)
      if (m === null) continue // not closed: the scheme after it is read as a bare URL
      found.push({ url: m[1]!, start: at + 1, end: at + 1 + m[1]!.length })
      start.lastIndex = autolink.lastIndex
    } else {
      // `git+https://` or `xhttps://` are not http(s) URLs.
      if (at > 0 && /[A-Za-z0-9+.-]/.test(text[at - 1]!)) continue
      const end = bareUrlEnd(text, at, at + token.length)
      if (end > at + token.length) found.push({ url: text.slice(at, end), start: at, end })
      start.lastIndex = Math.max(end, at + token.length)
    }
  }
  return found
}

const shift = (offset: number) => (span: UrlSpan): UrlSpan => ({
  url: span.url,
  start: span.start + offset,
  end: span.end + offset
})

/**
 * Characters that end a bare URL: whitespace, `<>"` and backtick (never raw in a URL,
 * common around one), and CJK punctuation and brackets (U+3000-303F, fullwidth
 * `！（），：；？`), which in Chinese or Japanese prose follow a URL without a space.
 */
const BARE_URL_STOP = /[\s<>"`\u3000-\u303f\uff01\uff08\uff09\uff0c\uff1a\uff1b\uff1f]/u

/** Sentence punctuation, emphasis markers and closing quotes: never the end of a bare URL. */
const TRAILING = new Set([".", ",", ";", ":", "!", "?", "*", "_", "~", "\u2026", "\u201d", "\u2019", "\u00bb"])

const CLOSERS: Record<string, string> = { ")": "(", "]": "[", "}": "{" }

/**
 * Where a bare URL starting at `start` ends: at the first stop character, then without
 * trailing punctuation, unbalanced closing brackets (`(see https://x.com/a)` loses the
 * `)`, `https://en.wikipedia.org/wiki/Mercury_(planet)` keeps it) and an unbalanced
 * trailing `'` (quoted URL).
 */
const bareUrlEnd = (text: string, start: number, from: number): number => {
  let end = from
  while (end < text.length && !BARE_URL_STOP.test(text[end]!)) end++
  for (;;) {
    if (end <= from) return end
    const last = text[end - 1]!
    const opener = CLOSERS[last]
    const candidate = text.slice(start, end)
    if (TRAILING.has(last)) end--
    else if (opener !== undefined && count(candidate, last) > count(candidate, opener)) end--
    else if (last === "'" && count(candidate, "'") % 2 === 1) end--
    else return end
  }
}

const count = (s: string, ch: string): number => s.split(ch).length - 1

/** CommonMark caps link labels at 999 characters; it also keeps a `[` flood linear. */
const MAX_LABEL = 1000

interface InlineLink {
  readonly labelStart: number
  readonly labelEnd: number
  /** The target, when it is an http(s) URL. */
  readonly target: UrlSpan | undefined
  /** Just after the closing `)`. */
  readonly end: number
}

/**
 * Parses `[label](target "title")` with `open` at the `[`, following CommonMark: nested
 * brackets in the label, backslash escapes, an `<...>` target or a raw one with balanced
 * parentheses and no spaces, an optional `"..."`, `'...'` or `(...)` title.
 */
const parseInlineLink = (text: string, open: number): InlineLink | undefined => {
  const labelEnd = closingBracket(text, open)
  if (labelEnd === undefined || text[labelEnd + 1] !== "(") return undefined
  let p = skipSpace(text, labelEnd + 2)

  let targetStart = p
  let targetEnd: number
  if (text[p] === "<") {
    targetStart = p + 1
    p = targetStart
    while (p < text.length && text[p] !== ">" && text[p] !== "<" && text[p] !== "\n") p += text[p] === "\\" ? 2 : 1
    if (text[p] !== ">") return undefined
    targetEnd = p
    p++
  } else {
    let depth = 0
    while (p < text.length && !/[\s\u0000-\u001f]/u.test(text[p]!)) {
      const ch = text[p]!
      if (ch === "\\") p++
      else if (ch === "(") depth++
      else if (ch === ")") {
        if (depth === 0) break
        depth--
      }
      p++
    }
    if (depth !== 0) return undefined
    targetEnd = p
  }

  p = skipSpace(text, p)
  const closeTitle = ({ "\"": "\"", "'": "'", "(": ")" } as Record<string, string>)[text[p] ?? ""]
  if (closeTitle !== undefined && p > targetEnd) {
    p++
    while (p < text.length && text[p] !== closeTitle) p += text[p] === "\\" ? 2 : 1
    if (p >= text.length) return undefined
    p = skipSpace(text, p + 1)
  }
  if (text[p] !== ")") return undefined

  const url = unescapeMarkdown(text.slice(targetStart, targetEnd))
  return {
    labelStart: open + 1,
    labelEnd,
    target: /^https?:\/\//iu.test(url) ? { url, start: targetStart, end: targetEnd } : undefined,
    end: p + 1
  }
}

/** The index of the `]` closing the `[` at `open`, or undefined. */
const closingBracket = (text: string, open: number): number | undefined => {
  let depth = 0
  const limit = Math.min(text.length, open + MAX_LABEL)
  for (let i = open; i < limit; i++) {
    const ch = text[i]
    if (ch === "\\") i++
    else if (ch === "[") depth++
    else if (ch === "]" && --depth === 0) return i
  }
  return undefined
}

const skipSpace = (text: string, from: number): number => {
  let p = from
  while (p < text.length && /[ \t\r\n]/.test(text[p]!)) p++
  return p
}

/** Markdown backslash escapes of ASCII punctuation (`\)` is `)`). */
const unescapeMarkdown = (s: string): string => s.replace(/\\([!-/:-@[-`{-~])/g, "$1")
