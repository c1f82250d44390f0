import { Effect, Layer } from "effect"
import type { StoredBrand } from "../Domain/Brand.ts"
import * as ProjectTable from "../Memory/ProjectTable.ts"
import { type BrandRow, MemoryStore } from "../Memory/Store.ts"
import { BrandsRepo, type NewBrand } from "./Repo.ts"

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
      for (const segmentId of segmentIds) db.brandSegments.add(`${brandId}:${segmentId}`)
    }
    const table = ProjectTable.make<BrandRow, Omit<NewBrand, "segment_ids">, StoredBrand>(db, "brands", "Brand", {
      view: (row) => ({ ...row, segment_ids: segmentIdsOf(row.id) }),
      remove: (id) => db.deleteBrand(id)
    })
    return BrandsRepo.of({
      ...table,
      ...ProjectTable.withIdSet(db, "brands", table, { field: "segment_ids", replace: replaceSegments }),
      attachSegment: (brandId, segmentId) => Effect.suspend(() => (db.brandSegments.add(`${brandId}:${segmentId}`), table.get(brandId))),
      detachSegment: (brandId, segmentId) => Effect.suspend(() => (db.brandSegments.delete(`${brandId}:${segmentId}`), table.get(brandId)))
    })
  })
)
