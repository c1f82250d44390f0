import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { Api } from "../Api.ts"
import { projectResourceHandlers } from "../Http/ProjectResourceHandlers.ts"
import { SegmentsRepo } from "./Repo.ts"

export const SegmentsLive = ApiGroup.group(Api, "segments", (handlers) =>
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
