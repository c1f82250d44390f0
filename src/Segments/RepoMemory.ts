import { Effect, Layer } from "effect"
import * as ProjectTable from "../Memory/ProjectTable.ts"
import { MemoryStore, type SegmentRow } from "../Memory/Store.ts"
import { type NewSegment, SegmentsRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  SegmentsRepo,
  Effect.map(MemoryStore, (db) => ProjectTable.make<SegmentRow, NewSegment>(db, "segments", "Segment", { remove: (id) => db.deleteSegment(id) }))
)
