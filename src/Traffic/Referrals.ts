import type { Platform } from "../Domain/Platform.ts"
import { utmSource } from "./LogLine.ts"

/**
 * AI referrals (docs/agent-traffic.md, "Referrals"): a visit a platform sent, known by the host of its
 * `Referer` or by the `utm_source` the platform adds to its links. Most AI apps send no referer at all
 * (native apps, `noreferrer` links), so referral counts are a lower bound.
 *
 * Google's AI Overviews and AI Mode send visits from www.google.com like its search results do, with
 * nothing in the referer to tell them apart: they are not counted as AI referrals.
 */

/** Referer hosts (and their subdomains) of each platform. */
const HOSTS: ReadonlyArray<readonly [string, Platform]> = [
  ["chatgpt.com", "chatgpt"],
  ["chat.openai.com", "chatgpt"],
  ["perplexity.ai", "perplexity"],
  ["perplexity.com", "perplexity"],
  ["gemini.google.com", "gemini"],
  ["bard.google.com", "gemini"],
  ["copilot.microsoft.com", "copilot"],
  ["copilot.cloud.microsoft", "copilot"],
  ["claude.ai", "claude"],
  ["grok.com", "grok"]
]

/** `utm_source` values platforms use or users write, besides the hosts above. */
const SOURCES: ReadonlyMap<string, Platform> = new Map<string, Platform>([
  ["chatgpt", "chatgpt"],
  ["openai", "chatgpt"],
  ["perplexity", "perplexity"],
  ["gemini", "gemini"],
  ["copilot", "copilot"],
  ["copilot.com", "copilot"],
  ["claude", "claude"],
  ["grok", "grok"]
])

/** The platform of a host name, by the table above (`www.` and other subdomains included). */
export const platformOfHost = (host: string): Platform | undefined => {
  const name = host.toLowerCase().replace(/\.+$/, "")
  for (const [suffix, platform] of HOSTS) {
    if (name === suffix || name.endsWith(`.${suffix}`)) return platform
  }
  return undefined
}

const refererHost = (referer: string): string | undefined => {
  const scheme = referer.indexOf("://")
  if (scheme === -1) return undefined
  let end = referer.length
  for (const stop of ["/", "?", "#", ":"]) {
    const at = referer.indexOf(stop, scheme + 3)
    if (at !== -1 && at < end) end = at
  }
  const host = referer.slice(scheme + 3, end)
  const at = host.lastIndexOf("@")
  return at === -1 ? host : host.slice(at + 1)
}

/** The platform a request was referred by: its referer's host first, then its `utm_source`. */
export const referralPlatform = (referer: string | undefined, path: string): Platform | undefined => {
  if (referer !== undefined) {
    const host = refererHost(referer)
    const platform = host === undefined ? undefined : platformOfHost(host)
    if (platform !== undefined) return platform
  }
  const source = utmSource(path)
  if (source === undefined) return undefined
  return SOURCES.get(source) ?? platformOfHost(source.replace(/^https?:\/\//, "").split("/")[0]!)
}
