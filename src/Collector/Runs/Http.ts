import { Clock, Effect } from "effect"
import * as ApiGroup from "../../Http/ApiGroup.ts"
import { Api } from "../../Api.ts"
import { paginated } from "../../Http/Responses.ts"
import { monitorOfProject } from "../../Monitors/Http.ts"
import { MonitorsRepo } from "../../Monitors/Repo.ts"
import { RunsRepo } from "./Repo.ts"

export const RunsLive = ApiGroup.group(Api, "runs", (handlers) =>
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
