import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Monitor, schedules } from "../Domain/Monitor.ts"
import { BadRequest } from "../Http/ErrorSchemas.ts"
import { requires } from "../Http/Authorize.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"

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

const monitorParam = HttpApiSchema.param("monitor", Fields.PathId)

export class MonitorsApi extends HttpApiGroup.make("monitors")
  .add(
    HttpApiEndpoint.get("list", "/monitors")
      .setUrlParams(Fields.input(PageQuery))
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Monitor))
      .middleware(requires("monitors:read"))
      .annotate(OpenApi.Summary, "List monitors")
      .annotate(OpenApi.Description, "Every monitor of the active project, by id. Ability `monitors:read`.")
  )
  .add(
    HttpApiEndpoint.post("create", "/monitors")
      .setPayload(CreateMonitor)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Monitor), { status: 201 })
      .middleware(requires("monitors:write"))
      .annotate(OpenApi.Summary, "Create a monitor")
      .annotate(
        OpenApi.Description,
        "`name`, `country` (ISO 3166-1 alpha-2), `platforms` (a non-empty set of the eight platform names), optional `schedule` and `active`. Ability `monitors:write`."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/monitors/${monitorParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Monitor))
      .middleware(requires("monitors:read"))
      .annotate(OpenApi.Summary, "Read a monitor")
      .annotate(OpenApi.Description, "One monitor of the active project. Ability `monitors:read`.")
  )
  .add(
    HttpApiEndpoint.patch("update")`/monitors/${monitorParam}`
      .setPayload(UpdateMonitor)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Monitor))
      .middleware(requires("monitors:write"))
      .annotate(OpenApi.Summary, "Update a monitor")
      .annotate(OpenApi.Description, "Any subset of the monitor's fields; omitted fields keep their value. Ability `monitors:write`.")
  )
  .add(
    HttpApiEndpoint.del("delete")`/monitors/${monitorParam}`
      .setHeaders(ProjectHeader)
      .middleware(requires("monitors:write"))
      .annotate(OpenApi.Summary, "Delete a monitor")
      .annotate(OpenApi.Description, "Deletes the monitor with its prompts and their responses. 204. Ability `monitors:write`.")
  )
  .middleware(ProjectContext)
  .addError(BadRequest)
  .annotate(OpenApi.Title, "Monitors")
{}
