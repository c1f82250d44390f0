import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Run } from "../../Domain/Run.ts"
import { requires } from "../../Http/Authorize.ts"
import { BadRequest } from "../../Http/ErrorSchemas.ts"
import * as Fields from "../../Http/Fields.ts"
import { PaginatedSchema } from "../../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../../Http/Responses.ts"

const monitorParam = HttpApiSchema.param("monitor", Fields.PathId)

export class RunsApi extends HttpApiGroup.make("runs")
  .add(
    HttpApiEndpoint.get("list")`/monitors/${monitorParam}/runs`
      .setUrlParams(Fields.input(PageQuery))
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Run))
      .middleware(requires("monitors:read"))
      .annotate(OpenApi.Summary, "List a monitor's runs")
      .annotate(
        OpenApi.Description,
        "The collector's runs of one monitor of the active project, newest slot first, each with the counts of its jobs " +
          "(one job per prompt × platform): `pending`, `running`, `succeeded`, `failed`, `skipped`. A daily monitor has a run " +
          "per UTC day, a weekly one per ISO week (its Monday); `missed` runs stand for slots no worker covered. " +
          "Ability `monitors:read`."
      )
  )
  .add(
    HttpApiEndpoint.post("trigger")`/monitors/${monitorParam}/runs`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Run), { status: 202 })
      .middleware(requires("monitors:write"))
      .annotate(OpenApi.Summary, "Run a monitor now")
      .annotate(
        OpenApi.Description,
        "Creates a run of the monitor for this instant, whatever its schedule or `active` flag: one pending job per prompt × " +
          "platform, asked by the workers shortly after. Answers 202 with the run; follow it with `GET /monitors/{monitor}/runs`. " +
          "No body. Ability `monitors:write`."
      )
  )
  .middleware(ProjectContext)
  .addError(BadRequest)
  .annotate(OpenApi.Title, "Runs")
{}
