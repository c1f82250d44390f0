import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Brand, classifications } from "../Domain/Brand.ts"
import { BadRequest } from "../Http/ErrorSchemas.ts"
import { requires } from "../Http/Authorize.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"

const fields = {
  name: Fields.text("name", 255),
  aliases: Fields.textList("aliases", 255, 50),
  domains: Fields.domainList("domains", 50),
  classification: Fields.oneOf("classification", classifications).annotations({
    description: "`competitor` (default), `other` or `ignored`."
  }),
  segment_ids: Fields.idList("segment_ids", 100).annotations({ description: "Segment ids of the active project: the brand's whole segment set." })
}

export const CreateBrand = Fields.input({
  name: fields.name,
  aliases: Schema.optionalWith(fields.aliases, { default: () => [], exact: true }),
  domains: Schema.optionalWith(fields.domains, { default: () => [], exact: true }),
  classification: Schema.optionalWith(fields.classification, { default: () => "competitor" as const, exact: true }),
  segment_ids: Schema.optionalWith(fields.segment_ids, { default: () => [], exact: true })
}).annotations({
  examples: [{ name: "Acme", aliases: ["Acme Inc."], domains: ["acme.com"], classification: "competitor", segment_ids: [1] }]
})

export const UpdateBrand = Fields.input({
  name: Fields.optional(fields.name),
  aliases: Fields.optional(fields.aliases),
  domains: Fields.optional(fields.domains),
  classification: Fields.optional(fields.classification),
  segment_ids: Fields.optional(fields.segment_ids).annotations({ description: "Replaces the brand's whole segment set." })
}).annotations({ examples: [{ classification: "ignored" }] })

const brandParam = HttpApiSchema.param("brand", Fields.PathId)
const segmentParam = HttpApiSchema.param("segment", Fields.PathId)

export class BrandsApi extends HttpApiGroup.make("brands")
  .add(
    HttpApiEndpoint.get("list", "/brands")
      .setUrlParams(Fields.input(PageQuery))
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Brand))
      .middleware(requires("brands:read"))
      .annotate(OpenApi.Summary, "List brands")
      .annotate(OpenApi.Description, "Every brand of the active project with its segment ids, by id. Ability `brands:read`.")
  )
  .add(
    HttpApiEndpoint.post("create", "/brands")
      .setPayload(CreateBrand)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Brand), { status: 201 })
      .middleware(requires("brands:write"))
      .annotate(OpenApi.Summary, "Create a brand")
      .annotate(
        OpenApi.Description,
        "`name` 1-255 characters; optional `aliases`, `domains`, `classification` (default `competitor`) and `segment_ids` (segments of the active project). Ability `brands:write`."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/brands/${brandParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Brand))
      .middleware(requires("brands:read"))
      .annotate(OpenApi.Summary, "Read a brand")
      .annotate(OpenApi.Description, "One brand of the active project, with its segment ids. Ability `brands:read`.")
  )
  .add(
    HttpApiEndpoint.patch("update")`/brands/${brandParam}`
      .setPayload(UpdateBrand)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Brand))
      .middleware(requires("brands:write"))
      .annotate(OpenApi.Summary, "Update a brand")
      .annotate(
        OpenApi.Description,
        "Any subset of `name`, `aliases`, `domains`, `classification`, `segment_ids`; omitted fields keep their value, `segment_ids` replaces the segment set. Ability `brands:write`."
      )
  )
  .add(
    HttpApiEndpoint.del("delete")`/brands/${brandParam}`
      .setHeaders(ProjectHeader)
      .middleware(requires("brands:write"))
      .annotate(OpenApi.Summary, "Delete a brand")
      .annotate(
        OpenApi.Description,
        "Deletes the brand with its mentions and segment attachments; a project whose own brand it was is left without one. 204. Ability `brands:write`."
      )
  )
  .add(
    HttpApiEndpoint.post("attachSegment")`/brands/${brandParam}/segments/${segmentParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Brand))
      .middleware(requires("brands:write"))
      .annotate(OpenApi.Summary, "Attach a segment")
      .annotate(OpenApi.Description, "Idempotent: attaching an attached segment changes nothing. Answers the brand. Ability `brands:write`.")
  )
  .add(
    HttpApiEndpoint.del("detachSegment")`/brands/${brandParam}/segments/${segmentParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Brand))
      .middleware(requires("brands:write"))
      .annotate(OpenApi.Summary, "Detach a segment")
      .annotate(
        OpenApi.Description,
        "Idempotent: detaching a segment that is not attached changes nothing. Answers the brand. Ability `brands:write`."
      )
  )
  .middleware(ProjectContext)
  .addError(BadRequest)
  .annotate(OpenApi.Title, "Brands")
{}
