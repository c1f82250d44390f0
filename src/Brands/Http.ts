import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { brandOf, MAX_BRANDS } from "../Domain/Brand.ts"
import { ValidationError } from "../Domain/Errors.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { checkReferences, projectResourceHandlers } from "../Http/ProjectResourceHandlers.ts"
import { SegmentsRepo } from "../Segments/Repo.ts"
import { BrandsRepo } from "./Repo.ts"
import { BrandsApi } from "./Api.ts"
import * as Area from "../Area.ts"
import * as BrandsMemory from "./RepoMemory.ts"
import * as BrandsSql from "./Repo.ts"

export const BrandsLive = ApiGroup.group(BrandsApi, (handlers) =>
  Effect.gen(function*() {
    const brands = yield* BrandsRepo
    const segments = yield* SegmentsRepo
    const resource = projectResourceHandlers(brands, "Brand", brandOf)
    const segment = projectResourceHandlers(segments, "Segment")

    /** The segments of a body must be the project's own (422 `segment_ids.<index>`). */
    const checkSegments = (segmentIds: ReadonlyArray<number> | undefined) =>
      Effect.flatMap(CurrentProject, (project) =>
        checkReferences([{ field: "segment_ids", ids: segmentIds, existing: (ids) => segments.existing(project.id, ids) }]))

    /** The brand and the segment of the path, each in the active project. */
    const pathPair = (path: { readonly brand: number; readonly segment: number }) =>
      Effect.all([resource.find(path.brand), segment.find(path.segment)])

    return handlers
      .handle("list", resource.list)
      .handle("get", ({ path }) => resource.get(path.brand))
      .handle("delete", ({ path }) => resource.delete(path.brand))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          yield* checkSegments(payload.segment_ids)
          return yield* resource.create(payload).pipe(
            Effect.catchTag("BrandLimitReached", () =>
              ValidationError.field("brands", `The project already has ${MAX_BRANDS} brands, the most it may have.`))
          )
        }))
      .handle("update", ({ path, payload }) => Effect.zipRight(checkSegments(payload.segment_ids), resource.update(path.brand, payload)))
      .handle("attachSegment", ({ path }) =>
        resource.data(Effect.flatMap(pathPair(path), ([brand, segment]) => brands.attachSegment(brand.id, segment.id))))
      .handle("detachSegment", ({ path }) =>
        resource.data(Effect.flatMap(pathPair(path), ([brand, segment]) => brands.detachSegment(brand.id, segment.id))))
  }))

/** The project's brands and their segments. */
export const BrandsArea = Area.make({
  groups: [BrandsApi],
  handlers: BrandsLive,
  repositories: [Area.repository(BrandsRepo, { sql: BrandsSql.layerSql, memory: BrandsMemory.layerMemory })],
  abilities: ["brands:read", "brands:write"]
})
