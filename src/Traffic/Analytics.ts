import { Schema } from "effect"
import { percentage, percentageChange, significantChange, wilson } from "../Analytics/Statistics.ts"
import { type Platform, platforms } from "../Domain/Platform.ts"
import type { FieldErrors } from "../Domain/Errors.ts"
import { type Agent, catalogue, Purpose } from "./Agent.ts"
import type { StatusClass } from "./LogLine.ts"
import type { Rollup } from "./Rollup.ts"

/**
 * The agent traffic analytics (docs/agent-traffic.md, "Analytics"), computed from the rollup rows of
 * the window and of the period of the same length just before it; both stores give the same rows, so
 * this one computation serves both.
 */

export interface TrafficWindow {
  readonly start: string
  readonly end: string
  readonly platforms: ReadonlyArray<Platform> | undefined
}

const DAY = 86_400_000
const dayMillis = (day: string) => Date.parse(`${day}T00:00:00Z`)
const dayOf = (millis: number) => new Date(millis).toISOString().slice(0, 10)

/** The period of the window's length that ends the day before it starts. */
export const previousPeriod = (range: { readonly start: string; readonly end: string }) => {
  const days = (dayMillis(range.end) - dayMillis(range.start)) / DAY + 1
  return { start: dayOf(dayMillis(range.start) - days * DAY), end: dayOf(dayMillis(range.start) - DAY) }
}

const validDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && dayOf(dayMillis(value)) === value

/** Every value of an array parameter, under `name`, `name[]` or `name[<n>]`. */
const arrayValues = (params: URLSearchParams, name: string) =>
  [...params].filter(([key]) => key === name || key === `${name}[]` || /^\[\d+\]$/.test(key.slice(name.length)) && key.startsWith(`${name}[`))
    .map(([, value]) => value.trim())

/** `start_date`, `end_date` (required, `end_date` not before the start nor after today) and `platforms[]`. */
export const readWindow = (params: URLSearchParams, today: string): { readonly errors: FieldErrors } | { readonly window: TrafficWindow } => {
  const errors: Record<string, Array<string>> = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  const date = (field: "start_date" | "end_date") => {
    const value = params.getAll(field).at(-1)?.trim() ?? ""
    if (value === "") add(field, `The ${field.replace("_", " ")} field is required.`)
    else if (!validDay(value)) add(field, `The ${field.replace("_", " ")} field must be a valid date in the format YYYY-MM-DD.`)
    else return value
    return undefined
  }
  const start = date("start_date")
  const end = date("end_date")
  if (start !== undefined && end !== undefined && end < start) add("end_date", "The end date field must be a date after or equal to start date.")
  if (end !== undefined && end > today) add("end_date", "The end date field must be a date before or equal to today.")
  const chosen = arrayValues(params, "platforms")
  chosen.forEach((value, index) => {
    if (!(platforms as ReadonlyArray<string>).includes(value)) {
      add(`platforms.${index}`, `The selected platforms.${index} is invalid. Allowed: ${platforms.join(", ")}.`)
    }
  })
  if (Object.keys(errors).length > 0 || start === undefined || end === undefined) return { errors }
  return { window: { start, end, platforms: chosen.length === 0 ? undefined : [...new Set(chosen)] as Array<Platform> } }
}

// ---------------------------------------------------------------------------------------------------
// GET /analytics/agent-traffic

const Interval = Schema.NullOr(Schema.Struct({ low: Schema.Number, high: Schema.Number }))

export const AgentTrafficRow = Schema.Struct({
  agent: Schema.Struct({ id: Schema.String, name: Schema.String, operator: Schema.String, purpose: Purpose }),
  hits: Schema.Number,
  pages: Schema.Number.annotations({ description: "Distinct pages (page keys) requested." }),
  verified: Schema.Number,
  outside_list: Schema.Number,
  unverifiable: Schema.Number,
  no_ip: Schema.Number,
  verified_percentage: Schema.NullOr(Schema.Number).annotations({
    description: "`verified` of the hits that could be checked (`verified` + `outside_list`), in %; null when none could."
  }),
  verified_interval: Interval.annotations({ description: "The 95% Wilson interval of `verified_percentage`." }),
  status: Schema.Struct({ "2xx": Schema.Number, "3xx": Schema.Number, "4xx": Schema.Number, "5xx": Schema.Number, other: Schema.Number }),
  first_seen: Schema.String.annotations({ description: "The first day (UTC) of the window with a hit." }),
  last_seen: Schema.String,
  previous_hits: Schema.Number.annotations({ description: "Hits in the period of the same length just before the window." }),
  hits_change: Schema.NullOr(Schema.Number).annotations({ description: "`hits` against `previous_hits`, in % of `previous_hits`; null when it was 0." }),
  previous_verified_percentage: Schema.NullOr(Schema.Number),
  verified_change: Schema.NullOr(Schema.Number).annotations({ description: "The change of `verified_percentage`, in points." }),
  verified_change_significant: Schema.Boolean.annotations({ description: "Whether that change passes a two-sided two-proportion z-test at 95%." })
}).annotations({ identifier: "AgentTrafficRow" })
export type AgentTrafficRow = typeof AgentTrafficRow.Type

const agentsById = new Map(catalogue.agents.map((agent) => [agent.id, agent]))

