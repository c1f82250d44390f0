import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import type { Segment } from "../Domain/Brand.ts"
import { firstOrNotFound, type NotFound } from "../Domain/Errors.ts"
import type { Page, Window } from "../Domain/Page.ts"

export interface NewSegment {
  readonly name: string
}

export type SegmentPatch = { readonly [K in keyof NewSegment]?: NewSegment[K] | undefined }

export class SegmentsRepo extends Context.Tag("SegmentsRepo")<SegmentsRepo, {
  readonly list: (projectId: number, window: Window) => Effect.Effect<Page<Segment>, SqlError.SqlError>
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<Segment>, SqlError.SqlError>
  /** The given ids that are segments of the project. */
  readonly existing: (projectId: number, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<number>, SqlError.SqlError>
  readonly create: (projectId: number, segment: NewSegment) => Effect.Effect<Segment, SqlError.SqlError>
  readonly update: (id: number, patch: SegmentPatch) => Effect.Effect<Segment, NotFound | SqlError.SqlError>
  /** Deletes the segment and its brand attachments; brands stay. */
  readonly delete: (id: number) => Effect.Effect<void, SqlError.SqlError>
}>() {}

export const layerSql = Layer.effect(
  SegmentsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, project_id, name, created_at, updated_at`
    return SegmentsRepo.of({
      list: (projectId, window) =>
        Effect.all({
          rows: sql<Segment>`
            SELECT ${columns} FROM segments WHERE project_id = ${projectId}
            ORDER BY id LIMIT ${window.limit} OFFSET ${window.offset}`,
          total: sql<{ total: number }>`SELECT count(*) AS total FROM segments WHERE project_id = ${projectId}`.pipe(
            Effect.map((rows) => rows[0]!.total)
          )
        }),
      find: (projectId, id) =>
        sql<Segment>`SELECT ${columns} FROM segments WHERE id = ${id} AND project_id = ${projectId}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]))
        ),
      existing: (projectId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<{ id: number }>`SELECT id FROM segments WHERE project_id = ${projectId} AND id IN ${sql.in(ids)}`.pipe(
            Effect.map((rows) => rows.map((row) => row.id))
          ),
      create: (projectId, segment) =>
        sql<Segment>`INSERT INTO segments ${sql.insert({ project_id: projectId, ...segment })} RETURNING ${columns}`.pipe(
          Effect.map((rows) => rows[0]!)
        ),
      update: (id, patch) => {
        const changes = changesOf(patch)
        const rows = isEmpty(changes)
          ? sql<Segment>`SELECT ${columns} FROM segments WHERE id = ${id}`
          : sql<Segment>`UPDATE segments SET ${sql.update(changes)}, updated_at = now() WHERE id = ${id} RETURNING ${columns}`
        return Effect.flatMap(rows, firstOrNotFound("Segment"))
      },
      // brand_segments rows go with it (ON DELETE CASCADE); the brands stay.
      delete: (id) => sql`DELETE FROM segments WHERE id = ${id}`.pipe(sql.withTransaction, Effect.asVoid)
    })
  })
)
