import { Context, Effect, Layer } from "effect"
import * as ProjectTable from "../Database/ProjectTable.ts"
import { Segment } from "../Domain/Brand.ts"
import * as MemoryProjectTable from "../Memory/ProjectTable.ts"
import { MemoryStore, type SegmentRow } from "../Memory/Store.ts"

export interface NewSegment {
  readonly name: string
}

/** The project's segments; deleting one detaches it from its brands, the brands stay. */
export class SegmentsRepo extends Context.Tag("SegmentsRepo")<SegmentsRepo, ProjectTable.ProjectTable<Segment, NewSegment>>() {}

export const layerSql = Layer.effect(SegmentsRepo, ProjectTable.make<Segment, NewSegment>({ table: "segments", resource: "Segment", row: Segment }))

/** The same on the in-memory store, whose cascade detaches a deleted segment from its brands. */
export const layerMemory = Layer.effect(
  SegmentsRepo,
  Effect.map(MemoryStore, (db) => MemoryProjectTable.make<SegmentRow, NewSegment>(db, "segments", "Segment", { remove: (id) => db.deleteSegment(id) }))
)
