import { Schema } from "effect"
import { Id, Timestamps } from "./Common.ts"
import { Platform } from "./Platform.ts"

export const schedules = ["daily", "weekly", "manual"] as const
export const Schedule = Schema.Literal(...schedules)
export type Schedule = typeof Schedule.Type

export const Monitor = Schema.Struct({
  id: Id,
  project_id: Id,
  name: Schema.String,
  country: Schema.String.annotations({ description: "ISO 3166-1 alpha-2, upper-case.", examples: ["US"] }),
  platforms: Schema.Array(Platform),
  schedule: Schedule,
  active: Schema.Boolean,
  simulated: Schema.Boolean.annotations({
    description: "Whether the monitor's runs are answered by the simulated platform (labelled, no provider asked) instead of the real providers."
  }),
  ...Timestamps
}).annotations({ identifier: "Monitor" })
export type Monitor = typeof Monitor.Type
