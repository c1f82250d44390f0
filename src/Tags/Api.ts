import { OpenApi } from "@effect/platform"
import { Tag } from "../Domain/Tag.ts"
import * as Fields from "../Http/Fields.ts"
import { projectResourceApi } from "../Http/ProjectResourceApi.ts"

export const CreateTag = Fields.input({
  name: Fields.text("name", 100).annotations({ description: "Unique in the project, compared case-insensitively." }),
  color: Fields.optional(Fields.color("color"))
}).annotations({ examples: [{ name: "Pricing", color: "#1d4ed8" }] })

export const UpdateTag = Fields.input({
  name: Fields.optional(Fields.text("name", 100)),
  color: Fields.optional(Fields.color("color"))
}).annotations({ examples: [{ color: "#16a34a" }] })

export class TagsApi extends projectResourceApi({
  group: "tags",
  path: "/tags",
  param: "tag",
  resource: Tag,
  create: CreateTag,
  update: UpdateTag,
  read: "tags:read",
  write: "tags:write",
  noun: { one: "tag", many: "tags" },
  describe: {
    list: "Every tag of the active project, by id.",
    create: "`name` 1-100 characters, unique in the project whatever its case; `color` `#rrggbb` (default `#6b7280`).",
    get: "One tag of the active project.",
    update: "Optional `name` and `color`; omitted fields keep their value.",
    delete: "Removes the tag and its prompt attachments; the prompts stay. 204."
  }
}).annotate(OpenApi.Title, "Tags") {}
