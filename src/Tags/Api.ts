import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Tag } from "../Domain/Tag.ts"
import { BadRequest } from "../Http/ErrorSchemas.ts"
import { requires } from "../Http/Authorize.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"

export const CreateTag = Fields.input({
  name: Fields.text("name", 100).annotations({ description: "Unique in the project, compared case-insensitively." }),
  color: Fields.optional(Fields.color("color"))
}).annotations({ examples: [{ name: "Pricing", color: "#1d4ed8" }] })

export const UpdateTag = Fields.input({
  name: Fields.optional(Fields.text("name", 100)),
  color: Fields.optional(Fields.color("color"))
}).annotations({ examples: [{ color: "#16a34a" }] })

const tagParam = HttpApiSchema.param("tag", Fields.PathId)

export class TagsApi extends HttpApiGroup.make("tags")
  .add(
    HttpApiEndpoint.get("list", "/tags")
      .setUrlParams(Fields.input(PageQuery))
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Tag))
      .middleware(requires("tags:read"))
      .annotate(OpenApi.Summary, "List tags")
      .annotate(OpenApi.Description, "Every tag of the active project, by id. Ability `tags:read`.")
  )
  .add(
    HttpApiEndpoint.post("create", "/tags")
      .setPayload(CreateTag)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Tag), { status: 201 })
      .middleware(requires("tags:write"))
      .annotate(OpenApi.Summary, "Create a tag")
      .annotate(
        OpenApi.Description,
        "`name` 1-100 characters, unique in the project whatever its case; `color` `#rrggbb` (default `#6b7280`). Ability `tags:write`."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/tags/${tagParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Tag))
      .middleware(requires("tags:read"))
      .annotate(OpenApi.Summary, "Read a tag")
      .annotate(OpenApi.Description, "One tag of the active project. Ability `tags:read`.")
  )
  .add(
    HttpApiEndpoint.patch("update")`/tags/${tagParam}`
      .setPayload(UpdateTag)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Tag))
      .middleware(requires("tags:write"))
      .annotate(OpenApi.Summary, "Update a tag")
      .annotate(OpenApi.Description, "Optional `name` and `color`; omitted fields keep their value. Ability `tags:write`.")
  )
  .add(
    HttpApiEndpoint.del("delete")`/tags/${tagParam}`
      .setHeaders(ProjectHeader)
      .middleware(requires("tags:write"))
      .annotate(OpenApi.Summary, "Delete a tag")
      .annotate(OpenApi.Description, "Removes the tag and its prompt attachments; the prompts stay. 204. Ability `tags:write`.")
  )
  .middleware(ProjectContext)
  .addError(BadRequest)
  .annotate(OpenApi.Title, "Tags")
{}
