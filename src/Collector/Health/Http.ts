import { Clock, Effect } from "effect"
import { platforms } from "../../Domain/Platform.ts"
import * as ApiGroup from "../../Http/ApiGroup.ts"
import { coverageOf, WorkersRepo } from "../Workers.ts"
import { CollectorApi } from "./Api.ts"
import * as Area from "../../Area.ts"

export const CollectorLive = ApiGroup.group(CollectorApi, (handlers) =>
  Effect.gen(function*() {
    const workers = yield* WorkersRepo
    return handlers.handle("health", () =>
      Effect.gen(function*() {
        const status = yield* workers.status(new Date(yield* Clock.currentTimeMillis))
        const coverage = coverageOf(status.alive)
        return {
          data: {
            workers: { alive: coverage.workers, last_heartbeat_at: status.lastHeartbeatAt },
            platforms: platforms.map((platform) => ({
              platform,
              provider_key: coverage.providers.has(platform),
              simulation: coverage.simulated.has(platform)
            }))
          }
        }
      }))
  }))

/** The collector's health (with the monitors' abilities). */
export const CollectorHealthArea = Area.make({
  groups: [CollectorApi],
  handlers: CollectorLive,
  repositories: [],
  abilities: []
})
