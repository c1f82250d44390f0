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

/**
 * A row's key: its key fields joined by a character no field holds (days, ids, verdicts and page keys
 * are printable). As NUL sorts before every other character, keys sort as their fields do, one by one.
 */
const key2 = (a: string, b: string) => `${a}\u0000${b}`
const key3 = (a: string, b: string, c: string) => `${a}\u0000${b}\u0000${c}`
const agentKey = (row: Pick<AgentHits, "day" | "agent" | "verdict" | "statusClass" | "page">) =>
  `${row.day}\u0000${row.agent}\u0000${row.verdict}\u0000${row.statusClass}\u0000${row.page}`

/** The value of `map` under `key`, made on first use. */
const entry = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
  let value = map.get(key)
  if (value === undefined) {
    value = make()
    map.set(key, value)
  }
  return value
}

const newMap = <K, V>() => new Map<K, V>()

type AgentRow = { -readonly [K in keyof AgentHits]: AgentHits[K] }
type ByPage = Map<string, AgentRow>
type ByStatus = Map<string, ByPage>
type ByVerdict = Map<string, ByStatus>

/**
 * Counts classified requests into rollup rows; memory grows with distinct rows, not with lines.
 * Agent hits are found through maps nested by field (day, agent, verdict, status class, page): each
 * level is looked up by a string the classifier reuses, which costs less than joining a key per line.
 */
export const rollupAccumulator = () => {
  const totals = new Map<string, { requests: number; htmlRequests: number }>()
  const agentIndex = new Map<string, Map<string, ByVerdict>>()
  const agentRows: Array<AgentRow> = []
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
          const byAgent = entry(agentIndex, event.day, newMap<string, ByVerdict>)
          const byVerdict = entry(byAgent, event.agent.id, newMap<string, ByStatus>)
          const byStatus = entry(byVerdict, event.verdict, newMap<string, ByPage>)
          const byPage = entry(byStatus, event.statusClass, newMap<string, AgentRow>)
          const row = entry(byPage, event.page, () => {
            const made: AgentRow = { day: event.day, agent: event.agent.id, verdict: event.verdict, statusClass: event.statusClass, page: event.page, hits: 0 }
            agentRows.push(made)
            return made
          })
          row.hits++
          return
        }
        case "unknown_bot": {
          countTotal(event.day, event.html)
          const k = key2(event.day, event.family)
          const seen = unknownBots.get(k)
          if (seen !== undefined) seen.hits++
          else unknownBots.set(k, { day: event.day, family: event.family, hits: 1, sampleUserAgent: event.userAgent.slice(0, SAMPLE_CHARS) })
          return
        }
        case "referral": {
          countTotal(event.day, true)
          const k = key3(event.day, event.platform, event.page)
          const row = entry(referrals, k, () => ({ day: event.day, platform: event.platform, page: event.page, visits: 0, visitors: new Set<string>() }))
          row.visits++
          if (event.visitor !== undefined) row.visitors.add(event.visitor)
          return
        }
      }
    },
    rollup: (): Rollup =>
      sortRollup({
        totals: [...totals].map(([day, total]) => ({ day, ...total })),
        agentHits: agentRows.map((row) => ({ ...row })),
        unknownBots: [...unknownBots.values()].map((row) => ({ ...row })),
        referrals: [...referrals.values()].map(({ visitors, ...row }) => ({
          ...row,
          visitors: visitors.size,
          visitorHashes: [...visitors].sort()
        }))
      })
  }
}

/** Rows sorted by their key, computed once per row. */
const sortedBy = <A>(rows: ReadonlyArray<A>, keyOf: (row: A) => string): Array<A> =>
  rows
    .map((row) => ({ key: keyOf(row), row }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ row }) => row)

/** Rows in one order (day, then their other keys), so that equal rollups are deeply equal. */
export const sortRollup = (rollup: Rollup): Rollup => ({
  totals: sortedBy(rollup.totals, (row) => row.day),
  agentHits: sortedBy(rollup.agentHits, agentKey),
  unknownBots: sortedBy(rollup.unknownBots, (row) => key2(row.day, row.family)),
  referrals: sortedBy(rollup.referrals, (row) => key3(row.day, row.platform, row.page))
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
  const agentHits = new Map(a.agentHits.map((row) => [agentKey(row), row]))
  for (const row of b.agentHits) {
    const k = agentKey(row)
    const seen = agentHits.get(k)
    agentHits.set(k, seen === undefined ? row : { ...seen, hits: seen.hits + row.hits })
  }
  const unknownBots = new Map(a.unknownBots.map((row) => [key2(row.day, row.family), row]))
  for (const row of b.unknownBots) {
    const k = key2(row.day, row.family)
    const seen = unknownBots.get(k)
    unknownBots.set(k, seen === undefined ? row : { ...seen, hits: seen.hits + row.hits })
  }
  const referrals = new Map(a.referrals.map((row) => [key3(row.day, row.platform, row.page), row]))
  for (const row of b.referrals) {
    const k = key3(row.day, row.platform, row.page)
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
