import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import type { Monitor, Schedule } from "../Domain/Monitor.ts"
import { firstOrNotFound, type NotFound } from "../Domain/Errors.ts"
import type { Page, Window } from "../Domain/Page.ts"
import type { Platform } from "../Domain/Platform.ts"

export interface NewMonitor {
  readonly name: string
  readonly country: string
  readonly platforms: ReadonlyArray<Platform>
  readonly schedule: Schedule
  readonly active: boolean
}

export type MonitorPatch = { readonly [K in keyof NewMonitor]?: NewMonitor[K] | undefined }

export class MonitorsRepo extends Context.Tag("MonitorsRepo")<MonitorsRepo, {
  readonly list: (projectId: number, window: Window) => Effect.Effect<Page<Monitor>, SqlError.SqlError>
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<Monitor>, SqlError.SqlError>
  /** The monitors of these ids in the project, in one query. */
  readonly findMany: (projectId: number, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<Monitor>, SqlError.SqlError>
  readonly create: (projectId: number, monitor: NewMonitor) => Effect.Effect<Monitor, SqlError.SqlError>
  readonly update: (id: number, patch: MonitorPatch) => Effect.Effect<Monitor, NotFound | SqlError.SqlError>
  /** Deletes the monitor with its prompts and their responses, in one transaction. */
  readonly delete: (id: number) => Effect.Effect<void, SqlError.SqlError>
}>() {}

export const layerSql = Layer.effect(
  MonitorsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, project_id, name, country, platforms, schedule, active, created_at, updated_at`
    return MonitorsRepo.of({
      list: (projectId, window) =>
        Effect.all({
          rows: sql<Monitor>`
            SELECT ${columns} FROM monitors WHERE project_id = ${projectId}
            ORDER BY id LIMIT ${window.limit} OFFSET ${window.offset}`,
          total: sql<{ total: number }>`SELECT count(*) AS total FROM monitors WHERE project_id = ${projectId}`.pipe(
            Effect.map((rows) => rows[0]!.total)
          )
        }),
      find: (projectId, id) =>
        sql<Monitor>`SELECT ${columns} FROM monitors WHERE id = ${id} AND project_id = ${projectId}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]))
        ),
      findMany: (projectId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<Monitor>`SELECT ${columns} FROM monitors WHERE project_id = ${projectId} AND id IN ${sql.in(ids)}`,
      create: (projectId, monitor) =>
        sql<Monitor>`INSERT INTO monitors ${sql.insert({ project_id: projectId, ...monitor })} RETURNING ${columns}`.pipe(
          Effect.map((rows) => rows[0]!)
        ),
      update: (id, patch) => {
        const changes = changesOf(patch)
        const rows = isEmpty(changes)
          ? sql<Monitor>`SELECT ${columns} FROM monitors WHERE id = ${id}`
          : sql<Monitor>`UPDATE monitors SET ${sql.update(changes)}, updated_at = now() WHERE id = ${id} RETURNING ${columns}`
        return Effect.flatMap(rows, firstOrNotFound("Monitor"))
      },
      delete: (id) => sql`DELETE FROM monitors WHERE id = ${id}`.pipe(sql.withTransaction, Effect.asVoid)
    })
  })
)
