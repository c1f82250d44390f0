import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import type { Page, Window } from "../Domain/Page.ts"
import type { BrandMention } from "../Domain/Response.ts"

export const sortColumns = ["created_at", "updated_at", "position", "sentiment_score", "id"] as const
export type SortColumn = (typeof sortColumns)[number]

export interface MentionFilter {
  readonly responseId?: number | undefined
  readonly brandId?: number | undefined
}

/** The order of a list; `id` in the same direction breaks ties, so pages never overlap. */
export interface MentionOrder {
  readonly by: SortColumn
  readonly direction: "asc" | "desc"
}

export class BrandMentionsRepo extends Context.Tag("BrandMentionsRepo")<BrandMentionsRepo, {
  readonly list: (
    projectId: number,
    filter: MentionFilter,
    order: MentionOrder,
    window: Window
  ) => Effect.Effect<Page<BrandMention>, SqlError.SqlError>
}>() {}

export const layerSql = Layer.effect(
  BrandMentionsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return BrandMentionsRepo.of({
      list: (projectId, filter, order, window) => {
        const where = sql.and([
          sql`project_id = ${projectId}`,
          ...(filter.responseId === undefined ? [] : [sql`response_id = ${filter.responseId}`]),
          ...(filter.brandId === undefined ? [] : [sql`brand_id = ${filter.brandId}`])
        ])
        // The column and direction come from closed lists, never from the request's text.
        const direction = sql.literal(order.direction === "asc" ? "ASC" : "DESC")
        const orderBy = order.by === "id" ? sql`id ${direction}` : sql`${sql(order.by)} ${direction}, id ${direction}`
        return Effect.all({
          rows: sql<BrandMention>`
            SELECT id, response_id, brand_id, position, sentiment_score, created_at, updated_at
            FROM brand_mentions WHERE ${where}
            ORDER BY ${orderBy} LIMIT ${window.limit} OFFSET ${window.offset}`,
          total: sql<{ total: number }>`SELECT count(*) AS total FROM brand_mentions WHERE ${where}`.pipe(
            Effect.map((rows) => rows[0]!.total)
          )
        })
      }
    })
  })
)
