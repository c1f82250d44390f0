import { Effect, Layer, Option } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import { byId, MemoryStore, pageOf, type SegmentRow } from "../Memory/Store.ts"
import { SegmentsRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  SegmentsRepo,
  Effect.map(MemoryStore, (db) => {
    const ofProject = (projectId: number) => byId(db.segments.values()).filter((segment) => segment.project_id === projectId)
    return SegmentsRepo.of({
      list: (projectId, window) => Effect.sync(() => pageOf(ofProject(projectId), window)),
      find: (projectId, id) => Effect.sync(() => Option.fromNullable(ofProject(projectId).find((segment) => segment.id === id))),
      existing: (projectId, ids) => Effect.sync(() => ids.filter((id) => db.segments.get(id)?.project_id === projectId)),
      create: (projectId, input) =>
        Effect.sync(() => {
          const now = db.now()
          const segment: SegmentRow = { id: db.nextId("segments"), project_id: projectId, ...input, created_at: now, updated_at: now }
          db.segments.set(segment.id, segment)
          return segment
        }),
      update: (id, patch) =>
        Effect.sync(() => {
          const changes = changesOf(patch)
          const current = db.segments.get(id)!
          if (isEmpty(changes)) return current
          const updated: SegmentRow = { ...current, ...changes, updated_at: db.now() }
          db.segments.set(id, updated)
          return updated
        }),
      delete: (id) => Effect.sync(() => db.deleteSegment(id))
    })
  })
)
