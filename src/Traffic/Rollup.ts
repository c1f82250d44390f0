import type { Platform } from "../Domain/Platform.ts"
import type { Classified } from "./Classify.ts"
import type { StatusClass } from "./LogLine.ts"
import type { Verdict } from "./Verify.ts"

/**
 * The daily rollups of a traffic source (docs/agent-traffic.md, "Rollups"): the rows the service keeps
 * of a log, as plain data. Days are UTC. No row holds an address; a referral row holds its visitors'
 * salted hashes (meaningless once the day's salt is gone), so that rows of the same day from several
 * logs can be merged without counting a visitor twice.
 */

export interface DailyTotal {
  readonly day: string
  readonly requests: number
  readonly htmlRequests: number
}

export interface AgentHits {
  readonly day: string
  readonly agent: string
  readonly verdict: Verdict
  readonly statusClass: StatusClass
  readonly page: string
  readonly hits: number
}

export interface UnknownBotHits {
  readonly day: string
  readonly family: string
  readonly hits: number
  /** The first user agent seen of the family that day (at most 512 characters). */
  readonly sampleUserAgent: string
}

export interface ReferralVisits {
  readonly day: string
  readonly platform: Platform
  readonly page: string
  readonly visits: number
  /** Distinct visitors among the visits that had an address. */
  readonly visitors: number
  readonly visitorHashes: ReadonlyArray<string>
}

export interface Rollup {
  readonly totals: ReadonlyArray<DailyTotal>
  readonly agentHits: ReadonlyArray<AgentHits>
  readonly unknownBots: ReadonlyArray<UnknownBotHits>
  readonly referrals: ReadonlyArray<ReferralVisits>
}

export const emptyRollup: Rollup = { totals: [], agentHits: [], unknownBots: [], referrals: [] }

const SAMPLE_CHARS = 512

// Keys join fields with a character no field holds (days, ids, verdicts, page keys are printable).
const key = (...parts: ReadonlyArray<string>) => parts.join("\u0000")

/** Counts classified requests into rollup rows; memory grows with distinct rows, not with lines. */
export const rollupAccumulator = () => {
  const totals = new Map<string, { requests: number; htmlRequests: number }>()
  const agentHits = new Map<string, { row: Omit<AgentHits, "hits">; hits: number }>()
  const unknownBots = new Map<string, { day: string; family: string; hits: number; sampleUserAgent: string }>()
  const referrals = new Map<string, { day: string; platform: Platform; page: string; visits: number; visitors: Set<string> }>()

  const countTotal = (day: string, html: boolean) => {
    let total = totals.get(day)
    if (total === undefined) {
      total = { requests: 0, htmlRequests: 0 }
      totals.set(day, total)
    }
    total.requests++
    if (html) total.htmlRequests++
  }

  return {
    add: (event: Classified): void => {
      switch (event.kind) {
        case "filtered":
        case "own":
          return
        case "person":
          return countTotal(event.day, event.html)
        case "agent": {
          countTotal(event.day, event.html)
          const k = key(event.day, event.agent.id, event.verdict, event.statusClass, event.page)
          const entry = agentHits.get(k)
          if (entry !== undefined) entry.hits++
          else {
            agentHits.set(k, {
              row: { day: event.day, agent: event.agent.id, verdict: event.verdict, statusClass: event.statusClass, page: event.page },
              hits: 1
            })
          }
          return
        }
        case "unknown_bot": {
          countTotal(event.day, event.html)
          const k = key(event.day, event.family)
          const entry = unknownBots.get(k)
          if (entry !== undefined) entry.hits++
          else unknownBots.set(k, { day: event.day, family: event.family, hits: 1, sampleUserAgent: event.userAgent.slice(0, SAMPLE_CHARS) })
          return
        }
        case "referral": {
          countTotal(event.day, true)
          const k = key(event.day, event.platform, event.page)
          let entry = referrals.get(k)
          if (entry === undefined) {
            entry = { day: event.day, platform: event.platform, page: event.page, visits: 0, visitors: new Set() }
            referrals.set(k, entry)
          }
          entry.visits++
          if (event.visitor !== undefined) entry.visitors.add(event.visitor)
          return
        }
      }
    },
    rollup: (): Rollup =>
      sortRollup({
        totals: [...totals].map(([day, total]) => ({ day, ...total })),
        agentHits: [...agentHits.values()].map(({ hits, row }) => ({ ...row, hits })),
        unknownBots: [...unknownBots.values()].map((entry) => ({ ...entry })),
        referrals: [...referrals.values()].map(({ visitors, ...entry }) => ({
          ...entry,
          visitors: visitors.size,
          visitorHashes: [...visitors].sort()
        }))
      })
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const byFields = <A>(...fields: ReadonlyArray<(row: A) => string>) => (a: A, b: A) => {
  for (const field of fields) {
    const order = compare(field(a), field(b))
    if (order !== 0) return order
  }
  return 0
}

/** Rows in one order (day, then their other keys), so that equal rollups are deeply equal. */
export const sortRollup = (rollup: Rollup): Rollup => ({
  totals: [...rollup.totals].sort(byFields((row) => row.day)),
  agentHits: [...rollup.agentHits].sort(
    byFields((row) => row.day, (row) => row.agent, (row) => row.verdict, (row) => row.statusClass, (row) => row.page)
  ),
  unknownBots: [...rollup.unknownBots].sort(byFields((row) => row.day, (row) => row.family)),
  referrals: [...rollup.referrals].sort(byFields((row) => row.day, (row) => row.platform, (row) => row.page))
})

/**
 * Two rollups as one: counts added, visitors united (a visitor of both counts once). An unknown bot's
 * sample stays the first one's.
 */
export const mergeRollups = (a: Rollup, b: Rollup): Rollup => {
  const totals = new Map(a.totals.map((row) => [row.day, row]))
  for (const row of b.totals) {
    const seen = totals.get(row.day)
    totals.set(row.day, seen === undefined ? row : { day: row.day, requests: seen.requests + row.requests, htmlRequests: seen.htmlRequests + row.htmlRequests })
  }
  const agentHits = new Map(a.agentHits.map((row) => [key(row.day, row.agent, row.verdict, row.statusClass, row.page), row]))
  for (const row of b.agentHits) {
    const k = key(row.day, row.agent, row.verdict, row.statusClass, row.page)
    const seen = agentHits.get(k)
    agentHits.set(k, seen === undefined ? row : { ...seen, hits: seen.hits + row.hits })
  }
  const unknownBots = new Map(a.unknownBots.map((row) => [key(row.day, row.family), row]))
  for (const row of b.unknownBots) {
    const k = key(row.day, row.family)
    const seen = unknownBots.get(k)
    unknownBots.set(k, seen === undefined ? row : { ...seen, hits: seen.hits + row.hits })
  }
  const referrals = new Map(a.referrals.map((row) => [key(row.day, row.platform, row.page), row]))
  for (const row of b.referrals) {
    const k = key(row.day, row.platform, row.page)
    const seen = referrals.get(k)
    if (seen === undefined) referrals.set(k, row)
    else {
      const visitorHashes = [...new Set([...seen.visitorHashes, ...row.visitorHashes])].sort()
      referrals.set(k, { ...seen, visits: seen.visits + row.visits, visitors: visitorHashes.length, visitorHashes })
    }
  }
  return sortRollup({
    totals: [...totals.values()],
    agentHits: [...agentHits.values()],
    unknownBots: [...unknownBots.values()],
    referrals: [...referrals.values()]
  })
}
