import { Schema } from "effect"
import { Id, Timestamp, Timestamps } from "./Common.ts"
import { Platform } from "./Platform.ts"

/**
 * How a run came to be: `schedule` (the scheduler, for the monitor's current slot), `manual` (POST
 * /monitors/{monitor}/runs), `missed` (a past slot no scheduler covered, recorded with every job
 * skipped), `backfill` (past slots asked on purpose, answers dated on their slot).
 */
export const runTriggers = ["schedule", "manual", "missed", "backfill"] as const
export type RunTrigger = (typeof runTriggers)[number]

export const runStatuses = ["running", "completed"] as const
export type RunStatus = (typeof runStatuses)[number]

export const jobStatuses = ["pending", "running", "succeeded", "failed", "skipped"] as const
export type JobStatus = (typeof jobStatuses)[number]

const count = (description: string) => Schema.Int.annotations({ description, examples: [0] })

export const JobCounts = Schema.Struct({
  total: count("Jobs of the run: one per prompt × platform of the monitor when the run was created."),
  pending: count("Waiting for a worker (or for their next attempt)."),
  running: count("Claimed by a worker right now."),
  succeeded: count("Answered and stored as a response."),
  failed: count("Given up: the platform failed, or its answer could not be analysed."),
  skipped: count("Not asked: the slot passed without a worker that could ask the platform.")
}).annotations({ identifier: "RunJobCounts" })
export type JobCounts = typeof JobCounts.Type

export const BlockedPlatform = Schema.Struct({
  platform: Platform,
  reason: Schema.String.annotations({
    description: "Why no running worker answers it: `no collector worker is running`, `no provider key for <platform>`, or, " +
      "for a simulated monitor, `simulation is off for <platform> in every running worker`.",
    examples: ["no provider key for claude"]
  })
}).annotations({ identifier: "BlockedPlatform" })
export type BlockedPlatform = typeof BlockedPlatform.Type

export const Run = Schema.Struct({
  id: Id,
  monitor_id: Id,
  slot: Timestamp.annotations({
    description: "The slot the run stands for: the UTC day (daily), the ISO week's Monday (weekly), or the instant of a manual trigger.",
    examples: [new Date("2026-11-21T00:00:00.000Z")]
  }),
  trigger: Schema.Literal(...runTriggers).annotations({ description: "`schedule`, `manual`, `missed` or `backfill`." }),
  status: Schema.Literal(...runStatuses).annotations({ description: "`completed` once no job is pending or running." }),
  jobs: JobCounts,
  blocked_platforms: Schema.Array(BlockedPlatform).annotations({
    description: "The platforms of the run's pending jobs that no running worker can answer now, with why: those jobs wait " +
      "until a worker that can answer them starts, and are skipped when their slot ends (a day after a manual run). " +
      "Empty when every pending job can be answered, and once the run is completed."
  }),
  completed_at: Schema.NullOr(Timestamp),
  ...Timestamps
}).annotations({ identifier: "Run" })
export type Run = typeof Run.Type
