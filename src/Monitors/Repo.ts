import { Context, Layer } from "effect"
import * as ProjectTable from "../Database/ProjectTable.ts"
import { Monitor, type Schedule } from "../Domain/Monitor.ts"
import type { Platform } from "../Domain/Platform.ts"

export interface NewMonitor {
  readonly name: string
  readonly country: string
  readonly platforms: ReadonlyArray<Platform>
  readonly schedule: Schedule
  readonly active: boolean
  /** Answered by the simulated platform only (docs/simulated.md); false when not given. */
  readonly simulated?: boolean
}

/** The project's monitors; deleting one deletes its prompts and their responses. */
export class MonitorsRepo extends Context.Tag("MonitorsRepo")<MonitorsRepo, ProjectTable.ProjectTable<Monitor, NewMonitor>>() {}

export const layerSql = Layer.effect(MonitorsRepo, ProjectTable.make<Monitor, NewMonitor>({ table: "monitors", resource: "Monitor", row: Monitor }))
