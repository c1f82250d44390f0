import { Schema } from "effect"
import { Platform } from "../Domain/Platform.ts"
import { type Agent, type Catalogue, Purpose } from "./Agent.ts"
import type { Snapshot } from "./IpLists.ts"

/**
 * The catalogue as `GET /agents` shows it (docs/agent-traffic.md, "The catalogue"): each agent with the
 * prefixes it is verified against today and the date of the snapshot they come from.
 */

export const AgentList = Schema.Struct({
  id: Schema.String,
  url: Schema.String.annotations({ description: "Where the operator publishes the list." }),
  snapshot_date: Schema.NullOr(Schema.String).annotations({
    description: "The list's own `creationTime`, else the day our source saw it change; null when no snapshot of it is held (then the agent is `unverifiable`)."
  })
}).annotations({ identifier: "AgentAddressList" })

export const AgentVerification = Schema.Struct({
  method: Schema.Literal("ip_list", "none").annotations({ description: "`ip_list`: checked against the operator's published lists; `none`: nothing to check against." }),
  lists: Schema.Array(AgentList),
  prefixes: Schema.Array(Schema.String).annotations({ description: "The CIDR prefixes a request claiming the agent is verified against: the union of the lists' current snapshots." }),
  snapshot_date: Schema.NullOr(Schema.String).annotations({ description: "The newest date among the lists' snapshots; null when there is none." }),
  reverse_dns: Schema.Array(Schema.String).annotations({ description: "Host name suffixes the operator documents (for reference: logs are checked against the lists only)." })
}).annotations({ identifier: "AgentVerification" })

export const AgentView = Schema.Struct({
  id: Schema.String,
  name: Schema.String.annotations({ description: "The user-agent token the operator documents (`GPTBot`)." }),
  operator: Schema.String,
  purpose: Purpose,
  platforms: Schema.Array(Platform),
  patterns: Schema.Array(Schema.String),
  verification: AgentVerification,
  documentation: Schema.NullOr(Schema.String),
  checked: Schema.String.annotations({ description: "The day the operator's documentation was last read for this entry." })
}).annotations({ identifier: "Agent" })
export type AgentView = typeof AgentView.Type

/** A snapshot's date: the operator's own creation time, else when the mirror saw the list change. */
const snapshotDate = (snapshot: Snapshot): string => snapshot.creationTime ?? snapshot.listChangedAt ?? snapshot.mirror.committedAt

export const agentViews = (catalogue: Catalogue, snapshots: ReadonlyArray<Snapshot>): ReadonlyArray<AgentView> => {
  const view = (agent: Agent): AgentView => {
    const verification = agent.verification
    if (verification.method === "none") {
      return { ...fields(agent), verification: { method: "none", lists: [], prefixes: [], snapshot_date: null, reverse_dns: [] } }
    }
    const lists = verification.lists.map((id) => {
      const held = snapshots.filter((snapshot) => snapshot.covers.includes(id))
      const dates = held.map(snapshotDate).sort()
      return {
        id,
        url: catalogue.lists.find((list) => list.id === id)?.url ?? "",
        snapshot_date: dates.at(-1) ?? null,
        prefixes: held.flatMap((snapshot) => snapshot.prefixes)
      }
    })
    const dates = lists.flatMap((list) => (list.snapshot_date === null ? [] : [list.snapshot_date])).sort()
    return {
      ...fields(agent),
      verification: {
        method: "ip_list",
        lists: lists.map(({ prefixes: _, ...list }) => list),
        prefixes: [...new Set(lists.flatMap((list) => list.prefixes))],
        snapshot_date: dates.at(-1) ?? null,
        reverse_dns: verification.reverse_dns ?? []
      }
    }
  }
  return catalogue.agents.map(view)
}

const fields = (agent: Agent) => ({
  id: agent.id,
  name: agent.name,
  operator: agent.operator,
  purpose: agent.purpose,
  platforms: agent.platforms,
  patterns: agent.patterns,
  documentation: agent.documentation,
  checked: agent.checked
})
