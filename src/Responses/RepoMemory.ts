import { Effect, Layer, Option } from "effect"
import { NotFound } from "../Domain/Errors.ts"
import { keysetOf } from "../Domain/Page.ts"
import type { Citation, Response } from "../Domain/Response.ts"
import { byId, MemoryStore, pageOf, type ResponseRow } from "../Memory/Store.ts"
import { containsWords, matchesFilters } from "./Filters.ts"
import {
  citationKey,
  type CitationFilter,
  defaultResponseOrder,
  type ResponseFilter,
  responseKey,
  type ResponseOrder,
  ResponsesRepo,
  storedDetails
} from "./Repo.ts"

const view = ({ project_id: _, ...response }: ResponseRow): Response => response

export const layerMemory = Layer.effect(
  ResponsesRepo,
  Effect.map(MemoryStore, (db) => {
    const sourceId = (projectId: number, domain: string) => {
      const existing = [...db.table("sources").values()].find((s) => s.project_id === projectId && s.domain === domain)
      if (existing) return existing.id
      const id = db.nextId("sources")
      db.table("sources").set(id, { id, project_id: projectId, domain, created_at: db.now() })
      return id
    }
    const sourceUrlId = (projectId: number, source_id: number, url: string) => {
      const existing = [...db.table("source_urls").values()].find((u) => u.project_id === projectId && u.url === url)
      if (existing) return existing.id
      const id = db.nextId("source_urls")
      db.table("source_urls").set(id, { id, project_id: projectId, source_id, url, created_at: db.now() })
      return id
    }
    const matches = (projectId: number, filter: ResponseFilter) => (r: ResponseRow) =>
      r.project_id === projectId &&
      (filter.monitorId === undefined || r.monitor_id === filter.monitorId) &&
      (filter.promptId === undefined || r.prompt_id === filter.promptId) &&
      (filter.platform === undefined || r.platform === filter.platform) &&
      (filter.status === undefined || r.status === filter.status) &&
      (filter.words === undefined || containsWords(r.text, filter.words)) &&
      matchesFilters(filter, (promptId) => db.tagsOfPrompt(promptId))(r)

    /** The project's responses `filter` keeps, in `order`, `id` in the same direction breaking ties. */
    const listed = (projectId: number, filter: ResponseFilter, order: ResponseOrder) => {
      const sign = order.direction === "asc" ? 1 : -1
      const key = (r: ResponseRow) => (order.by === "id" ? 0 : r.collected_at.getTime())
      return byId(db.table("responses").values())
        .filter(matches(projectId, filter))
        .sort((a, b) => sign * (key(a) - key(b)) || sign * (a.id - b.id))
        .map(view)
    }
    /** The project's citations `filter` keeps, by id. */
    const citationsOf = (projectId: number, filter: CitationFilter) =>
      byId(db.table("citations").values()).filter((c: Citation) => {
        const response = db.table("responses").get(c.response_id)
        return response?.project_id === projectId &&
          (filter.responseId === undefined || c.response_id === filter.responseId) &&
          matchesFilters(filter, (promptId) => db.tagsOfPrompt(promptId))(response)
      })

    return ResponsesRepo.of({
      insertAnalyzed: (projectId, responses) =>
        Effect.suspend(() => {
          // What was deleted after the caller found it, as the SQL repository tells it.
          if (!db.table("projects").has(projectId)) return Effect.fail(new NotFound({ resource: "Project" }))
          const ofProject = (row: { readonly project_id: number } | undefined) => row?.project_id === projectId
          if (responses.some((r) => !ofProject(db.table("monitors").get(r.monitor_id)) || !ofProject(db.table("prompts").get(r.prompt_id)))) {
            return Effect.fail(new NotFound({ resource: "Prompt" }))
          }
          // New sources and URLs of a batch are made in key order, as the SQL repository makes them.
          const cited = responses.flatMap((r) => r.citations)
          for (const domain of [...new Set(cited.map((c) => c.domain))].sort()) sourceId(projectId, domain)
          for (const [url, domain] of [...new Map(cited.map((c) => [c.normalized, c.domain] as const))].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
            sourceUrlId(projectId, sourceId(projectId, domain), url)
          }
          return Effect.succeed(responses.map((input) => {
            const now = db.now()
            const row: ResponseRow = {
              id: db.nextId("responses"),
              project_id: projectId,
              monitor_id: input.monitor_id,
              prompt_id: input.prompt_id,
              platform: input.platform,
              country: input.country,
              text: input.text,
              status: "analyzed",
              ...storedDetails(input),
              collected_at: input.collected_at,
              analyzed_at: now,
              created_at: now,
              updated_at: now
            }
            db.table("responses").set(row.id, row)
            input.citations.forEach((citation, index) => {
              const source_id = sourceId(projectId, citation.domain)
              const id = db.nextId("citations")
              db.table("citations").set(id, {
                id,
                response_id: row.id,
                source_id,
                source_url_id: sourceUrlId(projectId, source_id, citation.normalized),
                url: citation.url,
                position: index + 1,
                created_at: now
              })
            })
            for (const mention of input.mentions.filter((m) => ofProject(db.table("brands").get(m.brand_id)))) {
              const id = db.nextId("brand_mentions")
              db.table("brand_mentions").set(id, { id, project_id: projectId, response_id: row.id, ...mention, created_at: now, updated_at: now })
            }
            return view(row)
          }))
        }),
      list: (projectId, filter, window, order = defaultResponseOrder) => Effect.sync(() => pageOf(listed(projectId, filter, order), window)),
      listAfter: (projectId, filter, keyset, order) =>
        Effect.sync(() => keysetOf(listed(projectId, filter, order), responseKey(order), order.direction, keyset)),
      find: (projectId, id) =>
        Effect.sync(() => Option.fromNullable(db.table("responses").get(id)).pipe(Option.filter((r) => r.project_id === projectId), Option.map(view))),
      findMany: (projectId, ids) =>
        Effect.sync(() => ids.flatMap((id) => db.table("responses").get(id) ?? []).filter((r) => r.project_id === projectId).map(view)),
      citations: (projectId, filter, window) => Effect.sync(() => pageOf(citationsOf(projectId, filter), window)),
      citationsAfter: (projectId, filter, keyset) => Effect.sync(() => keysetOf(citationsOf(projectId, filter), citationKey, "asc", keyset)),
      brandsForDetection: (projectId) =>
        Effect.sync(() =>
          byId(db.table("brands").values()).filter((b) => b.project_id === projectId).map(({ id, name, aliases, domains, classification }) => ({
            id,
            name,
            aliases,
            domains,
            classification
          }))
        ),
      forReanalysis: (projectId, afterId, limit) =>
        Effect.sync(() => {
          const rows = byId(db.table("responses").values())
            .filter((r) => r.project_id === projectId && r.status === "analyzed" && r.id > afterId)
            .slice(0, limit)
          const ids = new Set(rows.map((r) => r.id))
          const domains = new Map<number, Array<string>>()
          const cited = [...db.table("citations").values()].filter((c) => ids.has(c.response_id)).sort((a, b) => a.position - b.position)
          for (const citation of cited) {
            const list = domains.get(citation.response_id) ?? []
            list.push(db.table("sources").get(citation.source_id)!.domain)
            domains.set(citation.response_id, list)
          }
          return rows.map((r) => ({ id: r.id, text: r.text, citedDomains: domains.get(r.id) ?? [] }))
        }),
      replaceMentions: (projectId, responses) =>
        Effect.sync(() => {
          const now = db.now()
          for (const { mentions: detected, responseId } of responses) {
            const response = db.table("responses").get(responseId)
            if (response === undefined || response.project_id !== projectId) continue
            // A brand deleted since detection read it took its mentions along.
            const mentions = detected.filter((m) => db.table("brands").get(m.brand_id)?.project_id === projectId)
            const existing = new Map(
              [...db.table("brand_mentions").values()].filter((m) => m.response_id === responseId).map((m) => [m.brand_id, m] as const)
            )
            const kept = new Set(mentions.map((m) => m.brand_id))
            for (const [brandId, mention] of existing) if (!kept.has(brandId)) db.table("brand_mentions").delete(mention.id)
            for (const { brand_id, position, sentiment_score } of mentions) {
              const old = existing.get(brand_id)
              if (old === undefined) {
                const id = db.nextId("brand_mentions")
                db.table("brand_mentions").set(id, {
                  id,
                  project_id: projectId,
                  response_id: responseId,
                  brand_id,
                  position,
                  sentiment_score,
                  created_at: now,
                  updated_at: now
                })
              } else if (old.position !== position || old.sentiment_score !== sentiment_score) {
                db.table("brand_mentions").set(old.id, { ...old, position, sentiment_score, updated_at: now })
              }
            }
            db.table("responses").set(responseId, { ...response, analyzed_at: now })
          }
        })
    })
  })
)
