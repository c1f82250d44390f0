import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Data, Effect, Layer, Schema } from "effect"
import { lockBrandCap, lockForWriting } from "../Database/ProjectLocks.ts"
import * as ProjectTable from "../Database/ProjectTable.ts"
import { Count, orDefect } from "../Database/Rows.ts"
import { type Classification, MAX_BRANDS, StoredBrand } from "../Domain/Brand.ts"
import type { NotFound } from "../Domain/Errors.ts"
import { KeyCache } from "../ApiKeys/KeyCache.ts"

/** The project has `MAX_BRANDS` brands already. */
export class BrandLimitReached extends Data.TaggedError("BrandLimitReached")<{}> {}

export interface NewBrand {
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  readonly domains: ReadonlyArray<string>
  readonly classification: Classification
  /** Segment ids of the same project, already checked: the brand's whole segment set. */
  readonly segment_ids: ReadonlyArray<number>
}

/**
 * The project's brands, each with its segment ids. Creating one past `MAX_BRANDS` fails, exactly,
 * whatever creations run at once. Deleting one deletes its mentions and segment attachments, and a
 * project whose own brand it was is left without one.
 */
export class BrandsRepo extends Context.Tag("BrandsRepo")<BrandsRepo, Omit<ProjectTable.ProjectTable<StoredBrand, NewBrand>, "create"> & {
  readonly create: (projectId: number, values: NewBrand) => Effect.Effect<StoredBrand, NotFound | BrandLimitReached>
  /** Idempotent: attaching an attached segment (or detaching a detached one) changes nothing. */
  readonly attachSegment: (brandId: number, segmentId: number) => Effect.Effect<StoredBrand, NotFound>
  readonly detachSegment: (brandId: number, segmentId: number) => Effect.Effect<StoredBrand, NotFound>
}>() {}

export const layerSql = Layer.effect(
  BrandsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const table = yield* ProjectTable.make<StoredBrand, Omit<NewBrand, "segment_ids">>({
      table: "brands",
      resource: "Brand",
      row: StoredBrand,
      // int8[]: numbers (Database/PgTypes.ts).
      computed: { segment_ids: "ARRAY(SELECT s.segment_id FROM brand_segments s WHERE s.brand_id = brands.id ORDER BY s.segment_id)" }
    })

    /**
     * Two replacements of one brand's segments run one after the other (the brand's row is locked
     * first), so the second deletes what the first inserted instead of colliding with it. The segments
     * are then locked `FOR KEY SHARE`, parents before the attachments (Database/ProjectLocks.ts): one
     * deleted since the request checked it is left out, as its deletion would have detached it.
     */
    const replaceSegments = (brandId: number, segmentIds: ReadonlyArray<number>) =>
      Effect.gen(function*() {
        yield* sql`SELECT id FROM brands WHERE id = ${brandId} FOR NO KEY UPDATE`
        const wanted = [...new Set(segmentIds)].sort((a, b) => a - b)
        const present = wanted.length === 0
          ? []
          : yield* sql<{ id: number }>`SELECT id FROM segments WHERE id = ANY(${wanted}::bigint[]) ORDER BY id FOR KEY SHARE`
        yield* sql`DELETE FROM brand_segments WHERE brand_id = ${brandId}`
        if (present.length > 0) {
          yield* sql`INSERT INTO brand_segments ${sql.insert(present.map((row) => ({ brand_id: brandId, segment_id: row.id })))} ON CONFLICT DO NOTHING`
        }
      })

    const withSegments = yield* ProjectTable.withIdSet(table, { table: "brands", field: "segment_ids", rollups: false, replace: replaceSegments })

    const countOf = SqlSchema.single({
      Request: Schema.Number,
      Result: Count,
      execute: (projectId) => sql`SELECT count(*) AS total FROM brands WHERE project_id = ${projectId}`
    })

    // Deleting a brand sets its project's `brand_id` to NULL: the project a cached key carries changes.
    const { forget } = yield* KeyCache

    return BrandsRepo.of({
      ...table,
      ...withSegments,
      // The count and the insert under the project's brand cap lock (Database/ProjectLocks.ts): creations
      // of one project's brands run one at a time, so the cap holds exactly.
      create: (projectId, values) =>
        Effect.gen(function*() {
          yield* lockForWriting(sql, projectId)
          yield* lockBrandCap(sql, projectId)
          const { total } = yield* countOf(projectId)
          if (total >= MAX_BRANDS) return yield* new BrandLimitReached()
          return yield* withSegments.create(projectId, values)
        }).pipe(sql.withTransaction, orDefect),
      delete: (id) => table.delete(id).pipe(Effect.ensuring(Effect.sync(forget))),
      // Both rows locked `FOR KEY SHARE` as they are read: a segment deleted meanwhile is detached already.
      attachSegment: (brandId, segmentId) =>
        sql`
          INSERT INTO brand_segments (brand_id, segment_id)
          SELECT b.id, s.id FROM brands b, segments s WHERE b.id = ${brandId} AND s.id = ${segmentId} FOR KEY SHARE
          ON CONFLICT DO NOTHING`.pipe(
          orDefect,
          Effect.zipRight(table.get(brandId))
        ),
      detachSegment: (brandId, segmentId) =>
        sql`DELETE FROM brand_segments WHERE brand_id = ${brandId} AND segment_id = ${segmentId}`.pipe(
          orDefect,
          Effect.zipRight(table.get(brandId))
        )
    })
  })
)
