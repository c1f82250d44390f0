import { Effect, Layer } from "effect"
import { NotFound } from "../Domain/Errors.ts"
import type { Prompt } from "../Domain/Prompt.ts"
import * as ProjectTable from "../Memory/ProjectTable.ts"
import { byId, MemoryStore, type PromptRow } from "../Memory/Store.ts"
import { type NewPrompt, PromptsRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  PromptsRepo,
  Effect.map(MemoryStore, (db) => {
    const tagsOf = (promptId: number) =>
      byId([...db.table("prompt_tags")].flatMap((key) => {
        const [prompt, tagId] = key.split(":").map(Number)
        const tag = prompt === promptId ? db.table("tags").get(tagId!) : undefined
        return tag === undefined ? [] : [tag]
      })).map(({ project_id: _, ...tag }) => tag)
    const replaceTags = (promptId: number, tagIds: ReadonlyArray<number>) => {
      for (const key of db.table("prompt_tags")) if (key.startsWith(`${promptId}:`)) db.table("prompt_tags").delete(key)
      // A tag deleted since the request checked it is left out, as in SQL.
      for (const tagId of tagIds) if (db.table("tags").has(tagId)) db.table("prompt_tags").add(`${promptId}:${tagId}`)
    }
    const table = ProjectTable.make<PromptRow, Omit<NewPrompt, "tag_ids">, Prompt>(db, "prompts", "Prompt", {
      view: ({ project_id: _, ...row }) => ({ ...row, tags: tagsOf(row.id) }),
      remove: (id) => db.deletePrompt(id),
      parent: { column: "monitor_id", table: "monitors", resource: "Monitor" }
    })
    return PromptsRepo.of({
      ...table,
      ...ProjectTable.withIdSet(db, "prompts", table, { field: "tag_ids", replace: replaceTags }),
      attachTag: (promptId, tagId) =>
        Effect.suspend(() => {
          // Deleted since the request found them: as the SQL repository tells it.
          if (!db.table("prompts").has(promptId)) return Effect.fail(new NotFound({ resource: "Prompt" }))
          if (!db.table("tags").has(tagId)) return Effect.fail(new NotFound({ resource: "Tag" }))
          db.table("prompt_tags").add(`${promptId}:${tagId}`)
          return table.get(promptId)
        }),
      detachTag: (promptId, tagId) => Effect.suspend(() => (db.table("prompt_tags").delete(`${promptId}:${tagId}`), table.get(promptId)))
    })
  })
)
