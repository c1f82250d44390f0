import { isbot } from "isbot"
import type { Agent } from "./Agent.ts"
import { memoized } from "./Memo.ts"

/**
 * Who a User-Agent header says it is (docs/agent-traffic.md, "Matching"): one of the catalogue's
 * agents, our own collector, some other bot, or a person.
 */

/**
 * The token in the User-Agent of every request this service makes itself: such requests are never
 * counted, whatever they fetch. (The collector calls the platforms' APIs today and fetches no page of
 * a user's site; anything of ours that does must send this token.)
 */
export const OWN_USER_AGENT_TOKEN = "BrandVisibilityMonitor"

export type UserAgentMatch =
  | { readonly kind: "agent"; readonly agent: Agent }
  | { readonly kind: "own" }
  | { readonly kind: "unknown_bot"; readonly family: string }
  | { readonly kind: "person" }

const OWN: UserAgentMatch = { kind: "own" }
const PERSON: UserAgentMatch = { kind: "person" }

/** Distinct user agents remembered; logs repeat a few hundred of them, so this bounds memory, not work. */
const MEMO_LIMIT = 20_000

/**
 * The matcher of a catalogue. Patterns are tried longest first, case-insensitively, as substrings of
 * the header, so that `Applebot-Extended` wins over `Applebot` when both are present. A header no
 * pattern matches is an unknown bot when `isbot` says it is a bot, a person otherwise.
 */
export const userAgentMatcher = (agents: ReadonlyArray<Agent>): ((userAgent: string) => UserAgentMatch) => {
  const patterns = agents
    .flatMap((agent) => agent.patterns.map((pattern) => ({ needle: pattern.toLowerCase(), match: { kind: "agent", agent } as const })))
    .sort((a, b) => b.needle.length - a.needle.length)
  const own = OWN_USER_AGENT_TOKEN.toLowerCase()
  return memoized(MEMO_LIMIT, (userAgent: string): UserAgentMatch => {
    const lower = userAgent.toLowerCase()
    if (lower.includes(own)) return OWN
    for (const pattern of patterns) {
      if (lower.includes(pattern.needle)) return pattern.match
    }
    return isbot(userAgent) ? { kind: "unknown_bot", family: botFamily(userAgent) } : PERSON
  })
}

const NAMED_BOT = /([a-z][a-z0-9._-]*?(?:bot|crawler|spider|fetcher|scraper))(?![a-z])/i
const FIRST_PRODUCT = /^([^\s/;()]+)/

/**
 * A short, stable name for an unknown bot's family: the product token naming a bot (`AhrefsBot/7.0`
 * gives `ahrefsbot`), else the first product token (`python-requests/2.31` gives `python-requests`).
 */
export const botFamily = (userAgent: string): string => {
  const named = NAMED_BOT.exec(userAgent)?.[1]
  const name = named ?? (userAgent.trim() === "" ? undefined : FIRST_PRODUCT.exec(userAgent.trim())?.[1])
  return (name ?? "unknown").toLowerCase().slice(0, 64)
}
