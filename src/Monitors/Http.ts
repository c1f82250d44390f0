import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { projectResourceHandlers } from "../Http/ProjectResourceHandlers.ts"
import { MonitorsRepo } from "./Repo.ts"
import { MonitorsApi } from "./Api.ts"
import * as Area from "../Area.ts"
import * as MonitorsMemory from "./RepoMemory.ts"
import * as MonitorsSql from "./Repo.ts"

/** The monitor of the path, in the active project, or `Monitor not found`. */
export const monitorOfProject = (id: number) => Effect.flatMap(MonitorsRepo, (monitors) => projectResourceHandlers(monitors, "Monitor").find(id))

export const MonitorsLive = ApiGroup.group(MonitorsApi, (handlers) =>
  Effect.gen(function*() {
    const monitors = yield* MonitorsRepo
    const resource = projectResourceHandlers(monitors, "Monitor")
    return handlers
      .handle("list", resource.list)
      .handle("get", ({ path }) => resource.get(path.monitor))
      .handle("delete", ({ path }) => resource.delete(path.monitor))
      .handle("create", ({ payload }) => resource.create(payload))
      .handle("update", ({ path, payload }) => resource.update(path.monitor, payload))
  }))

/** The project's monitors. */
export const MonitorsArea = Area.make({
  groups: [MonitorsApi],
  handlers: MonitorsLive,
  repositories: [Area.repository(MonitorsRepo, { sql: MonitorsSql.layerSql, memory: MonitorsMemory.layerMemory })],
  abilities: ["monitors:read", "monitors:write"]
})
