import { Effect, Layer, Option } from "effect"
import { byId, MemoryStore, type MemoryTables } from "../Memory/Store.ts"
import { matchesFilters, type ResponseFilters } from "../Responses/Filters.ts"
import { latestExamples, mergeStoredRollups, type StoredExample, type StoredRollup } from "./Recording.ts"
import { type SuggestionRecord, SuggestionsRepo } from "./Repo.ts"

/** The suggestion tables of one in-memory store (kept beside it, so the store's own tables stay as they are). */
interface SuggestionTables {
  rollups: Map<number, Array<StoredRollup>>
  examples: Map<number, Array<StoredExample>>
  readonly suggestions: Map<number, SuggestionRecord>
  nextId: number
}

const tablesOf = new WeakMap<MemoryTables, SuggestionTables>()

const isCounted = (r: { readonly status: string; readonly answer_state: string }) => r.status === "analyzed" && r.answer_state === "answered"

export const layerMemory = Layer.effect(
  SuggestionsRepo,
  Effect.map(MemoryStore, (db) => {
    let t = tablesOf.get(db)
    if (t === undefined) tablesOf.set(db, (t = { rollups: new Map(), examples: new Map(), suggestions: new Map(), nextId: 1 }))
    const tables = t
    // A deleted project takes its suggestions with it, as the SQL cascade does.
    const live = (projectId: number) => {
      if (!db.table("projects").has(projectId)) {
        tables.rollups.delete(projectId)
        tables.examples.delete(projectId)
        for (const [id, s] of tables.suggestions) if (s.project_id === projectId) tables.suggestions.delete(id)
      }
    }
    const passes = (filters: ResponseFilters) => (r: StoredRollup) => {
      if (filters.range !== undefined && (r.day < filters.range.start || r.day > filters.range.end)) return false
      if (filters.platforms !== undefined && !filters.platforms.includes(r.platform)) return false
      if (filters.countries !== undefined && !filters.countries.includes(r.country)) return false
      if (filters.monitors !== undefined && !filters.monitors.includes(db.table("prompts").get(r.prompt_id)?.monitor_id ?? -1)) return false
      if (filters.tags !== undefined) {
        const tags = db.tagsOfPrompt(r.prompt_id)
        if (!filters.tags.some((tag) => tags.has(tag))) return false
      }
      return true
    }

    return SuggestionsRepo.of({
      vocabulary: (projectId) =>
        Effect.sync(() => ({
          brands: byId(db.table("brands").values()).filter((b) => b.project_id === projectId)
            .map(({ aliases, classification, domains, id, name }) => ({ id, name, aliases, domains, classification })),
          prompts: new Map(byId(db.table("prompts").values()).filter((p) => p.project_id === projectId).map((p) => [p.id, p.text]))
        })),
      answers: (projectId, afterId, limit) =>
        Effect.sync(() =>
          byId(db.table("responses").values())
            .filter((r) => r.project_id === projectId && r.id > afterId && isCounted(r))
            .slice(0, limit)
            .map((r) => ({
              id: r.id,
              prompt_id: r.prompt_id,
              platform: r.platform,
              country: r.country,
              collected_at: r.collected_at,
              text: r.text,
              citations: [...db.table("citations").values()].filter((c) => c.response_id === r.id).sort((a, b) => a.position - b.position).map((c) => c.url)
            }))
        ),
      record: (projectId, recording) =>
        Effect.sync(() => {
          live(projectId)
          if (!db.table("projects").has(projectId)) return
          tables.rollups.set(projectId, mergeStoredRollups(tables.rollups.get(projectId) ?? [], recording.rollups))
          const held = tables.examples.get(projectId) ?? []
          const added = recording.examples.filter((e) => !held.some((h) => h.key === e.key && h.response_id === e.response_id))
          tables.examples.set(projectId, latestExamples([...held, ...added]))
          const known = new Set([...tables.suggestions.values()].filter((s) => s.project_id === projectId).map((s) => s.key))
          for (const key of [...new Set(recording.rollups.map((r) => r.key))].sort()) {
            if (known.has(key)) continue
            const id = tables.nextId++
            tables.suggestions.set(id, {
              id,
              project_id: projectId,
              key,
              status: "open",
              dismissed_low: null,
              brand_id: null,
              backfill_status: null,
              backfilled_responses: 0,
              decided_at: null
            })
          }
        }),
      clear: (projectId) =>
        Effect.sync(() => {
          tables.rollups.delete(projectId)
          tables.examples.delete(projectId)
        }),
      rollups: (projectId, filters) =>
        Effect.sync(() => (live(projectId), (tables.rollups.get(projectId) ?? []).filter(passes(filters)))),
      examples: (projectId, keys) =>
        Effect.sync(() =>
          (tables.examples.get(projectId) ?? []).filter((e) => keys.includes(e.key))
            .sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : b.response_id - a.response_id || (a.key < b.key ? -1 : 1)))
        ),
      suggestions: (projectId) =>
        Effect.sync(() => (live(projectId), byId(tables.suggestions.values()).filter((s) => s.project_id === projectId))),
      find: (projectId, id) =>
        Effect.sync(() => {
          live(projectId)
          const found = tables.suggestions.get(id)
          return found?.project_id === projectId ? Option.some(found) : Option.none()
        }),
      decide: (projectId, id, decision) =>
        Effect.sync(() => {
          const held = tables.suggestions.get(id)!
          const brandGone = held.brand_id !== null && !db.table("brands").has(held.brand_id)
          const next: SuggestionRecord = {
            ...held,
            ...(brandGone ? { brand_id: null } : {}),
            ...decision,
            decided_at: decision.status === undefined ? held.decided_at : db.now()
          }
          if (held.project_id === projectId) tables.suggestions.set(id, next)
          return next
        }),
      claim: (projectId, id, status) =>
        Effect.sync(() => {
          const held = tables.suggestions.get(id)
          if (held === undefined || held.project_id !== projectId || (held.status !== "open" && held.status !== "dismissed")) return Option.none()
          const next = { ...held, status, decided_at: db.now() }
          tables.suggestions.set(id, next)
          return Option.some(next)
        }),
      totals: (projectId, filters) =>
        Effect.sync(() => {
          const keep = matchesFilters(filters, (promptId) => db.tagsOfPrompt(promptId))
          const responses = [...db.table("responses").values()].filter((r) => r.project_id === projectId && isCounted(r) && keep(r))
          const ids = new Set(responses.map((r) => r.id))
          const competitors = new Set<number>()
          let trackedMentions = 0
          for (const m of db.table("brand_mentions").values()) {
            if (!ids.has(m.response_id)) continue
            const classification = db.table("brands").get(m.brand_id)?.classification
            if (classification === "competitor") competitors.add(m.response_id)
            if (classification !== undefined && classification !== "ignored") trackedMentions++
          }
          return { responses: responses.length, withCompetitor: competitors.size, trackedMentions }
        })
    })
  })
)
