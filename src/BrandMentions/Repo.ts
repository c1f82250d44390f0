import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { findKeysetPage } from "../Database/Keyset.ts"
import { findPage, rowOf } from "../Database/Rows.ts"
import type { Key, KeyPart, Keyset, KeysetPage, Page, Window } from "../Domain/Page.ts"
import { responseConditions, type ResponseFilters } from "../Responses/Filters.ts"
import { BrandMention } from "../Domain/Response.ts"

export const sortColumns = ["created_at", "updated_at", "collected_at", "position", "sentiment_score", "id"] as const
export type SortColumn = (typeof sortColumns)[number]

/** By response, by brand, and by their responses' window and filters. */
export interface MentionFilter extends ResponseFilters {
  readonly responseId?: number | undefined
  readonly brandId?: number | undefined
}

/** The order of a list; `id` in the same direction breaks ties, so pages never overlap. */
export interface MentionOrder {
  readonly by: SortColumn
  readonly direction: "asc" | "desc"
}

/** What the key of a mention holds in `order` (Domain/Page.ts): the sort column's value (unless id), its id. */
export const mentionKeyParts = (order: MentionOrder): ReadonlyArray<KeyPart> =>
  order.by === "id" ? ["integer"] : [order.by === "position" || order.by === "sentiment_score" ? "integer" : "timestamp", "integer"]

/** The key of a mention in `order`. */
export const mentionKey = (order: MentionOrder) => (mention: BrandMention): Key => {
  if (order.by === "id") return [mention.id]
  const value = mention[order.by]
  return [value instanceof Date ? value.toISOString() : value, mention.id]
}

export class BrandMentionsRepo extends Context.Tag("BrandMentionsRepo")<BrandMentionsRepo, {
  readonly list: (
    projectId: number,
    filter: MentionFilter,
    order: MentionOrder,
    window: Window
  ) => Effect.Effect<Page<BrandMention>>
  /** The same list, the mentions after a key (`mentionKey`) in `order`. */
  readonly listAfter: (
    projectId: number,
    filter: MentionFilter,
    order: MentionOrder,
    keyset: Keyset
  ) => Effect.Effect<KeysetPage<BrandMention>>
}>() {}

const Row = rowOf(BrandMention)

export const layerSql = Layer.effect(
  BrandMentionsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`m.id, m.response_id, m.brand_id, m.position, m.sentiment_score, r.collected_at, m.created_at, m.updated_at`
    const mentionConditions = (projectId: number, filter: MentionFilter) => [
      sql`m.project_id = ${projectId}`,
      ...(filter.responseId === undefined ? [] : [sql`m.response_id = ${filter.responseId}`]),
      ...(filter.brandId === undefined ? [] : [sql`m.brand_id = ${filter.brandId}`])
    ]
    return BrandMentionsRepo.of({
      list: (projectId, filter, order, window) => {
        const ofMention = mentionConditions(projectId, filter)
        const ofResponse = responseConditions(sql, sql`r`, filter)
        const where = sql.and([...ofMention, ...ofResponse])
        const mentionsAlone = sql`brand_mentions m WHERE ${sql.and(ofMention)}`
        // The column and direction come from closed lists, never from the request's text.
        const direction = sql.literal(order.direction === "asc" ? "ASC" : "DESC")
        const column = order.by === "collected_at" ? sql`r.collected_at` : sql`m.${sql(order.by)}`
        const orderBy = order.by === "id" ? sql`m.id ${direction}` : sql`${column} ${direction}, m.id ${direction}`
        return findPage(sql, {
          Result: Row,
          columns,
          from: sql`brand_mentions m JOIN responses r ON r.id = m.response_id WHERE ${where}`,
          // Every mention has its response (a foreign key, deleted with it): without a condition on the
          // response, the join removes no mention, and counting a million of them takes 40 ms without it
          // against 140 with it.
          countFrom: ofResponse.length === 0 ? mentionsAlone : undefined,
          // For the same reason, a page in an order of the mentions' own is chosen from them alone.
          keys: ofResponse.length === 0 && order.by !== "collected_at"
            ? { key: sql`m.id`, from: mentionsAlone, tables: sql`(brand_mentions m JOIN responses r ON r.id = m.response_id)` }
            : undefined,
          orderBy
        }, window)
      },
      listAfter: (projectId, filter, order, keyset) => {
        const parts = mentionKeyParts(order)
        const column = order.by === "collected_at" ? sql`r.collected_at` : sql`m.${sql(order.by)}`
        return findKeysetPage(sql, {
          Result: Row,
          columns,
          tables: sql`brand_mentions m JOIN responses r ON r.id = m.response_id`,
          where: [...mentionConditions(projectId, filter), ...responseConditions(sql, sql`r`, filter)],
          keyColumns: order.by === "id" ? [[sql`m.id`, "integer"]] : [[column, parts[0]!], [sql`m.id`, "integer"]],
          direction: order.direction,
          keyOf: mentionKey(order)
        }, keyset)
      }
    })
  })
)
