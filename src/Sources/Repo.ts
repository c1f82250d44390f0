import { SqlClient, SqlSchema } from "@effect/sql"
import { Array as Arr, Context, Effect, Layer, type Option, Schema } from "effect"
import { findPage, orDefect, rowOf } from "../Database/Rows.ts"
import type { Page, Window } from "../Domain/Page.ts"
import { Source, SourceUrl } from "../Domain/Response.ts"

/** The domains and exact URLs cited in a project's responses; created by analysis, read here. */
export class SourcesRepo extends Context.Tag("SourcesRepo")<SourcesRepo, {
  readonly list: (projectId: number, window: Window) => Effect.Effect<Page<Source>>
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<Source>>
  readonly listUrls: (
    projectId: number,
    filter: { readonly sourceId?: number | undefined },
    window: Window
  ) => Effect.Effect<Page<SourceUrl>>
}>() {}

const SourceRow = rowOf(Source)
const SourceUrlRow = rowOf(SourceUrl)

export const layerSql = Layer.effect(
  SourcesRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const sourceColumns = sql`id, domain, created_at`
    const byId = SqlSchema.findAll({
      Request: Schema.Struct({ projectId: Schema.Number, id: Schema.Number }),
      Result: SourceRow,
      execute: ({ id, projectId }) => sql`SELECT ${sourceColumns} FROM sources WHERE id = ${id} AND project_id = ${projectId}`
    })
    return SourcesRepo.of({
      list: (projectId, window) =>
        findPage(sql, { Result: SourceRow, columns: sourceColumns, from: sql`sources WHERE project_id = ${projectId}`, orderBy: sql`id` }, window),
      find: (projectId, id) => byId({ projectId, id }).pipe(Effect.map(Arr.head), orDefect),
      listUrls: (projectId, filter, window) =>
        findPage(sql, {
          Result: SourceUrlRow,
          columns: sql`id, source_id, url, created_at`,
          from: filter.sourceId === undefined
            ? sql`source_urls WHERE project_id = ${projectId}`
            : sql`source_urls WHERE project_id = ${projectId} AND source_id = ${filter.sourceId}`,
          orderBy: sql`id`
        }, window)
    })
  })
)
