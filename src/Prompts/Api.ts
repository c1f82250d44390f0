import { OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Prompt } from "../Domain/Prompt.ts"
import * as Fields from "../Http/Fields.ts"
import { attachmentEndpoints, projectResourceApi } from "../Http/ProjectResourceApi.ts"
import { PageQuery } from "../Http/Responses.ts"

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

const tagsOf = attachmentEndpoints({
  path: "/prompts",
  param: "prompt",
  others: "tags",
  otherParam: "tag",
  resource: Prompt,
  ability: "prompts:write",
  name: "Tag",
  noun: { owner: "prompt", other: "tag" }
})

export class PromptsApi extends projectResourceApi({
  group: "prompts",
  path: "/prompts",
  param: "prompt",
  resource: Prompt,
  create: CreatePrompt,
  update: UpdatePrompt,
  read: "prompts:read",
  write: "prompts:write",
  listQuery: PromptsQuery,
  noun: { one: "prompt", many: "prompts" },
  describe: {
    list: "Every prompt of the active project with its tags, by id; `monitor_id` narrows to one monitor.",
    create: "Creates a prompt under a monitor of the active project, with optional tags.",
    get: "One prompt of the active project, with its tags.",
    update:
      "Any subset of `monitor_id`, `text`, `tags`; `monitor_id` moves the prompt within the project, `tags` replaces its tag set.",
    delete: "Deletes the prompt with its responses. 204."
  }
}).add(tagsOf.attach).add(tagsOf.detach).annotate(OpenApi.Title, "Prompts") {}
