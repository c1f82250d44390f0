import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Project } from "../Domain/Project.ts"
import { guarded } from "../Http/Authorize.ts"
import * as ErrorSchemas from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectFromPath } from "../Http/ProjectFromPath.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"

export const CreateProject = Fields.input({
  name: Fields.text("name", 255),
  domain: Fields.optional(Schema.NullOr(Fields.hostname("domain")))
}).annotations({ examples: [{ name: "Acme", domain: "acme.com" }] })

export const UpdateProject = Fields.input({
  name: Fields.optional(Fields.text("name", 255)),
  domain: Fields.optional(Schema.NullOr(Fields.hostname("domain"))),
  brand_id: Fields.optional(Schema.NullOr(Fields.id("brand_id"))).annotations({
    description: "The project's own brand: a brand of this project, or null."
  })
}).annotations({ examples: [{ name: "Acme Inc.", brand_id: null }] })

const projectParam = HttpApiSchema.param("project", Fields.PathId)

/** The collection: lists and creates the projects of the key's organization. */
export class ProjectsApi extends HttpApiGroup.make("projects")
  .add(
    HttpApiEndpoint.get("list", "/projects")
      .setUrlParams(Fields.input(PageQuery))
      .addSuccess(PaginatedSchema(Project))
      .pipe(guarded("projects:read", "List projects", "The projects of the organization the key may act in, by id."))
  )
  .add(
    HttpApiEndpoint.post("create", "/projects")
      .setPayload(CreateProject)
      .addSuccess(DataOf(Project), { status: 201 })
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded("projects:write", "Create a project", "Creates a project in the key's organization, seeded with the tags `branded`, `non-branded` and `review`."))
  )
  .annotate(OpenApi.Title, "Projects")
{}

/** One project, named by the path and resolved (and checked) by `ProjectFromPath`. */
export class ProjectApi extends HttpApiGroup.make("project")
  .add(
    HttpApiEndpoint.get("get")`/projects/${projectParam}`
      .addSuccess(DataOf(Project))
      .pipe(guarded("projects:read", "Read a project", "One project of the key's organization."))
  )
  .add(
    HttpApiEndpoint.patch("update")`/projects/${projectParam}`
      .setPayload(UpdateProject)
      .addSuccess(DataOf(Project))
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded("projects:write", "Update a project", "Any subset of `name`, `domain`, `brand_id`; omitted fields keep their value. `brand_id` must be a brand of this project, or null."))
  )
  .add(
    HttpApiEndpoint.del("delete")`/projects/${projectParam}`
      .pipe(guarded("projects:write", "Delete a project", "Deletes the project and everything it owns (monitors, prompts, responses, tags, segments, brands, sources) in one transaction. 204."))
  )
  .middleware(ProjectFromPath)
  .annotate(OpenApi.Title, "Projects")
{}
