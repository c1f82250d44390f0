import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import { orDefect } from "../Database/Rows.ts"
import type { BrandToDetect } from "../Detection/Mentions.ts"
import type { Platform } from "../Domain/Platform.ts"
import { type ResponseFilters, responseConditions } from "../Responses/Filters.ts"
import {
  type AnswerToRecord,
  mergeStoredRollups,
  type ProjectVocabulary,
  type Recording,
  type StoredExample,
  type StoredRollup
} from "./Recording.ts"

export const suggestionStatuses = ["open", "dismissed", "accepted", "merged", "ignored"] as const
export type SuggestionStatus = (typeof suggestionStatuses)[number]
export type BackfillStatus = "running" | "done"

/** A candidate ever recorded in a project, with the user's decision about it. */
export interface SuggestionRecord {
  readonly id: number
  readonly project_id: number
  readonly key: string
  readonly status: SuggestionStatus
  /** The lower bound of its rate (all answers) when it was dismissed: the reopen rule's reference. */
  readonly dismissed_low: number | null
  /** The brand it became (accepted, ignored) or joined (merged). */
  readonly brand_id: number | null
  readonly backfill_status: BackfillStatus | null
  readonly backfilled_responses: number
  readonly decided_at: Date | null
}

export type SuggestionDecision = Partial<Pick<SuggestionRecord, "status" | "dismissed_low" | "brand_id" | "backfill_status" | "backfilled_responses">>

/** The answers of a window the candidates are counted against. */
export interface AnswerTotals {
  /** Counted answers (analyzed, `answered`). */
  readonly responses: number
  /** ... naming a tracked competitor. */
  readonly withCompetitor: number
  /** Mentions of counted brands (not ignored) in them. */
  readonly trackedMentions: number
}

/**
 * Storage of brand suggestions (migrations/0015_brand_suggestions.ts): the candidates' daily rollups and
 * examples, the decisions, and the reads of stored answers that recording and the counts need. The
 * in-memory implementation (RepoMemory.ts) is the reference.
 */
