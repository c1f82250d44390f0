import { Effect, Layer, Option } from "effect"
import type { Monitor } from "../Domain/Monitor.ts"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import { byId, MemoryStore, pageOf } from "../Memory/Store.ts"
import { MonitorsRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  MonitorsRepo,
  Effect.map(MemoryStore, (db) => {
    const ofProject = (projectId: number) => byId(db.monitors.values()).filter((monitor) => monitor.project_id === projectId)
    return MonitorsRepo.of({
      list: (projectId, window) => Effect.sync(() => pageOf(ofProject(projectId), window)),
      find: (projectId, id) => Effect.sync(() => Option.fromNullable(ofProject(projectId).find((monitor) => monitor.id === id))),
      findMany: (projectId, ids) => Effect.sync(() => ofProject(projectId).filter((monitor) => ids.includes(monitor.id))),
      create: (projectId, input) =>
        Effect.sync(() => {
          const now = db.now()
          const monitor: Monitor = { id: db.nextId("monitors"), project_id: projectId, ...input, created_at: now, updated_at: now }
          db.monitors.set(monitor.id, monitor)
          return monitor
        }),
      update: (id, patch) =>
        Effect.sync(() => {
          const changes = changesOf(patch)
          const current = db.monitors.get(id)!
          if (isEmpty(changes)) return current
          const updated: Monitor = { ...current, ...changes, updated_at: db.now() }
          db.monitors.set(id, updated)
          return updated
        }),
      delete: (id) => Effect.sync(() => db.deleteMonitor(id))
    })
  })
)
