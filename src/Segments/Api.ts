import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Segment } from "../Domain/Brand.ts"
import { BadRequest } from "../Http/ErrorSchemas.ts"
import { requires } from "../Http/Authorize.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"

export const CreateSegment = Fields.input({
  name: Fields.text("name", 255)
}).annotations({ examples: [{ name: "Enterprise CRM" }] })

export const UpdateSegment = Fields.input({
  name: Fields.optional(Fields.text("name", 255))
}).annotations({ examples: [{ name: "SMB CRM" }] })

const segmentParam = HttpApiSchema.param("segment", Fields.PathId)

export class SegmentsApi extends HttpApiGroup.make("segments")
  .add(
    HttpApiEndpoint.get("list", "/segments")
      .setUrlParams(Fields.input(PageQuery))
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Segment))
      .middleware(requires("segments:read"))
      .annotate(OpenApi.Summary, "List segments")
      .annotate(OpenApi.Description, "Every segment of the active project, by id. Ability `segments:read`.")
  )
  .add(
    HttpApiEndpoint.post("create", "/segments")
      .setPayload(CreateSegment)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Segment), { status: 201 })
      .middleware(requires("segments:write"))
      .annotate(OpenApi.Summary, "Create a segment")
      .annotate(OpenApi.Description, "`name` 1-255 characters, trimmed. Ability `segments:write`.")
  )
  .add(
    HttpApiEndpoint.get("get")`/segments/${segmentParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Segment))
      .middleware(requires("segments:read"))
      .annotate(OpenApi.Summary, "Read a segment")
      .annotate(OpenApi.Description, "One segment of the active project. Ability `segments:read`.")
  )
  .add(
    HttpApiEndpoint.patch("update")`/segments/${segmentParam}`
      .setPayload(UpdateSegment)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Segment))
      .middleware(requires("segments:write"))
      .annotate(OpenApi.Summary, "Update a segment")
      .annotate(OpenApi.Description, "Optional `name`; omitted, it keeps its value. Ability `segments:write`.")
  )
  .add(
    HttpApiEndpoint.del("delete")`/segments/${segmentParam}`
      .setHeaders(ProjectHeader)
      .middleware(requires("segments:write"))
      .annotate(OpenApi.Summary, "Delete a segment")
      .annotate(OpenApi.Description, "Removes the segment and detaches it from its brands; the brands stay. 204. Ability `segments:write`.")
  )
  .middleware(ProjectContext)
  .addError(BadRequest)
  .annotate(OpenApi.Title, "Segments")
{}
