import ipaddr from "ipaddr.js"
import type { Agent } from "./Agent.ts"
import type { ListIndex } from "./IpLists.ts"

/**
 * The verdict on a request that names a catalogue agent (docs/agent-traffic.md, "Verdicts"):
 * - `verified`: its address is in a list the agent's operator publishes for it;
 * - `outside_list`: the operator publishes a list and the address is not in it, or the name is a
 *   robots.txt token the operator never sends as a user agent;
 * - `unverifiable`: there is no list to check against (the operator publishes none, or ours has no
 *   snapshot of it yet);
 * - `no_ip`: the line carries no usable address: none, an unreadable one, or a private, loopback or
 *   link-local one (the log then shows a proxy, not the client).
 */
export const verdicts = ["verified", "outside_list", "unverifiable", "no_ip"] as const
export type Verdict = (typeof verdicts)[number]

/** Address ranges that can only be a proxy or the machine itself, never an operator's crawler. */
const NOT_A_CLIENT = new Set(["private", "loopback", "linkLocal", "uniqueLocal", "unspecified", "carrierGradeNat"])

/** The address a log gives, when it is a public one. */
export const publicAddress = (ip: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined => {
  if (ip === undefined || !ipaddr.isValid(ip)) return undefined
  // An IPv4 client seen on an IPv6 socket (`::ffff:203.0.113.7`) is checked as IPv4.
  const address = ipaddr.process(ip)
  return NOT_A_CLIENT.has(address.range()) ? undefined : address
}

/** Verdicts remembered for one day; cleared when this many are held. */
const MEMO_LIMIT = 100_000

/**
 * The verifier over a set of lists. Verdicts are remembered per day, agent and address: a crawler
 * sends many requests from one address, and the lists in force may change from one day to the next.
 * Logs come a day at a time, so the memory holds the current day's verdicts and is emptied when the
 * day changes.
 */
export const verifier = (lists: ListIndex): ((agent: Agent, ip: string | undefined, day: string) => Verdict) => {
  let memoDay = ""
  let memoSize = 0
  let memo = new Map<Agent, Map<string, Verdict>>()
  const decide = (agent: Agent, ip: string | undefined): Verdict => {
    if (agent.purpose === "token_only") return "outside_list"
    if (agent.verification.method === "none") return "unverifiable"
    const sets = agent.verification.lists.flatMap((list) => {
      const set = lists.get(list)
      return set === undefined ? [] : [set]
    })
    if (sets.length === 0) return "unverifiable"
    const address = publicAddress(ip)
    if (address === undefined) return "no_ip"
    return sets.some((set) => set.contains(address)) ? "verified" : "outside_list"
  }
  return (agent, ip, day) => {
    if (day !== memoDay || memoSize >= MEMO_LIMIT) {
      memo = new Map()
      memoDay = day
      memoSize = 0
    }
    let byAddress = memo.get(agent)
    if (byAddress === undefined) {
      byAddress = new Map()
      memo.set(agent, byAddress)
    }
    const address = ip ?? ""
    let verdict = byAddress.get(address)
    if (verdict === undefined) {
      verdict = decide(agent, ip)
      byAddress.set(address, verdict)
      memoSize++
    }
    return verdict
  }
}