export class SuggestionsRepo extends Context.Tag("SuggestionsRepo")<SuggestionsRepo, {
  /** The project's brands (ignored ones included) and prompts. */
  readonly vocabulary: (projectId: number) => Effect.Effect<ProjectVocabulary>
  /** Counted answers of the project with ids above `afterId`, by id, at most `limit`, with their citations' URLs. */
  readonly answers: (projectId: number, afterId: number, limit: number) => Effect.Effect<ReadonlyArray<AnswerToRecord>>
  /**
   * Adds a recording in one transaction: rollups summed into the stored rows, examples added (the latest
   * three per key kept), a suggestion row for each new key.
   */
  readonly record: (projectId: number, recording: Recording) => Effect.Effect<void>
  /** Forgets every rollup and example of the project (decisions stay): the start of a rebuild. */
  readonly clear: (projectId: number) => Effect.Effect<void>
  /** The rollups of the days of `filters.range` (every day without one) passing the filters. */
  readonly rollups: (projectId: number, filters: ResponseFilters) => Effect.Effect<ReadonlyArray<StoredRollup>>
  readonly examples: (projectId: number, keys: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<StoredExample>>
  readonly suggestions: (projectId: number) => Effect.Effect<ReadonlyArray<SuggestionRecord>>
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<SuggestionRecord>>
  readonly decide: (projectId: number, id: number, decision: SuggestionDecision) => Effect.Effect<SuggestionRecord>
  /**
   * Takes an undecided (open or dismissed) suggestion for a decision, atomically: its status becomes
   * `status`; none when it is decided already (or was, by a request running at the same time).
   */
  readonly claim: (projectId: number, id: number, status: SuggestionStatus) => Effect.Effect<Option.Option<SuggestionRecord>>
  /** The counted answers passing the filters (in the range, when given), and their tracked mentions. */
  readonly totals: (projectId: number, filters: ResponseFilters) => Effect.Effect<AnswerTotals>
}>() {}

interface RollupRow extends Omit<StoredRollup, "variants" | "domains"> {
  readonly variants: Record<string, number>
  readonly domains: Record<string, number>
}

const ROLLUP_CHUNK = 500

export const layerSql = Layer.effect(
  SuggestionsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const suggestionColumns = sql`id, project_id, key, status, dismissed_low, brand_id, backfill_status, backfilled_responses, decided_at`

    const rollupFilters = (filters: ResponseFilters) => {
      const conditions = []
      if (filters.range !== undefined) conditions.push(sql`s.day >= ${filters.range.start}::date AND s.day <= ${filters.range.end}::date`)
      if (filters.platforms !== undefined) conditions.push(sql`s.platform IN ${sql.in(filters.platforms)}`)
      if (filters.countries !== undefined) conditions.push(sql`s.country IN ${sql.in(filters.countries)}`)
      if (filters.monitors !== undefined) conditions.push(sql`s.prompt_id IN (SELECT p.id FROM prompts p WHERE p.monitor_id IN ${sql.in(filters.monitors)})`)
      if (filters.tags !== undefined) conditions.push(sql`s.prompt_id IN (SELECT pt.prompt_id FROM prompt_tags pt WHERE pt.tag_id IN ${sql.in(filters.tags)})`)
      return conditions
    }

    return SuggestionsRepo.of({
      vocabulary: (projectId) =>
        Effect.gen(function*() {
          const brands = yield* sql<BrandToDetect>`
            SELECT id, name, aliases, domains, classification FROM brands WHERE project_id = ${projectId} ORDER BY id`
          const prompts = yield* sql<{ id: number; text: string }>`SELECT id, text FROM prompts WHERE project_id = ${projectId} ORDER BY id`
          return { brands, prompts: new Map(prompts.map((p) => [p.id, p.text])) }
        }).pipe(orDefect),
      answers: (projectId, afterId, limit) =>
        Effect.gen(function*() {
          const rows = yield* sql<Omit<AnswerToRecord, "citations">>`
            SELECT id, prompt_id, platform, country, collected_at, text FROM responses
            WHERE project_id = ${projectId} AND id > ${afterId} AND status = 'analyzed' AND answer_state = 'answered'
            ORDER BY id LIMIT ${limit}`
          if (rows.length === 0) return []
          const cited = yield* sql<{ response_id: number; url: string }>`
            SELECT response_id, url FROM citations WHERE project_id = ${projectId} AND response_id IN ${sql.in(rows.map((r) => r.id))}
            ORDER BY response_id, position`
          const urls = new Map<number, Array<string>>()
          for (const c of cited) urls.set(c.response_id, [...(urls.get(c.response_id) ?? []), c.url])
          return rows.map((row) => ({ ...row, citations: urls.get(row.id) ?? [] }))
        }).pipe(orDefect),
      record: (projectId, recording) =>
        Effect.gen(function*() {
          const rollups = mergeStoredRollups(recording.rollups)
          for (let i = 0; i < rollups.length; i += ROLLUP_CHUNK) {
            const chunk = rollups.slice(i, i + ROLLUP_CHUNK)
            // Summed into the stored rows; the jsonb counts merged key by key.
            yield* sql`
              INSERT INTO suggestion_rollups ${sql.insert(chunk.map((r) => ({
                project_id: projectId, key: r.key, day: r.day, platform: r.platform, prompt_id: r.prompt_id, country: r.country,
                answers: r.answers, confirmed: r.confirmed, in_list: r.in_list, bold: r.bold, linked: r.linked, cited: r.cited,
                with_competitor: r.with_competitor, order_sum: r.order_sum,
                variants: JSON.stringify(r.variants), domains: JSON.stringify(r.domains)
              })))}
              ON CONFLICT (project_id, key, day, platform, prompt_id, country) DO UPDATE SET
                answers = suggestion_rollups.answers + excluded.answers,
                confirmed = suggestion_rollups.confirmed + excluded.confirmed,
                in_list = suggestion_rollups.in_list + excluded.in_list,
                bold = suggestion_rollups.bold + excluded.bold,
                linked = suggestion_rollups.linked + excluded.linked,
                cited = suggestion_rollups.cited + excluded.cited,
                with_competitor = suggestion_rollups.with_competitor + excluded.with_competitor,
                order_sum = suggestion_rollups.order_sum + excluded.order_sum,
                variants = (SELECT coalesce(jsonb_object_agg(k, v), '{}'::jsonb) FROM (
                  SELECT k, sum(v::int) AS v FROM (
                    SELECT * FROM jsonb_each_text(suggestion_rollups.variants) UNION ALL SELECT * FROM jsonb_each_text(excluded.variants)
                  ) AS e(k, v) GROUP BY k) AS s),
                domains = (SELECT coalesce(jsonb_object_agg(k, v), '{}'::jsonb) FROM (
                  SELECT k, sum(v::int) AS v FROM (
                    SELECT * FROM jsonb_each_text(suggestion_rollups.domains) UNION ALL SELECT * FROM jsonb_each_text(excluded.domains)
                  ) AS e(k, v) GROUP BY k) AS s)`
          }
          const keys = [...new Set(rollups.map((r) => r.key))].sort()
          if (keys.length > 0) {
            yield* sql`
              INSERT INTO brand_suggestions (project_id, key)
              SELECT ${projectId}, k FROM unnest(${keys}::text[]) AS k
              ON CONFLICT (project_id, key) DO NOTHING`
          }
          if (recording.examples.length > 0) {
            yield* sql`
              INSERT INTO suggestion_examples ${sql.insert(recording.examples.map((e) => ({
                project_id: projectId, key: e.key, response_id: e.response_id, day: e.day, platform: e.platform, snippet: e.snippet,
                highlight_start: e.highlight_start, highlight_end: e.highlight_end, snippet_offset: e.offset
              })))}
              ON CONFLICT (project_id, key, response_id) DO NOTHING`
            const exampleKeys = [...new Set(recording.examples.map((e) => e.key))]
            yield* sql`
              DELETE FROM suggestion_examples e USING (
                SELECT key, response_id, row_number() OVER (PARTITION BY key ORDER BY day DESC, response_id DESC) AS n
                FROM suggestion_examples WHERE project_id = ${projectId} AND key IN ${sql.in(exampleKeys)}
              ) AS ranked
              WHERE e.project_id = ${projectId} AND e.key = ranked.key AND e.response_id = ranked.response_id AND ranked.n > 3`
          }
        }).pipe(sql.withTransaction, orDefect),
      clear: (projectId) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM suggestion_rollups WHERE project_id = ${projectId}`
          yield* sql`DELETE FROM suggestion_examples WHERE project_id = ${projectId}`
        }).pipe(sql.withTransaction, orDefect),
      rollups: (projectId, filters) =>
        Effect.map(
          sql<RollupRow>`
            SELECT key, to_char(day, 'YYYY-MM-DD') AS day, platform, prompt_id::int AS prompt_id, country, answers, confirmed, in_list, bold,
              linked, cited, with_competitor, order_sum, variants, domains
            FROM suggestion_rollups s
            WHERE ${sql.and([sql`s.project_id = ${projectId}`, ...rollupFilters(filters)])}
            ORDER BY key, day, platform, prompt_id, country`,
          (rows) => rows.map((r) => ({ ...r, platform: r.platform as Platform }))
        ).pipe(orDefect),
      examples: (projectId, keys) =>
        keys.length === 0 ? Effect.succeed([]) : sql<StoredExample>`
          SELECT key, response_id, to_char(day, 'YYYY-MM-DD') AS day, platform, snippet, highlight_start, highlight_end,
            snippet_offset AS "offset"
          FROM suggestion_examples WHERE project_id = ${projectId} AND key IN ${sql.in(keys)}
          ORDER BY day DESC, response_id DESC, key`.pipe(orDefect),
      suggestions: (projectId) =>
        sql<SuggestionRecord>`SELECT ${suggestionColumns} FROM brand_suggestions WHERE project_id = ${projectId} ORDER BY id`.pipe(orDefect),
      find: (projectId, id) =>
        Effect.map(
          sql<SuggestionRecord>`SELECT ${suggestionColumns} FROM brand_suggestions WHERE project_id = ${projectId} AND id = ${id}`,
          (rows) => Option.fromNullable(rows[0])
        ).pipe(orDefect),
      decide: (projectId, id, decision) =>
        Effect.map(
          sql<SuggestionRecord>`
            UPDATE brand_suggestions SET ${sql.update(decision as Record<string, unknown>)},
              decided_at = ${decision.status === undefined ? sql`decided_at` : sql`now()`}, updated_at = now()
            WHERE project_id = ${projectId} AND id = ${id}
            RETURNING ${suggestionColumns}`,
          (rows) => rows[0]!
        ).pipe(orDefect),
      claim: (projectId, id, status) =>
        Effect.map(
          sql<SuggestionRecord>`
            UPDATE brand_suggestions SET status = ${status}, decided_at = now(), updated_at = now()
            WHERE project_id = ${projectId} AND id = ${id} AND status IN ('open', 'dismissed')
            RETURNING ${suggestionColumns}`,
          (rows) => Option.fromNullable(rows[0])
        ).pipe(orDefect),
      totals: (projectId, filters) =>
        Effect.map(
          sql<AnswerTotals>`
            SELECT count(*)::int AS responses,
              count(*) FILTER (WHERE EXISTS (
                SELECT 1 FROM brand_mentions m JOIN brands b ON b.id = m.brand_id
                WHERE m.response_id = r.id AND b.classification = 'competitor'))::int AS "withCompetitor",
              coalesce(sum((SELECT count(*) FROM brand_mentions m JOIN brands b ON b.id = m.brand_id
                WHERE m.response_id = r.id AND b.classification <> 'ignored')), 0)::int AS "trackedMentions"
            FROM responses r
            WHERE ${sql.and([
              sql`r.project_id = ${projectId}`,
              sql`r.status = 'analyzed' AND r.answer_state = 'answered'`,
              ...responseConditions(sql, sql`r`, filters)
            ])}`,
          (rows) => rows[0]!
        ).pipe(orDefect)
    })
  })
)




