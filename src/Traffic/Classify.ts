import type { Platform } from "../Domain/Platform.ts"
import type { Agent } from "./Agent.ts"
import { memoized } from "./Memo.ts"
import { isHtml, type LogLine, normalizeHost, type StatusClass, statusClass } from "./LogLine.ts"
import type { UserAgentMatch } from "./Match.ts"
import { pageKey } from "./PageKey.ts"
import { referralPlatform } from "./Referrals.ts"
import { type SaltSource, visitorHash } from "./Salt.ts"
import type { Verdict } from "./Verify.ts"

/**
 * What one request counts as (docs/agent-traffic.md, "Counting"), in this order:
 * 1. a request for another host than the source's site hosts is `filtered` out (a line without a
 *    host, as in combined logs, is the site's);
 * 2. a request from our own collector is `own`, and counts nowhere;
 * 3. a request naming a catalogue agent is an `agent` hit, with the verdict on its address;
 * 4. another bot (by `isbot`) is an `unknown_bot` hit;
 * 5. an HTML request a platform referred is a `referral`;
 * 6. anything else is a `person`.
 * All but the first two count in the day's totals. The result holds no address: a referral carries
 * its visitor's salted hash instead.
 */
export type Classified =
  | { readonly kind: "filtered" }
  | { readonly kind: "own" }
  | {
    readonly kind: "agent"
    readonly day: string
    readonly html: boolean
    readonly agent: Agent
    readonly verdict: Verdict
    readonly statusClass: StatusClass
    readonly page: string
  }
  | { readonly kind: "unknown_bot"; readonly day: string; readonly html: boolean; readonly family: string; readonly userAgent: string }
  | {
    readonly kind: "referral"
    readonly day: string
    readonly platform: Platform
    readonly page: string
    /** The visitor's salted hash; undefined when the line has no address. */
    readonly visitor: string | undefined
  }
  | { readonly kind: "person"; readonly day: string; readonly html: boolean }

export interface Classifier {
  readonly classify: (line: LogLine) => Classified
}

export interface ClassifierDependencies {
  /** The hosts counted; empty means every host. */
  readonly siteHosts: ReadonlyArray<string>
  readonly match: (userAgent: string) => UserAgentMatch
  readonly verify: (agent: Agent, ip: string | undefined, day: string) => Verdict
  readonly salt: SaltSource
}

const FILTERED: Classified = { kind: "filtered" }
const OWN: Classified = { kind: "own" }

/** Page keys remembered per path: a site has far fewer pages than its log has lines. */
const PAGE_MEMO_LIMIT = 50_000

export const classifier = (deps: ClassifierDependencies): Classifier => {
  const hosts = new Set(deps.siteHosts.map(normalizeHost))
  const dayOf = utcDays()
  const pageOf = memoized(PAGE_MEMO_LIMIT, pageKey)
  return {
    classify: (line) => {
      if (hosts.size > 0 && line.host !== undefined && !hosts.has(line.host)) return FILTERED
      const who = deps.match(line.userAgent)
      if (who.kind === "own") return OWN
      const day = dayOf(line.time)
      const html = isHtml(line)
      switch (who.kind) {
        case "agent":
          return {
            kind: "agent",
            day,
            html,
            agent: who.agent,
            verdict: deps.verify(who.agent, line.ip, day),
            statusClass: statusClass(line.status),
            page: pageOf(line.path)
          }
        case "unknown_bot":
          return { kind: "unknown_bot", day, html, family: who.family, userAgent: line.userAgent }
        case "person": {
          const platform = html ? referralPlatform(line.referer, line.path) : undefined
          if (platform === undefined) return { kind: "person", day, html }
          return {
            kind: "referral",
            day,
            platform,
            page: pageOf(line.path),
            visitor: line.ip === undefined ? undefined : visitorHash(deps.salt.forDay(day), line.ip, line.userAgent)
          }
        }
      }
    }
  }
}

/** The UTC day (YYYY-MM-DD) of a time, remembering the last day seen: logs come mostly in order. */
export const utcDays = (): ((millis: number) => string) => {
  let start = Number.NaN
  let end = Number.NaN
  let day = ""
  return (millis) => {
    if (!(millis >= start && millis < end)) {
      start = millis - (((millis % 86_400_000) + 86_400_000) % 86_400_000)
      end = start + 86_400_000
      day = new Date(start).toISOString().slice(0, 10)
    }
    return day
  }
}
