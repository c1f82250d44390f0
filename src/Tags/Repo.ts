import { Context, Data, Layer } from "effect"
import * as ProjectTable from "../Database/ProjectTable.ts"
import { Tag } from "../Domain/Tag.ts"

/** Another tag of the project already has this name, compared case-insensitively. */
export class TagNameTaken extends Data.TaggedError("TagNameTaken")<{}> {}

export interface NewTag {
  readonly name: string
  readonly color: string
}

/** The project's tags; deleting one removes its prompt attachments, the prompts stay. */
export class TagsRepo extends Context.Tag("TagsRepo")<TagsRepo, ProjectTable.ProjectTable<Tag, NewTag, TagNameTaken>>() {}

export const layerSql = Layer.effect(
  TagsRepo,
  ProjectTable.make<Tag, NewTag, TagNameTaken>({
    table: "tags",
    resource: "Tag",
    row: Tag,
    // The unique index decides, so two concurrent requests cannot both take a name.
    unique: { index: "tags_project_id_name_unique", error: () => new TagNameTaken() }
  })
)