/** Whether an agent's reading feeds any of the platforms asked for (all agents without a filter). */
const feeds = (agent: Agent, chosen: ReadonlyArray<Platform> | undefined) =>
  chosen === undefined || agent.platforms.some((platform) => chosen.includes(platform))

interface AgentCounts {
  hits: number
  verified: number
  outside_list: number
  unverifiable: number
  no_ip: number
  status: Record<StatusClass, number>
  pages: Set<string>
  first: string
  last: string
}

const countAgents = (rows: Rollup["agentHits"], chosen: ReadonlyArray<Platform> | undefined) => {
  const counts = new Map<string, AgentCounts>()
  for (const row of rows) {
    const agent = agentsById.get(row.agent)
    if (agent === undefined || !feeds(agent, chosen)) continue
    let count = counts.get(row.agent)
    if (count === undefined) {
      count = { hits: 0, verified: 0, outside_list: 0, unverifiable: 0, no_ip: 0, status: { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, other: 0 }, pages: new Set(), first: row.day, last: row.day }
      counts.set(row.agent, count)
    }
    count.hits += row.hits
    count[row.verdict] += row.hits
    count.status[row.statusClass] += row.hits
    count.pages.add(row.page)
    if (row.day < count.first) count.first = row.day
    if (row.day > count.last) count.last = row.day
  }
  return counts
}

/** A row per agent with a hit in the window, by hits (most first), then agent id. */
export const agentTraffic = (current: Rollup, previous: Rollup, window: TrafficWindow): ReadonlyArray<AgentTrafficRow> => {
  const now = countAgents(current.agentHits, window.platforms)
  const before = countAgents(previous.agentHits, window.platforms)
  return [...now].map(([id, count]): AgentTrafficRow => {
    const agent = agentsById.get(id)!
    const prior = before.get(id)
    const checked = count.verified + count.outside_list
    const priorVerified = prior?.verified ?? 0
    const priorChecked = priorVerified + (prior?.outside_list ?? 0)
    const priorHits = prior?.hits ?? 0
    return {
      agent: { id: agent.id, name: agent.name, operator: agent.operator, purpose: agent.purpose },
      hits: count.hits,
      pages: count.pages.size,
      verified: count.verified,
      outside_list: count.outside_list,
      unverifiable: count.unverifiable,
      no_ip: count.no_ip,
      verified_percentage: percentage(count.verified, checked),
      verified_interval: wilson(count.verified, checked),
      status: count.status,
      first_seen: count.first,
      last_seen: count.last,
      previous_hits: priorHits,
      hits_change: priorHits === 0 ? null : percentage(count.hits - priorHits, priorHits),
      previous_verified_percentage: percentage(priorVerified, priorChecked),
      verified_change: percentageChange(count.verified, checked, priorVerified, priorChecked),
      verified_change_significant: significantChange(count.verified, checked, priorVerified, priorChecked)
    }
  }).sort((a, b) => b.hits - a.hits || (a.agent.id < b.agent.id ? -1 : 1))
}

// ---------------------------------------------------------------------------------------------------
// GET /analytics/ai-referrals

export const referralGroupings = ["platform", "page", "day"] as const
export type ReferralGrouping = (typeof referralGroupings)[number]

export const AiReferralRow = Schema.Struct({
  platform: Schema.optional(Schema.String),
  page: Schema.optional(Schema.String),
  day: Schema.optional(Schema.String),
  visits: Schema.Number,
  visitors: Schema.Number.annotations({ description: "Distinct visitors among the visits that had an address (one a day: their hashes change daily)." })
}).annotations({ identifier: "AiReferralRow" })
export type AiReferralRow = typeof AiReferralRow.Type

/**
 * Referral visits in the window grouped by `platform` or `page` (most visits first, then by name) or
 * `day` (in order): visits added, visitors united
 * (a visitor is one hash a day; visits of the same day from two sources are one visitor).
 */
export const aiReferrals = (rows: Rollup["referrals"], window: TrafficWindow, groupBy: ReferralGrouping) => {
  const groups = new Map<string, { visits: number; visitors: Set<string> }>()
  const totalVisitors = new Set<string>()
  let totalVisits = 0
  for (const row of rows) {
    if (window.platforms !== undefined && !window.platforms.includes(row.platform)) continue
    const key = groupBy === "platform" ? row.platform : groupBy === "page" ? row.page : row.day
    let group = groups.get(key)
    if (group === undefined) {
      group = { visits: 0, visitors: new Set() }
      groups.set(key, group)
    }
    group.visits += row.visits
    totalVisits += row.visits
    // A hash is of its day's salt: day and hash together name one visitor.
    for (const hash of row.visitorHashes) {
      group.visitors.add(`${row.day} ${hash}`)
      totalVisitors.add(`${row.day} ${hash}`)
    }
  }
  const data = [...groups].map(([key, group]): AiReferralRow => ({ [groupBy]: key, visits: group.visits, visitors: group.visitors.size }))
    .sort((a, b) =>
      groupBy === "day" ? (a.day! < b.day! ? -1 : 1) : b.visits - a.visits || ((a[groupBy] ?? "") < (b[groupBy] ?? "") ? -1 : 1)
    )
  return { data, totals: { visits: totalVisits, visitors: totalVisitors.size } }
}
