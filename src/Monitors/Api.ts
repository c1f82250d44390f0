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
  active: Fields.boolean("active").annotations({ description: "Default true." }),
  simulated: Fields.boolean("simulated").annotations({
    description: "Default false. True: the simulated platform answers this monitor's runs (labelled answers, no provider key needed, none asked); false: only the real providers do."
  })
}

export const CreateMonitor = Fields.input({
  name: fields.name,
  country: fields.country,
  platforms: fields.platforms,
  schedule: Schema.optionalWith(fields.schedule, { default: () => "daily" as const, exact: true }),
  active: Schema.optionalWith(fields.active, { default: () => true, exact: true }),
  simulated: Schema.optionalWith(fields.simulated, { default: () => false, exact: true })
}).annotations({
  examples: [{ name: "US daily", country: "US", platforms: ["chatgpt", "perplexity"], schedule: "daily", active: true, simulated: false }]
})

export const UpdateMonitor = Fields.input({
  name: Fields.optional(fields.name),
  country: Fields.optional(fields.country),
  platforms: Fields.optional(fields.platforms),
  schedule: Fields.optional(fields.schedule),
  active: Fields.optional(fields.active),
  simulated: Fields.optional(fields.simulated)
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
      "`name`, `country` (ISO 3166-1 alpha-2), `platforms` (a non-empty set of the eight platform names), optional `schedule`, `active` and `simulated` (docs/simulated.md).",
    get: "One monitor of the active project.",
    update: "Any subset of the monitor's fields; omitted fields keep their value.",
    delete: "Deletes the monitor with its prompts and their responses. 204."
  }
}).annotate(OpenApi.Title, "Monitors") {}
