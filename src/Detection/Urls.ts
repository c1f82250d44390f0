/**
 * URL normalization for cited URLs (docs/api.md, SourceUrl and Source).
 *
 * Parsing is left entirely to the WHATWG `URL` class, which already lower-cases the
 * scheme and host, converts IDNs to punycode, drops default ports, resolves dot
 * segments, percent-encodes what must be encoded and gives http(s) URLs a `/` path.
 * On top of that this module drops what does not identify a different page.
 */

export interface NormalizedUrl {
  /** The normalized absolute URL (the SourceUrl `url`). */
  readonly url: string
  /** The lower-cased host without one leading `www.` (the Source `domain`). */
  readonly domain: string
}

/** Tracking parameters: they identify a campaign or a click, never a different page. */
export const isTrackingParameter = (name: string): boolean => {
  const lower = name.toLowerCase()
  return lower.startsWith("utm_") || lower === "gclid" || lower === "fbclid"
}

/**
 * The query string (without `?`) minus tracking parameters. The kept parameters are
 * the original `name=value` pieces, untouched and in order: re-serializing through
 * URLSearchParams would rewrite their encoding (`%20` to `+`, `~` to `%7E`, ...).
 * Empty pieces (`a=1&&b=2`, a trailing `&`) carry no parameter and are dropped.
 */
export const stripTrackingParameters = (query: string): string =>
  query
    .split("&")
    .filter((piece) => piece !== "" && !isTrackingParameter(parameterName(piece)))
    .join("&")

/** The decoded name of one `name=value` piece, as a form decoder would read it. */
const parameterName = (piece: string): string => {
  const eq = piece.indexOf("=")
  const raw = (eq === -1 ? piece : piece.slice(0, eq)).replace(/\+/g, " ")
  try {
    return decodeURIComponent(raw)
  } catch {
    // A malformed escape (`%zz`) cannot spell a tracking name in another way.
    return raw
  }
}

/**
 * The Source domain of an already parsed hostname: one leading `www.` stripped, but
 * only when a dotted name remains, so `www.com` stays a domain rather than a bare TLD.
 */
export const domainOfHost = (hostname: string): string => {
  const host = hostname.toLowerCase()
  const rest = host.startsWith("www.") ? host.slice(4) : host
  return rest !== host && rest.includes(".") ? rest : host
}

/**
 * Normalizes an absolute http(s) URL; anything else (relative, `mailto:`, `ftp:`,
 * unparsable) gives `undefined`. Beyond what `URL` does:
 * - the fragment is dropped (same page);
 * - user info is dropped (credentials must not be stored, and they do not change the page);
 * - `utm_*` (any case), `gclid` and `fbclid` parameters are dropped, and an emptied query
 *   leaves no `?`;
 * - trailing dots of the host are dropped (`example.com.` is the same DNS name).
 * The result is a fixed point: normalizing `url` again gives `url`.
 */
export const normalizeUrl = (raw: string): NormalizedUrl | undefined => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return undefined
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined

  const hostname = url.hostname.replace(/\.+$/, "")
  if (hostname === "") return undefined
  if (hostname !== url.hostname) url.hostname = hostname

  url.username = ""
  url.password = ""
  url.hash = ""
  // Always assigned: `URL` keeps a bare `?` (`https://x.com/?`) unless search is set.
  // The explicit `?` keeps a query that itself starts with `?` (`??a=1`) intact.
  const query = stripTrackingParameters(url.search.slice(1))
  url.search = query === "" ? "" : `?${query}`

  return { url: url.href, domain: domainOfHost(url.hostname) }
}
