import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Source, SourceUrl } from "../Domain/Response.ts"
import { guarded } from "../Http/Authorize.ts"
import * as ErrorSchemas from "../Http/ErrorSchemas.ts"
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
      .pipe(guarded("sources:read", "List sources", "The domains cited in the active project's responses, by id."))
  )
  .add(
    HttpApiEndpoint.get("get")`/sources/${sourceParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Source))
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded("sources:read", "Read a source", "One source (domain) of the active project."))
  )
  .add(
    HttpApiEndpoint.get("urls", "/source-urls")
      .setUrlParams(Fields.input({ ...PageQuery, source_id: Fields.optional(Fields.idQuery("source_id")) }))
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(SourceUrl))
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded("sources:read", "List source URLs", "The exact (normalized) URLs cited in the active project's responses, by id; `source_id` narrows to one domain."))
  )
  .middleware(ProjectContext)
  .annotate(OpenApi.Title, "Sources")
{}
