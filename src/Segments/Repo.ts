import { Context, Layer } from "effect"
import * as ProjectTable from "../Database/ProjectTable.ts"
import { Segment } from "../Domain/Brand.ts"

export interface NewSegment {
  readonly name: string
}

/** The project's segments; deleting one detaches it from its brands, the brands stay. */
export class SegmentsRepo extends Context.Tag("SegmentsRepo")<SegmentsRepo, ProjectTable.ProjectTable<Segment, NewSegment>>() {}

export const layerSql = Layer.effect(SegmentsRepo, ProjectTable.make<Segment, NewSegment>({ table: "segments", resource: "Segment", row: Segment }))
