import { Clock, Effect, Layer } from "effect"
import * as ApiGroup from "../../Http/ApiGroup.ts"
import { paginated } from "../../Http/Responses.ts"
import { monitorOfProject } from "../../Monitors/Http.ts"
import { MonitorsRepo } from "../../Monitors/Repo.ts"
import { RunsRepo } from "./Repo.ts"
import { RunsApi } from "./Api.ts"
import * as Area from "../../Area.ts"
import * as RunsMemory from "./RepoMemory.ts"
import * as RunsSql from "./Repo.ts"
import * as Workers from "../Workers.ts"

export const RunsLive = ApiGroup.group(RunsApi, (handlers) =>
  Effect.gen(function*() {
    const runs = yield* RunsRepo
    const monitors = yield* MonitorsRepo
    const find = (id: number) => Effect.provideService(monitorOfProject(id), MonitorsRepo, monitors)
    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.flatMap(find(path.monitor), (monitor) => paginated(urlParams, (window) => runs.list(monitor.id, window))))
      .handle("trigger", ({ path }) =>
        Effect.gen(function*() {
          const monitor = yield* find(path.monitor)
          // A manual run's slot is its own instant; no deadline, it is asked whenever a worker gets to it.
          const slot = new Date(yield* Clock.currentTimeMillis)
          const { run } = yield* runs.create(monitor, { slot, trigger: "manual", deadline: null })
          return { data: run }
        }))
  }))

/** A monitor's runs (with the monitors' abilities). */
export const RunsArea = Area.make({
  groups: [RunsApi],
  handlers: RunsLive,
  repositories: [Area.repository(RunsRepo, { sql: RunsSql.layerSql.pipe(Layer.provide(Workers.layerSql)), memory: RunsMemory.layerMemory.pipe(Layer.provide(Workers.layerMemory)) })],
  abilities: []
})
