import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Run } from "../../Domain/Run.ts"
import { guarded } from "../../Http/Authorize.ts"
import * as ErrorSchemas from "../../Http/ErrorSchemas.ts"
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
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded(
        "monitors:read",
        "List a monitor's runs",
        "The collector's runs of one monitor of the active project, newest slot first, each with the counts of its jobs " +
          "(one job per prompt × platform): `pending`, `running`, `succeeded`, `failed`, `skipped`, and the platforms no running worker " +
          "answers (`blocked_platforms`, with why). A daily monitor has a run " +
          "per UTC day, a weekly one per ISO week (its Monday); `missed` runs stand for slots no worker covered."
      ))
  )
  .add(
    HttpApiEndpoint.post("trigger")`/monitors/${monitorParam}/runs`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Run), { status: 202 })
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded("monitors:write", "Run a monitor now", "Creates a run of the monitor for this instant, whatever its schedule or `active` flag: one pending job per prompt × " +
          "platform, asked by the workers shortly after, except on the platforms the run's `blocked_platforms` names (no running worker " +
          "answers them: no provider key, simulation off, or no worker at all). Answers 202 with the run; follow it with " +
          "`GET /monitors/{monitor}/runs`. No body."))
  )
  .middleware(ProjectContext)
  .annotate(OpenApi.Title, "Runs")
{}
