import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { orNotFound } from "../Domain/Errors.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { paginated } from "../Http/Responses.ts"
import { MonitorsRepo } from "./Repo.ts"

/** The monitor of the path, in the active project, or `Monitor not found`. */
export const monitorOfProject = (id: number) =>
  Effect.all([MonitorsRepo, CurrentProject]).pipe(
    Effect.flatMap(([monitors, project]) => monitors.find(project.id, id)),
    orNotFound("Monitor")
  )

export const MonitorsLive = HttpApiBuilder.group(Api, "monitors", (handlers) =>
  Effect.gen(function*() {
    const monitors = yield* MonitorsRepo
    const find = (id: number) => Effect.provideService(monitorOfProject(id), MonitorsRepo, monitors)
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentProject, (project) => paginated(urlParams, (window) => monitors.list(project.id, window))))
      .handle("create", ({ payload }) =>
        Effect.flatMap(CurrentProject, (project) => monitors.create(project.id, payload)).pipe(Effect.map((data) => ({ data }))))
      .handle("get", ({ path }) => Effect.map(find(path.monitor), (data) => ({ data })))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(find(path.monitor), (monitor) => monitors.update(monitor.id, payload)).pipe(Effect.map((data) => ({ data }))))
      .handle("delete", ({ path }) => Effect.flatMap(find(path.monitor), (monitor) => monitors.delete(monitor.id)))
  }))
