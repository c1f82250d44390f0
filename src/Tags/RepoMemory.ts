import { Effect, Layer } from "effect"
import type { Tag } from "../Domain/Tag.ts"
import * as ProjectTable from "../Memory/ProjectTable.ts"
import { MemoryStore, type TagRow } from "../Memory/Store.ts"
import { type NewTag, TagNameTaken, TagsRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  TagsRepo,
  Effect.map(MemoryStore, (db) =>
    ProjectTable.make<TagRow, NewTag, Tag, TagNameTaken>(db, "tags", "Tag", {
      view: ({ project_id: _, ...tag }) => tag,
      remove: (id) => db.deleteTag(id),
      unique: { key: (tag) => tag.name.toLowerCase(), error: () => new TagNameTaken() }
    })
  )
)
