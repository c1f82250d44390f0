import { Effect, Layer } from "effect"
import type { Monitor } from "../Domain/Monitor.ts"
import * as ProjectTable from "../Memory/ProjectTable.ts"
import { MemoryStore } from "../Memory/Store.ts"
import { MonitorsRepo, type NewMonitor } from "./Repo.ts"

export const layerMemory = Layer.effect(
  MonitorsRepo,
  Effect.map(MemoryStore, (db) => ProjectTable.make<Monitor, NewMonitor>(db, "monitors", "Monitor", { remove: (id) => db.deleteMonitor(id) }))
)
