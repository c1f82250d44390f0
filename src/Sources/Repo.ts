import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import type { Page, Window } from "../Domain/Page.ts"
import type { Source, SourceUrl } from "../Domain/Response.ts"

/** The domains and exact URLs cited in a project's responses; created by analysis, read here. */
export class SourcesRepo extends Context.Tag("SourcesRepo")<SourcesRepo, {
  readonly list: (projectId: number, window: Window) => Effect.Effect<Page<Source>, SqlError.SqlError>
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<Source>, SqlError.SqlError>
  readonly listUrls: (
    projectId: number,
    filter: { readonly sourceId?: number | undefined },
    window: Window
  ) => Effect.Effect<Page<SourceUrl>, SqlError.SqlError>
}>() {}

export const layerSql = Layer.effect(
  SourcesRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SourcesRepo.of({
      list: (projectId, window) =>
        Effect.all({
          rows: sql<Source>`
            SELECT id, domain, created_at FROM sources WHERE project_id = ${projectId}
            ORDER BY id LIMIT ${window.limit} OFFSET ${window.offset}`,
          total: sql<{ total: number }>`SELECT count(*) AS total FROM sources WHERE project_id = ${projectId}`.pipe(
            Effect.map((rows) => rows[0]!.total)
          )
        }),
      find: (projectId, id) =>
        sql<Source>`SELECT id, domain, created_at FROM sources WHERE id = ${id} AND project_id = ${projectId}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]))
        ),
      listUrls: (projectId, filter, window) => {
        const where = filter.sourceId === undefined
          ? sql`project_id = ${projectId}`
          : sql`project_id = ${projectId} AND source_id = ${filter.sourceId}`
        return Effect.all({
          rows: sql<SourceUrl>`
            SELECT id, source_id, url, created_at FROM source_urls WHERE ${where}
            ORDER BY id LIMIT ${window.limit} OFFSET ${window.offset}`,
          total: sql<{ total: number }>`SELECT count(*) AS total FROM source_urls WHERE ${where}`.pipe(
            Effect.map((rows) => rows[0]!.total)
          )
        })
      }
    })
  })
)
