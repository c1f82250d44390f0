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
      [...db.table("brand_segments")].flatMap((key) => {
        const [brand, segment] = key.split(":").map(Number)
        return brand === brandId ? [segment!] : []
      }).sort((a, b) => a - b)
    const replaceSegments = (brandId: number, segmentIds: ReadonlyArray<number>) => {
      for (const key of db.table("brand_segments")) if (key.startsWith(`${brandId}:`)) db.table("brand_segments").delete(key)
      // A segment deleted since the request checked it is left out, as in SQL.
      for (const segmentId of segmentIds) if (db.table("segments").has(segmentId)) db.table("brand_segments").add(`${brandId}:${segmentId}`)
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
          [...db.table("brands").values()].filter((brand) => brand.project_id === projectId).length >= MAX_BRANDS
            ? Effect.fail(new BrandLimitReached())
            : withSegments.create(projectId, values)
        ),
      attachSegment: (brandId, segmentId) =>
        Effect.suspend(() => {
          if (db.table("brands").has(brandId) && db.table("segments").has(segmentId)) db.table("brand_segments").add(`${brandId}:${segmentId}`)
          return table.get(brandId)
        }),
      detachSegment: (brandId, segmentId) => Effect.suspend(() => (db.table("brand_segments").delete(`${brandId}:${segmentId}`), table.get(brandId)))
    })
  })
)
