/**
 * Splits an answer's text into the pieces the answer page draws: plain text, brand names (marked),
 * links (markdown links and bare URLs, numbered when they are citations of the answer) and `[n]`
 * citation markers. Pure, so the page can draw it without touching the DOM by hand.
 */
export type Piece =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "brand"; readonly text: string; readonly brand: number }
  | {
    readonly kind: "link"
    readonly text: string
    readonly url: string
    readonly citation: number | undefined
    /** The link's text, with its brand names marked. */
    readonly inner: ReadonlyArray<Piece>
  }
  | { readonly kind: "marker"; readonly text: string; readonly citation: number }

export interface BrandTerms {
  readonly id: number
  /** Names and aliases, matched as whole words; domains, matched anywhere a host may be. */
  readonly names: ReadonlyArray<string>
  readonly domains: ReadonlyArray<string>
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const links = /\[([^\]\n]{1,500})\]\((https?:\/\/[^\s)]+)\)|(https?:\/\/[^\s<>()\]]+[^\s<>()\].,;:!?'"])|\[(\d{1,3})\]/giu

/** Splits plain text on the brands' names and domains (for text that may not hold links: a link's own text). */
export const brandPieces = (text: string, brands: ReadonlyArray<BrandTerms>): Array<Piece> => {
  const owner = new Map<string, number>()
  const names: Array<string> = []
  const domains: Array<string> = []
  for (const brand of brands) {
    for (const name of brand.names) if (name.trim() !== "") {
      owner.set(name.toLocaleLowerCase(), brand.id)
      names.push(name)
    }
    for (const domain of brand.domains) {
      owner.set(domain.toLocaleLowerCase(), brand.id)
      domains.push(domain)
    }
  }
  if (names.length + domains.length === 0) return text === "" ? [] : [{ kind: "text", text }]
  // Longest first, names and domains together: where both start, the longer wins (the domain
  // northwind-crm.example over the alias Northwind).
  const alternatives = [
    ...names.map((name) => ({ length: name.length, source: `(?<![\\p{L}\\p{N}_])${escape(name)}(?![\\p{L}\\p{N}_])` })),
    ...domains.map((domain) => ({ length: domain.length, source: `(?<![\\p{L}\\p{N}_-])${escape(domain)}(?![\\p{L}\\p{N}_-])` }))
  ].sort((a, b) => b.length - a.length).map((alternative) => alternative.source)
  const pattern = new RegExp(alternatives.join("|"), "giu")
  const pieces: Array<Piece> = []
  let last = 0
  for (const match of text.matchAll(pattern)) {
    const at = match.index ?? 0
    if (at > last) pieces.push({ kind: "text", text: text.slice(last, at) })
    pieces.push({ kind: "brand", text: match[0], brand: owner.get(match[0].toLocaleLowerCase()) ?? -1 })
    last = at + match[0].length
  }
  if (last < text.length) pieces.push({ kind: "text", text: text.slice(last) })
  return pieces
}

/** The pieces of `text`; `citations` are the answer's cited URLs in order (number n is index n - 1). */
export const highlight = (text: string, brands: ReadonlyArray<BrandTerms>, citations: ReadonlyArray<string>): ReadonlyArray<Piece> => {
  const numberOf = (url: string) => {
    const index = citations.indexOf(url)
    return index === -1 ? undefined : index + 1
  }
  const pieces: Array<Piece> = []
  let last = 0
  for (const match of text.matchAll(links)) {
    const at = match.index ?? 0
    const [whole, label, markdownUrl, bareUrl, marker] = match
    if (marker !== undefined && (Number(marker) < 1 || Number(marker) > citations.length)) continue
    if (at > last) pieces.push(...brandPieces(text.slice(last, at), brands))
    if (marker !== undefined) pieces.push({ kind: "marker", text: whole, citation: Number(marker) })
    else if (markdownUrl !== undefined) {
      pieces.push({ kind: "link", text: label!, url: markdownUrl, citation: numberOf(markdownUrl), inner: brandPieces(label!, brands) })
    } else pieces.push({ kind: "link", text: bareUrl!, url: bareUrl!, citation: numberOf(bareUrl!), inner: brandPieces(bareUrl!, brands) })
    last = at + whole.length
  }
  if (last < text.length) pieces.push(...brandPieces(text.slice(last), brands))
  return pieces
}
