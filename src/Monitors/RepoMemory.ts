import { Effect, Layer } from "effect"
import type { Monitor } from "../Domain/Monitor.ts"
import * as ProjectTable from "../Memory/ProjectTable.ts"
import { MemoryStore } from "../Memory/Store.ts"
import { MonitorsRepo, type NewMonitor } from "./Repo.ts"

export const layerMemory = Layer.effect(
  MonitorsRepo,
  Effect.map(MemoryStore, (db) => {
    const table = ProjectTable.make<Monitor, NewMonitor>(db, "monitors", "Monitor", { remove: (id) => db.deleteMonitor(id) })
    // As the column's default: a monitor is simulated only when asked.
    return { ...table, create: (projectId: number, values: NewMonitor) => table.create(projectId, { ...values, simulated: values.simulated ?? false }) }
  })
)
