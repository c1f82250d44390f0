import { Effect, Layer, Option } from "effect"
import type { Prompt } from "../Domain/Prompt.ts"
import { byId, MemoryStore, pageOf, type PromptRow, type TagRow } from "../Memory/Store.ts"
import { PromptsRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  PromptsRepo,
  Effect.map(MemoryStore, (db) => {
    const view = ({ project_id: _, ...row }: PromptRow): Prompt => ({
      ...row,
      tags: byId([...db.promptTags].flatMap((key) => {
        const [promptId, tagId] = key.split(":").map(Number)
        const tag = promptId === row.id ? db.tags.get(tagId!) : undefined
        return tag === undefined ? [] : [tag]
      })).map(({ project_id: _, ...tag }: TagRow) => tag)
    })
    const ofProject = (projectId: number) => byId(db.prompts.values()).filter((prompt) => prompt.project_id === projectId)
    const replaceTags = (promptId: number, tagIds: ReadonlyArray<number>) => {
      for (const key of db.promptTags) if (key.startsWith(`${promptId}:`)) db.promptTags.delete(key)
      for (const tagId of tagIds) db.promptTags.add(`${promptId}:${tagId}`)
    }
    return PromptsRepo.of({
      list: (projectId, filter, window) =>
        Effect.sync(() =>
          pageOf(
            ofProject(projectId).filter((prompt) => filter.monitorId === undefined || prompt.monitor_id === filter.monitorId),
            window
          )
        ).pipe(Effect.map((page) => ({ ...page, rows: page.rows.map(view) }))),
      find: (projectId, id) =>
        Effect.sync(() => Option.fromNullable(ofProject(projectId).find((prompt) => prompt.id === id)).pipe(Option.map(view))),
      findMany: (projectId, ids) =>
        Effect.sync(() => ofProject(projectId).filter((prompt) => ids.includes(prompt.id)).map(view)),
      create: (projectId, input) =>
        Effect.sync(() => {
          const now = db.now()
          const row: PromptRow = {
            id: db.nextId("prompts"),
            project_id: projectId,
            monitor_id: input.monitor_id,
            text: input.text,
            created_at: now,
            updated_at: now
          }
          db.prompts.set(row.id, row)
          replaceTags(row.id, input.tag_ids)
          return view(row)
        }),
      update: (id, patch) =>
        Effect.sync(() => {
          const current = db.prompts.get(id)!
          if (patch.monitor_id === undefined && patch.text === undefined && patch.tag_ids === undefined) return view(current)
          const updated: PromptRow = {
            ...current,
            monitor_id: patch.monitor_id ?? current.monitor_id,
            text: patch.text ?? current.text,
            updated_at: db.now()
          }
          db.prompts.set(id, updated)
          if (patch.tag_ids !== undefined) replaceTags(id, patch.tag_ids)
          return view(updated)
        }),
      delete: (id) => Effect.sync(() => db.deletePrompt(id)),
      attachTag: (promptId, tagId) =>
        Effect.sync(() => {
          db.promptTags.add(`${promptId}:${tagId}`)
          return view(db.prompts.get(promptId)!)
        }),
      detachTag: (promptId, tagId) =>
        Effect.sync(() => {
          db.promptTags.delete(`${promptId}:${tagId}`)
          return view(db.prompts.get(promptId)!)
        })
    })
  })
)
