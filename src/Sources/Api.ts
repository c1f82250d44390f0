import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Source, SourceUrl } from "../Domain/Response.ts"
import { requires } from "../Http/Authorize.ts"
import { BadRequest } from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"

const sourceParam = HttpApiSchema.param("source", Fields.PathId)

export class SourcesApi extends HttpApiGroup.make("sources")
  .add(
    HttpApiEndpoint.get("list", "/sources")
      .setUrlParams(Fields.input(PageQuery))
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Source))
      .middleware(requires("sources:read"))
      .annotate(OpenApi.Summary, "List sources")
      .annotate(OpenApi.Description, "The domains cited in the active project's responses, by id. Ability `sources:read`.")
  )
  .add(
    HttpApiEndpoint.get("get")`/sources/${sourceParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Source))
      .middleware(requires("sources:read"))
      .annotate(OpenApi.Summary, "Read a source")
      .annotate(OpenApi.Description, "One source (domain) of the active project. Ability `sources:read`.")
  )
  .add(
    HttpApiEndpoint.get("urls", "/source-urls")
      .setUrlParams(Fields.input({ ...PageQuery, source_id: Fields.optional(Fields.idQuery("source_id")) }))
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(SourceUrl))
      .middleware(requires("sources:read"))
      .annotate(OpenApi.Summary, "List source URLs")
      .annotate(
        OpenApi.Description,
        "The exact (normalized) URLs cited in the active project's responses, by id; `source_id` narrows to one domain. Ability `sources:read`."
      )
  )
  .middleware(ProjectContext)
  .addError(BadRequest)
  .annotate(OpenApi.Title, "Sources")
{}
