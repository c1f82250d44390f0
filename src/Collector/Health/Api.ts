import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Timestamp } from "../../Domain/Common.ts"
import { Platform } from "../../Domain/Platform.ts"
import { guarded } from "../../Http/Authorize.ts"
import { ProjectContext, ProjectHeader } from "../../Http/ProjectContext.ts"
import { DataOf } from "../../Http/Responses.ts"

export const PlatformHealth = Schema.Struct({
  platform: Platform,
  provider_key: Schema.Boolean.annotations({
    description: "A running worker asks this platform's provider with a key: the jobs of monitors that are not simulated are answered."
  }),
  simulation: Schema.Boolean.annotations({
    description: "A running worker answers this platform with the simulated platform: the jobs of simulated monitors are answered."
  })
}).annotations({ identifier: "PlatformHealth" })

export const CollectorHealth = Schema.Struct({
  workers: Schema.Struct({
    alive: Schema.Int.annotations({
      description: "Collector workers whose last heartbeat is at most 60 seconds old (each records one every 15 seconds).",
      examples: [1]
    }),
    last_heartbeat_at: Schema.NullOr(Timestamp).annotations({
      description: "The latest heartbeat of any worker, alive or not; null when no worker has run for a day."
    })
  }),
  platforms: Schema.Array(PlatformHealth).annotations({ description: "The eight platforms, in their usual order." })
}).annotations({ identifier: "CollectorHealth" })
export type CollectorHealth = typeof CollectorHealth.Type

export class CollectorApi extends HttpApiGroup.make("collector")
  .add(
    HttpApiEndpoint.get("health")`/collector/health`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(CollectorHealth))
      .pipe(guarded(
        "monitors:read",
        "What the collector can answer",
        "Whether a collector worker is alive (its last heartbeat) and, for each platform, whether a running worker answers it: " +
          "with a provider key (for monitors that are not simulated) or with the simulated platform (for simulated monitors). " +
          "A platform answered neither way leaves its jobs pending; `GET /monitors/{monitor}/runs` names them in `blocked_platforms`."
      ))
  )
  .middleware(ProjectContext)
  .annotate(OpenApi.Title, "Collector")
{}
