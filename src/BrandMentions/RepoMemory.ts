import { Effect, Layer } from "effect"
import { keysetOf } from "../Domain/Page.ts"
import type { BrandMention } from "../Domain/Response.ts"
import { MemoryStore, pageOf } from "../Memory/Store.ts"
import { matchesFilters } from "../Responses/Filters.ts"
import { BrandMentionsRepo, type MentionFilter, mentionKey, type MentionOrder } from "./Repo.ts"

export const layerMemory = Layer.effect(
  BrandMentionsRepo,
  Effect.map(MemoryStore, (db) => {
    /** The project's mentions `filter` keeps, in `order`, `id` in the same direction breaking ties. */
    const listed = (projectId: number, filter: MentionFilter, order: MentionOrder) => {
      const sign = order.direction === "asc" ? 1 : -1
      const value = (mention: BrandMention) => {
        const v = mention[order.by]
        return v instanceof Date ? v.getTime() : v
      }
      return [...db.table("brand_mentions").values()]
        .filter((m) =>
          m.project_id === projectId &&
          (filter.responseId === undefined || m.response_id === filter.responseId) &&
          (filter.brandId === undefined || m.brand_id === filter.brandId) &&
          matchesFilters(filter, (promptId) => db.tagsOfPrompt(promptId))(db.table("responses").get(m.response_id)!)
        )
        .map(({ project_id: _, ...mention }): BrandMention => ({ ...mention, collected_at: db.table("responses").get(mention.response_id)!.collected_at }))
        .sort((a, b) => sign * (value(a) - value(b)) || sign * (a.id - b.id))
    }
    return BrandMentionsRepo.of({
      list: (projectId, filter, order, window) => Effect.sync(() => pageOf(listed(projectId, filter, order), window)),
      listAfter: (projectId, filter, order, keyset) =>
        Effect.sync(() => keysetOf(listed(projectId, filter, order), mentionKey(order), order.direction, keyset))
    })
  })
)
