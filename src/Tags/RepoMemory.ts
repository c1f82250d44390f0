import { Effect, Layer, Option } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import type { Tag } from "../Domain/Tag.ts"
import { byId, MemoryStore, pageOf, type TagRow } from "../Memory/Store.ts"
import { TagNameTaken, TagsRepo } from "./Repo.ts"

const view = ({ project_id: _, ...tag }: TagRow): Tag => tag

export const layerMemory = Layer.effect(
  TagsRepo,
  Effect.map(MemoryStore, (db) => {
    const ofProject = (projectId: number) => byId(db.tags.values()).filter((tag) => tag.project_id === projectId)
    const isTaken = (projectId: number, name: string, exceptId?: number) =>
      ofProject(projectId).some((tag) => tag.id !== exceptId && tag.name.toLowerCase() === name.toLowerCase())
    return TagsRepo.of({
      list: (projectId, window) => Effect.sync(() => pageOf(ofProject(projectId).map(view), window)),
      find: (projectId, id) =>
        Effect.sync(() => Option.fromNullable(ofProject(projectId).find((tag) => tag.id === id)).pipe(Option.map(view))),
      existing: (projectId, ids) => Effect.sync(() => ids.filter((id) => db.tags.get(id)?.project_id === projectId)),
      create: (projectId, input) =>
        Effect.suspend(() => {
          if (isTaken(projectId, input.name)) return Effect.fail(new TagNameTaken())
          const now = db.now()
          const tag: TagRow = { id: db.nextId("tags"), project_id: projectId, ...input, created_at: now, updated_at: now }
          db.tags.set(tag.id, tag)
          return Effect.succeed(view(tag))
        }),
      update: (id, patch) =>
        Effect.suspend(() => {
          const current = db.tags.get(id)!
          const changes = changesOf(patch)
          if (isEmpty(changes)) return Effect.succeed(view(current))
          if (changes.name !== undefined && isTaken(current.project_id, changes.name, id)) {
            return Effect.fail(new TagNameTaken())
          }
          const updated: TagRow = { ...current, ...changes, updated_at: db.now() }
          db.tags.set(id, updated)
          return Effect.succeed(view(updated))
        }),
      delete: (id) => Effect.sync(() => db.deleteTag(id))
    })
  })
)
