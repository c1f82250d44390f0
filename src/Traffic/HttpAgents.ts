import { Effect } from "effect"
import { AgentsApi } from "./ApiAgents.ts"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { catalogue } from "./Agent.ts"
import { agentViews } from "./AgentsView.ts"
import { shippedSnapshots } from "./IpLists.ts"

export const AgentsLive = ApiGroup.group(AgentsApi, (handlers) =>
  Effect.sync(() => {
    // The catalogue and its snapshots ship with the service: the answer is made once.
    const data = agentViews(catalogue, shippedSnapshots)
    return handlers.handle("list", () => Effect.succeed({ data }))
  }))
