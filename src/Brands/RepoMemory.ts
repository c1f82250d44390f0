import { Effect, Layer, Option } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import type { Brand } from "../Domain/Brand.ts"
import { type BrandRow, byId, MemoryStore, pageOf } from "../Memory/Store.ts"
import { BrandsRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  BrandsRepo,
  Effect.map(MemoryStore, (db) => {
    const view = (row: BrandRow): Brand => ({
      ...row,
      segment_ids: [...db.brandSegments].flatMap((key) => {
        const [brandId, segmentId] = key.split(":").map(Number)
        return brandId === row.id ? [segmentId!] : []
      }).sort((a, b) => a - b)
    })
    const ofProject = (projectId: number) => byId(db.brands.values()).filter((brand) => brand.project_id === projectId)
    const replaceSegments = (brandId: number, segmentIds: ReadonlyArray<number>) => {
      for (const key of db.brandSegments) if (key.startsWith(`${brandId}:`)) db.brandSegments.delete(key)
      for (const segmentId of segmentIds) db.brandSegments.add(`${brandId}:${segmentId}`)
    }
    return BrandsRepo.of({
      list: (projectId, window) =>
        Effect.sync(() => pageOf(ofProject(projectId), window)).pipe(Effect.map((page) => ({ ...page, rows: page.rows.map(view) }))),
      find: (projectId, id) =>
        Effect.sync(() => Option.fromNullable(ofProject(projectId).find((brand) => brand.id === id)).pipe(Option.map(view))),
      findMany: (projectId, ids) => Effect.sync(() => ofProject(projectId).filter((brand) => ids.includes(brand.id)).map(view)),
      create: (projectId, input) =>
        Effect.sync(() => {
          const { segment_ids, ...fields } = input
          const now = db.now()
          const row: BrandRow = { id: db.nextId("brands"), project_id: projectId, ...fields, created_at: now, updated_at: now }
          db.brands.set(row.id, row)
          replaceSegments(row.id, segment_ids)
          return view(row)
        }),
      update: (id, patch) =>
        Effect.sync(() => {
          const { segment_ids, ...fields } = patch
          const changes = changesOf(fields)
          const current = db.brands.get(id)!
          if (isEmpty(changes) && segment_ids === undefined) return view(current)
          const updated: BrandRow = { ...current, ...changes, updated_at: db.now() }
          db.brands.set(id, updated)
          if (segment_ids !== undefined) replaceSegments(id, segment_ids)
          return view(updated)
        }),
      delete: (id) => Effect.sync(() => db.deleteBrand(id)),
      attachSegment: (brandId, segmentId) =>
        Effect.sync(() => {
          db.brandSegments.add(`${brandId}:${segmentId}`)
          return view(db.brands.get(brandId)!)
        }),
      detachSegment: (brandId, segmentId) =>
        Effect.sync(() => {
          db.brandSegments.delete(`${brandId}:${segmentId}`)
          return view(db.brands.get(brandId)!)
        })
    })
  })
)
