import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { type FieldErrors, orNotFound, ValidationError } from "../Domain/Errors.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { paginated } from "../Http/Responses.ts"
import { SegmentsRepo } from "../Segments/Repo.ts"
import { BrandsRepo } from "./Repo.ts"

/** Brands a project may have: detection reads them all for every answer (docs/api.md, "Limits"). */
export const MAX_BRANDS = 1000

export const BrandsLive = HttpApiBuilder.group(Api, "brands", (handlers) =>
  Effect.gen(function*() {
    const brands = yield* BrandsRepo
    const segments = yield* SegmentsRepo

    /**
     * The segments of a body must be the project's own: a foreign one is a 422 naming `segment_ids.<index>`,
     * checked before the path resource (validation comes first in the order of checks).
     */
    const checkSegments = (projectId: number, segmentIds: ReadonlyArray<number> | undefined) =>
      Effect.gen(function*() {
        if (segmentIds === undefined || segmentIds.length === 0) return
        const known = new Set(yield* segments.existing(projectId, segmentIds))
        const errors: Record<string, Array<string>> = {}
        segmentIds.forEach((id, index) => {
          if (!known.has(id)) errors[`segment_ids.${index}`] = [`The selected segment_ids.${index} is invalid.`]
        })
        if (Object.keys(errors).length > 0) return yield* new ValidationError({ errors: errors as FieldErrors })
      })

    const findIn = (projectId: number, id: number) =>
      brands.find(projectId, id).pipe(
        orNotFound("Brand")
      )

    const findSegment = (projectId: number, id: number) =>
      segments.find(projectId, id).pipe(
        orNotFound("Segment")
      )

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentProject, (project) => paginated(urlParams, (window) => brands.list(project.id, window))))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          yield* checkSegments(project.id, payload.segment_ids)
          const { total } = yield* brands.list(project.id, { limit: 1, offset: 0 })
          if (total >= MAX_BRANDS) {
            return yield* ValidationError.field("brands", `The project already has ${MAX_BRANDS} brands, the most it may have.`)
          }
          return { data: yield* brands.create(project.id, payload) }
        }))
      .handle("get", ({ path }) => Effect.flatMap(CurrentProject, (project) => findIn(project.id, path.brand)).pipe(Effect.map((data) => ({ data }))))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          yield* checkSegments(project.id, payload.segment_ids)
          const brand = yield* findIn(project.id, path.brand)
          return { data: yield* brands.update(brand.id, payload) }
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          const brand = yield* findIn(project.id, path.brand)
          yield* brands.delete(brand.id)
        }))
      .handle("attachSegment", ({ path }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          const brand = yield* findIn(project.id, path.brand)
          const segment = yield* findSegment(project.id, path.segment)
          return { data: yield* brands.attachSegment(brand.id, segment.id) }
        }))
      .handle("detachSegment", ({ path }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          const brand = yield* findIn(project.id, path.brand)
          const segment = yield* findSegment(project.id, path.segment)
          return { data: yield* brands.detachSegment(brand.id, segment.id) }
        }))
  }))
