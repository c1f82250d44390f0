import { OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Monitor, schedules } from "../Domain/Monitor.ts"
import * as Fields from "../Http/Fields.ts"
import { projectResourceApi } from "../Http/ProjectResourceApi.ts"

const fields = {
  name: Fields.text("name", 255),
  country: Fields.country("country"),
  platforms: Fields.platformSet("platforms"),
  schedule: Fields.oneOf("schedule", schedules).annotations({ description: "`daily` (default), `weekly` or `manual`." }),
  active: Fields.boolean("active").annotations({ description: "Default true." })
}

export const CreateMonitor = Fields.input({
  name: fields.name,
  country: fields.country,
  platforms: fields.platforms,
  schedule: Schema.optionalWith(fields.schedule, { default: () => "daily" as const, exact: true }),
  active: Schema.optionalWith(fields.active, { default: () => true, exact: true })
}).annotations({
  examples: [{ name: "US daily", country: "US", platforms: ["chatgpt", "perplexity"], schedule: "daily", active: true }]
})

export const UpdateMonitor = Fields.input({
  name: Fields.optional(fields.name),
  country: Fields.optional(fields.country),
  platforms: Fields.optional(fields.platforms),
  schedule: Fields.optional(fields.schedule),
  active: Fields.optional(fields.active)
}).annotations({ examples: [{ active: false }] })

export class MonitorsApi extends projectResourceApi({
  group: "monitors",
  path: "/monitors",
  param: "monitor",
  resource: Monitor,
  create: CreateMonitor,
  update: UpdateMonitor,
  read: "monitors:read",
  write: "monitors:write",
  noun: { one: "monitor", many: "monitors" },
  describe: {
    list: "Every monitor of the active project, by id.",
    create:
      "`name`, `country` (ISO 3166-1 alpha-2), `platforms` (a non-empty set of the eight platform names), optional `schedule` and `active`.",
    get: "One monitor of the active project.",
    update: "Any subset of the monitor's fields; omitted fields keep their value.",
    delete: "Deletes the monitor with its prompts and their responses. 204."
  }
}).annotate(OpenApi.Title, "Monitors") {}
