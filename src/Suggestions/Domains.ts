/**
 * The domains an answer points at (docs/suggestions.md, "Domains"): the registrable domains of its
 * citations, of its links and of the bare domains its text writes ("see pipedrive.com"), less those
 * brand suggestions never offer (`isStopListed`: editorial, reference, user-generated, marketplace and
 * institutional sites), by the Public Suffix List (`tldts`).
 */
import { parse } from "tldts"
import { normalizeUrl } from "../Detection/Urls.ts"
import { hostsFile, isStopListed } from "../Sources/HostRules.ts"
import { domainLabelOf } from "./Keys.ts"

export type DomainSource = "citation" | "link" | "text"

export interface DomainOccurrence {
  /** The registrable domain ("pipedrive.com" for "https://www.pipedrive.com/en/pricing"). */
  readonly domain: string
  readonly source: DomainSource
  /** Offset in the text for `link` and `text`; for a citation, `text.length` + its 0-based index. */
  readonly at: number
  /** The URL, for `link` and `citation`. */
  readonly url?: string
}

/** The registrable domain of a host, or undefined (an IP, `localhost`, an unknown suffix). */
export const registrableDomainOf = (host: string): string | undefined => {
  const parsed = parse(host.toLowerCase(), { extractHostname: false })
  return parsed.isIcann === true && parsed.isIp !== true && parsed.domain ? parsed.domain : undefined
}

/** Whether suggestions may offer this host: neither it nor its registrable domain is stop-listed. */
export const isSuggestible = (host: string): boolean => {
  const registrable = registrableDomainOf(host)
  return registrable !== undefined && !isStopListed(host) && !isStopListed(registrable)
}

/**
 * The main labels of the stop-listed host entries ("g2", "reddit", "amazon", "wikipedia"): a name with
 * one of these keys is the site's own name ("according to G2"), never a brand to suggest.
 */
export const stopListedLabels: ReadonlySet<string> = new Set(
  hostsFile.groups
    // Self-publishing and code hosts are stop-listed for the sites users host there ("x.notion.site",
    // "x.github.io"); their own names (Notion, GitHub) are companies with products.
    .filter((group) => group.stop_list && group.name !== "self_published" && group.name !== "code_hosting")
    .flatMap((group) => group.hosts)
    .flatMap((entry) => {
      const label = entry.endsWith(".*") ? entry.slice(0, -2) : domainLabelOf(entry)
      return label === undefined ? [] : [label.replace(/-/gu, "")]
    })
)

/** A bare domain in prose, not inside a longer name, an e-mail address or a URL (those are masked first). */
const BARE_DOMAIN = /(?<![\p{L}\p{N}@._/-])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}(?![\p{L}\p{N}-]|\.[\p{L}\p{N}])/gu

/** Every domain the answer points at, suggestible or not, in order: text and links first, then citations. */
export const domainOccurrences = (
  text: string,
  citations: ReadonlyArray<string>,
  links: ReadonlyArray<{ readonly url: string; readonly at: number }>
): Array<DomainOccurrence> => {
  const found: Array<DomainOccurrence> = []
  const masked = text.replace(/https?:\/\/[^\s)>\]]+/giu, (s) => " ".repeat(s.length))
  for (const match of masked.matchAll(BARE_DOMAIN)) {
    const domain = registrableDomainOf(match[0])
    if (domain !== undefined) found.push({ domain, source: "text", at: match.index })
  }
  for (const link of links) {
    const host = normalizeUrl(link.url)?.domain
    const domain = host === undefined ? undefined : registrableDomainOf(host)
    if (domain !== undefined && host !== undefined && isSuggestible(host)) found.push({ domain, source: "link", at: link.at, url: link.url })
  }
  citations.forEach((raw, i) => {
    const host = normalizeUrl(raw)?.domain
    const domain = host === undefined ? undefined : registrableDomainOf(host)
    if (domain !== undefined && host !== undefined && isSuggestible(host)) found.push({ domain, source: "citation", at: text.length + i, url: raw })
  })
  return found.filter((o) => isSuggestible(o.domain)).sort((a, b) => a.at - b.at)
}
