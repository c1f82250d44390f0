import { domainOfHost } from "../Detection/Urls.ts"
import { normalizeHost } from "./LogLine.ts"

/**
 * The page key (docs/agent-traffic.md, "Page keys"): what a cited URL and a logged request path are
 * compared on, so that a citation of `https://www.example.com/pricing/` and the log path `/pricing`
 * name the same page. It sits beside a citation's normalized `url`, which it does not change.
 *
 * The key is the path alone:
 * - scheme, host, query string (tracking parameters included) and fragment are dropped: the host is
 *   matched separately, against the traffic source's site hosts (`pageKeyOfCitation`);
 * - dot segments are resolved (`/a/../b` is `/b`) and runs of slashes collapsed;
 * - percent-escapes of unreserved characters are decoded (`/%7Euser` is `/~user`), the others
 *   upper-cased, and characters that must be escaped are escaped;
 * - a final `index.html`, `index.htm` or `index.php` is dropped (`/blog/index.html` is `/blog`);
 * - a trailing slash is dropped except for the root (`/pricing/` is `/pricing`; `/` stays `/`);
 * - case is kept: `/Pricing` and `/pricing` may be different pages on the server.
 */
export const pageKey = (urlOrPath: string): string => {
  let pathname: string
  try {
    const url = urlOrPath.startsWith("/") ? new URL(urlOrPath.replace(/^\/+/, "/"), "http://page.invalid") : new URL(urlOrPath)
    pathname = url.pathname
  } catch {
    pathname = "/"
  }
  let key = pathname
    .replace(/\/{2,}/g, "/")
    .replace(/%([0-9a-fA-F]{2})/g, (escape, hex: string) => {
      const char = String.fromCharCode(parseInt(hex, 16))
      return /[A-Za-z0-9\-._~]/.test(char) ? char : escape.toUpperCase()
    })
    .replace(/\/index\.(?:html?|php)$/i, "/")
  if (key.length > 1 && key.endsWith("/")) key = key.slice(0, -1)
  return key === "" ? "/" : key
}

/**
 * The page key of a cited URL when it is a page of the site (its host, `www.` or not, is one of
 * `siteHosts`), otherwise undefined.
 */
export const pageKeyOfCitation = (url: string, siteHosts: ReadonlyArray<string>): string | undefined => {
  let host: string
  try {
    host = new URL(url).hostname
  } catch {
    return undefined
  }
  const domain = domainOfHost(normalizeHost(host))
  return siteHosts.some((site) => domainOfHost(normalizeHost(site)) === domain) ? pageKey(url) : undefined
}
