import { Effect, Layer } from "effect"
import { MAX_BRANDS, type StoredBrand } from "../Domain/Brand.ts"
import type { NotFound } from "../Domain/Errors.ts"
import * as ProjectTable from "../Memory/ProjectTable.ts"
import { type BrandRow, MemoryStore } from "../Memory/Store.ts"
import { BrandLimitReached, BrandsRepo, type NewBrand } from "./Repo.ts"

export const layerMemory = Layer.effect(
  BrandsRepo,
  Effect.map(MemoryStore, (db) => {
    const segmentIdsOf = (brandId: number) =>
      [...db.brandSegments].flatMap((key) => {
        const [brand, segment] = key.split(":").map(Number)
        return brand === brandId ? [segment!] : []
      }).sort((a, b) => a - b)
    const replaceSegments = (brandId: number, segmentIds: ReadonlyArray<number>) => {
      for (const key of db.brandSegments) if (key.startsWith(`${brandId}:`)) db.brandSegments.delete(key)
      // A segment deleted since the request checked it is left out, as in SQL.
      for (const segmentId of segmentIds) if (db.segments.has(segmentId)) db.brandSegments.add(`${brandId}:${segmentId}`)
    }
    const table = ProjectTable.make<BrandRow, Omit<NewBrand, "segment_ids">, StoredBrand>(db, "brands", "Brand", {
      view: (row) => ({ ...row, segment_ids: segmentIdsOf(row.id) }),
      remove: (id) => db.deleteBrand(id)
    })
    const withSegments = ProjectTable.withIdSet(db, "brands", table, { field: "segment_ids", replace: replaceSegments })
    return BrandsRepo.of({
      ...table,
      ...withSegments,
      create: (projectId, values) =>
        Effect.suspend((): Effect.Effect<StoredBrand, NotFound | BrandLimitReached> =>
          [...db.brands.values()].filter((brand) => brand.project_id === projectId).length >= MAX_BRANDS
            ? Effect.fail(new BrandLimitReached())
            : withSegments.create(projectId, values)
        ),
      attachSegment: (brandId, segmentId) =>
        Effect.suspend(() => {
          if (db.brands.has(brandId) && db.segments.has(segmentId)) db.brandSegments.add(`${brandId}:${segmentId}`)
          return table.get(brandId)
        }),
      detachSegment: (brandId, segmentId) => Effect.suspend(() => (db.brandSegments.delete(`${brandId}:${segmentId}`), table.get(brandId)))
    })
  })
)
