import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import type { Brand, Classification } from "../Domain/Brand.ts"
import { firstOrNotFound, type NotFound } from "../Domain/Errors.ts"
import type { Page, Window } from "../Domain/Page.ts"

export interface NewBrand {
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  readonly domains: ReadonlyArray<string>
  readonly classification: Classification
  /** Segment ids of the same project, already checked. */
  readonly segment_ids: ReadonlyArray<number>
}

/** When given, `segment_ids` is the whole new segment set. */
export type BrandPatch = { readonly [K in keyof NewBrand]?: NewBrand[K] | undefined }

export class BrandsRepo extends Context.Tag("BrandsRepo")<BrandsRepo, {
  readonly list: (projectId: number, window: Window) => Effect.Effect<Page<Brand>, SqlError.SqlError>
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<Brand>, SqlError.SqlError>
  /** The brands of these ids in the project, by id, with their segment ids, in two queries. */
  readonly findMany: (projectId: number, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<Brand>, SqlError.SqlError>
  readonly create: (projectId: number, brand: NewBrand) => Effect.Effect<Brand, NotFound | SqlError.SqlError>
  readonly update: (id: number, patch: BrandPatch) => Effect.Effect<Brand, NotFound | SqlError.SqlError>
  /**
   * Deletes the brand with its mentions and segment attachments, in one transaction; a project whose own
   * brand it was is left without one.
   */
  readonly delete: (id: number) => Effect.Effect<void, SqlError.SqlError>
  /** Idempotent: attaching an attached segment (or detaching a detached one) changes nothing. */
  readonly attachSegment: (brandId: number, segmentId: number) => Effect.Effect<Brand, NotFound | SqlError.SqlError>
  readonly detachSegment: (brandId: number, segmentId: number) => Effect.Effect<Brand, NotFound | SqlError.SqlError>
}>() {}

type BrandRow = Omit<Brand, "segment_ids">

export const layerSql = Layer.effect(
  BrandsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, project_id, name, aliases, domains, classification, created_at, updated_at`

    // The segment ids of a whole page in one query, never one per row.
    const withSegments = (rows: ReadonlyArray<BrandRow>) =>
      rows.length === 0
        ? Effect.succeed<Array<Brand>>([])
        : sql<{ brand_id: number; segment_id: number }>`
            SELECT brand_id, segment_id FROM brand_segments
            WHERE brand_id IN ${sql.in(rows.map((row) => row.id))}
            ORDER BY segment_id`.pipe(
          Effect.map((links) => {
            const segmentsByBrand = new Map<number, Array<number>>()
            for (const { brand_id, segment_id } of links) {
              const ids = segmentsByBrand.get(brand_id) ?? []
              ids.push(segment_id)
              segmentsByBrand.set(brand_id, ids)
            }
            return rows.map((row) => ({ ...row, segment_ids: segmentsByBrand.get(row.id) ?? [] }))
          })
        )

    const byId = (id: number) =>
      sql<BrandRow>`SELECT ${columns} FROM brands WHERE id = ${id}`.pipe(
        Effect.flatMap(withSegments),
        Effect.flatMap(firstOrNotFound("Brand"))
      )

    /**
     * Two replacements of one brand's segments run one after the other (the brand's row is locked
     * first), so the second deletes what the first inserted instead of colliding with it.
     */
    const replaceSegments = (brandId: number, segmentIds: ReadonlyArray<number>) =>
      Effect.gen(function*() {
        yield* sql`SELECT id FROM brands WHERE id = ${brandId} FOR NO KEY UPDATE`
        yield* sql`DELETE FROM brand_segments WHERE brand_id = ${brandId}`
        if (segmentIds.length > 0) {
          yield* sql`INSERT INTO brand_segments ${
            sql.insert([...new Set(segmentIds)].sort((a, b) => a - b).map((segment_id) => ({ brand_id: brandId, segment_id })))
          } ON CONFLICT DO NOTHING`
        }
      })

    return BrandsRepo.of({
      list: (projectId, window) =>
        Effect.all({
          rows: sql<BrandRow>`
            SELECT ${columns} FROM brands WHERE project_id = ${projectId}
            ORDER BY id LIMIT ${window.limit} OFFSET ${window.offset}`.pipe(Effect.flatMap(withSegments)),
          total: sql<{ total: number }>`SELECT count(*) AS total FROM brands WHERE project_id = ${projectId}`.pipe(
            Effect.map((rows) => rows[0]!.total)
          )
        }),
      find: (projectId, id) =>
        sql<BrandRow>`SELECT ${columns} FROM brands WHERE id = ${id} AND project_id = ${projectId}`.pipe(
          Effect.flatMap(withSegments),
          Effect.map((brands) => Option.fromNullable(brands[0]))
        ),
      findMany: (projectId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<BrandRow>`SELECT ${columns} FROM brands WHERE project_id = ${projectId} AND id IN ${sql.in(ids)} ORDER BY id`.pipe(
            Effect.flatMap(withSegments)
          ),
      create: (projectId, brand) =>
        Effect.gen(function*() {
          const { segment_ids, ...fields } = brand
          const [row] = yield* sql<{ id: number }>`INSERT INTO brands ${sql.insert({ project_id: projectId, ...fields })} RETURNING id`
          yield* replaceSegments(row!.id, segment_ids)
          return yield* byId(row!.id)
        }).pipe(sql.withTransaction),
      update: (id, patch) =>
        Effect.gen(function*() {
          const { segment_ids, ...fields } = patch
          const changes = changesOf(fields)
          if (!isEmpty(changes)) {
            yield* sql`UPDATE brands SET ${sql.update(changes)}, updated_at = now() WHERE id = ${id}`
          } else if (segment_ids !== undefined) {
            yield* sql`UPDATE brands SET updated_at = now() WHERE id = ${id}`
          }
          if (segment_ids !== undefined) yield* replaceSegments(id, segment_ids)
          return yield* byId(id)
        }).pipe(sql.withTransaction),
      // Mentions and segment attachments go with it (ON DELETE CASCADE); projects.brand_id becomes null (ON DELETE SET NULL).
      delete: (id) => sql`DELETE FROM brands WHERE id = ${id}`.pipe(sql.withTransaction, Effect.asVoid),
      attachSegment: (brandId, segmentId) =>
        sql`INSERT INTO brand_segments (brand_id, segment_id) VALUES (${brandId}, ${segmentId}) ON CONFLICT DO NOTHING`.pipe(
          Effect.zipRight(byId(brandId))
        ),
      detachSegment: (brandId, segmentId) =>
        sql`DELETE FROM brand_segments WHERE brand_id = ${brandId} AND segment_id = ${segmentId}`.pipe(Effect.zipRight(byId(brandId)))
    })
  })
)
