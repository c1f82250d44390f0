import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { orNotFound } from "../Domain/Errors.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { paginated } from "../Http/Responses.ts"
import { SegmentsRepo } from "./Repo.ts"

export const SegmentsLive = HttpApiBuilder.group(Api, "segments", (handlers) =>
  Effect.gen(function*() {
    const segments = yield* SegmentsRepo
    const find = (id: number) =>
      CurrentProject.pipe(
        Effect.flatMap((project) => segments.find(project.id, id)),
        orNotFound("Segment")
      )
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentProject, (project) => paginated(urlParams, (window) => segments.list(project.id, window))))
      .handle("create", ({ payload }) =>
        Effect.flatMap(CurrentProject, (project) => segments.create(project.id, payload)).pipe(Effect.map((data) => ({ data }))))
      .handle("get", ({ path }) => Effect.map(find(path.segment), (data) => ({ data })))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(find(path.segment), (segment) => segments.update(segment.id, payload)).pipe(Effect.map((data) => ({ data }))))
      .handle("delete", ({ path }) => Effect.flatMap(find(path.segment), (segment) => segments.delete(segment.id)))
  }))
