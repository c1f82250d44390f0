import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Prompt } from "../Domain/Prompt.ts"
import { BadRequest } from "../Http/ErrorSchemas.ts"
import { requires } from "../Http/Authorize.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"

const tags = Fields.idList("tags", 100).annotations({ description: "Tag ids of the active project: the prompt's whole tag set." })

export const CreatePrompt = Fields.input({
  monitor_id: Fields.id("monitor_id").annotations({ description: "A monitor of the active project." }),
  text: Fields.text("text", 2000).annotations({ description: "The question, 1-2000 characters, trimmed." }),
  tags: Schema.optionalWith(tags, { default: () => [], exact: true })
}).annotations({ examples: [{ monitor_id: 1, text: "What is the best CRM for a small agency?", tags: [1] }] })

export const UpdatePrompt = Fields.input({
  monitor_id: Fields.optional(Fields.id("monitor_id")).annotations({ description: "Moves the prompt to another monitor of the project." }),
  text: Fields.optional(Fields.text("text", 2000)),
  tags: Fields.optional(tags).annotations({ description: "Replaces the prompt's whole tag set." })
}).annotations({ examples: [{ tags: [1, 3] }] })

export const PromptsQuery = Fields.input({
  ...PageQuery,
  monitor_id: Fields.optional(Fields.idQuery("monitor_id")).annotations({
    description: "Only the prompts of this monitor (a monitor of the active project)."
  })
})

const promptParam = HttpApiSchema.param("prompt", Fields.PathId)
const tagParam = HttpApiSchema.param("tag", Fields.PathId)

export class PromptsApi extends HttpApiGroup.make("prompts")
  .add(
    HttpApiEndpoint.get("list", "/prompts")
      .setUrlParams(PromptsQuery)
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Prompt))
      .middleware(requires("prompts:read"))
      .annotate(OpenApi.Summary, "List prompts")
      .annotate(
        OpenApi.Description,
        "Every prompt of the active project with its tags, by id; `monitor_id` narrows to one monitor. Ability `prompts:read`."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/prompts")
      .setPayload(CreatePrompt)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Prompt), { status: 201 })
      .middleware(requires("prompts:write"))
      .annotate(OpenApi.Summary, "Create a prompt")
      .annotate(OpenApi.Description, "Creates a prompt under a monitor of the active project, with optional tags. Ability `prompts:write`.")
  )
  .add(
    HttpApiEndpoint.get("get")`/prompts/${promptParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Prompt))
      .middleware(requires("prompts:read"))
      .annotate(OpenApi.Summary, "Read a prompt")
      .annotate(OpenApi.Description, "One prompt of the active project, with its tags. Ability `prompts:read`.")
  )
  .add(
    HttpApiEndpoint.patch("update")`/prompts/${promptParam}`
      .setPayload(UpdatePrompt)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Prompt))
      .middleware(requires("prompts:write"))
      .annotate(OpenApi.Summary, "Update a prompt")
      .annotate(
        OpenApi.Description,
        "Any subset of `monitor_id`, `text`, `tags`; `monitor_id` moves the prompt within the project, `tags` replaces its tag set. Ability `prompts:write`."
      )
  )
  .add(
    HttpApiEndpoint.del("delete")`/prompts/${promptParam}`
      .setHeaders(ProjectHeader)
      .middleware(requires("prompts:write"))
      .annotate(OpenApi.Summary, "Delete a prompt")
      .annotate(OpenApi.Description, "Deletes the prompt with its responses. 204. Ability `prompts:write`.")
  )
  .add(
    HttpApiEndpoint.post("attachTag")`/prompts/${promptParam}/tags/${tagParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Prompt))
      .middleware(requires("prompts:write"))
      .annotate(OpenApi.Summary, "Attach a tag")
      .annotate(OpenApi.Description, "Idempotent: attaching an attached tag changes nothing. Answers the prompt. Ability `prompts:write`.")
  )
  .add(
    HttpApiEndpoint.del("detachTag")`/prompts/${promptParam}/tags/${tagParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Prompt))
      .middleware(requires("prompts:write"))
      .annotate(OpenApi.Summary, "Detach a tag")
      .annotate(OpenApi.Description, "Idempotent: detaching a tag that is not attached changes nothing. Answers the prompt. Ability `prompts:write`.")
  )
  .middleware(ProjectContext)
  .addError(BadRequest)
  .annotate(OpenApi.Title, "Prompts")
{}
