import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { projectResourceHandlers } from "../Http/ProjectResourceHandlers.ts"
import { layerMemory, layerSql, SegmentsRepo } from "./Repo.ts"
import { SegmentsApi } from "./Api.ts"
import * as Area from "../Area.ts"

export const SegmentsLive = ApiGroup.group(SegmentsApi, (handlers) =>
  Effect.gen(function*() {
    const segments = yield* SegmentsRepo
    const resource = projectResourceHandlers(segments, "Segment")
    return handlers
      .handle("list", resource.list)
      .handle("get", ({ path }) => resource.get(path.segment))
      .handle("delete", ({ path }) => resource.delete(path.segment))
      .handle("create", ({ payload }) => resource.create(payload))
      .handle("update", ({ path, payload }) => resource.update(path.segment, payload))
  }))

/** The project's segments. */
export const SegmentsArea = Area.make({
  groups: [SegmentsApi],
  handlers: SegmentsLive,
  repositories: [Area.repository(SegmentsRepo, { sql: layerSql, memory: layerMemory })],
  abilities: ["segments:read", "segments:write"]
})
