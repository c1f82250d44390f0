import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import { lockForWriting, retryConflicts } from "../Database/ProjectLocks.ts"
import type { Classification } from "../Domain/Brand.ts"
import { NotFound } from "../Domain/Errors.ts"
import type { Page, Window } from "../Domain/Page.ts"
import type { Platform } from "../Domain/Platform.ts"
import type { Citation, Response, ResponseStatus } from "../Domain/Response.ts"

/** A response with everything analysis found in it, ready to be stored. */
export interface AnalyzedResponse {
  readonly monitor_id: number
  readonly prompt_id: number
  readonly platform: Platform
  readonly country: string
  readonly text: string
  readonly collected_at: Date
  /** In the platform's order; positions are 1-based and consecutive. */
  readonly citations: ReadonlyArray<{ readonly url: string; readonly normalized: string; readonly domain: string }>
  readonly mentions: ReadonlyArray<{ readonly brand_id: number; readonly position: number; readonly sentiment_score: number }>
}

export interface ResponseFilter {
  readonly monitorId?: number | undefined
  readonly promptId?: number | undefined
  readonly platform?: Platform | undefined
  readonly status?: ResponseStatus | undefined
  /** Inclusive bounds on collected_at. */
  readonly from?: Date | undefined
  readonly to?: Date | undefined
}

/** What detection needs to know of the project's brands. */
export interface BrandForDetection {
  readonly id: number
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  readonly domains: ReadonlyArray<string>
  readonly classification: Classification
}

/** A stored response as re-analysis needs it. */
export interface ResponseForReanalysis {
  readonly id: number
  readonly text: string
  /** The domains of its citations (their sources'), in citation order, repeats included. */
  readonly citedDomains: ReadonlyArray<string>
}

/** The brand mentions detected in one stored response. */
export interface MentionsOfResponse {
  readonly responseId: number
  readonly mentions: AnalyzedResponse["mentions"]
}

export class ResponsesRepo extends Context.Tag("ResponsesRepo")<ResponsesRepo, {
  /**
   * Stores analyzed responses with their sources, source URLs, citations and mentions, in one
   * transaction; `NotFound` (Project) when the project was deleted meanwhile.
   */
  readonly insertAnalyzed: (
    projectId: number,
    responses: ReadonlyArray<AnalyzedResponse>
  ) => Effect.Effect<ReadonlyArray<Response>, NotFound | SqlError.SqlError>
  readonly list: (projectId: number, filter: ResponseFilter, window: Window) => Effect.Effect<Page<Response>, SqlError.SqlError>
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<Response>, SqlError.SqlError>
  /** The responses of these ids in the project, in one query. */
  readonly findMany: (projectId: number, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<Response>, SqlError.SqlError>
  readonly citations: (
    projectId: number,
    filter: { readonly responseId?: number | undefined },
    window: Window
  ) => Effect.Effect<Page<Citation>, SqlError.SqlError>
  readonly brandsForDetection: (projectId: number) => Effect.Effect<ReadonlyArray<BrandForDetection>, SqlError.SqlError>
  /**
   * A batch of re-analysis: the project's analyzed responses with ids above `afterId`, by id, at most
   * `limit`, each with the domains of its citations. Two queries, whatever the batch size.
   */
  readonly forReanalysis: (
    projectId: number,
    afterId: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<ResponseForReanalysis>, SqlError.SqlError>
  /**
   * Makes `mentions` the brand mentions of each of these responses of the project, in one transaction: a
   * mention no longer detected is deleted, a new one inserted, and one detected again keeps its id and
   * created_at (its updated_at moves only when its position or sentiment changes). The responses'
   * analyzed_at becomes now; nothing else of them, nor their citations, changes.
   */
  readonly replaceMentions: (
    projectId: number,
    responses: ReadonlyArray<MentionsOfResponse>
  ) => Effect.Effect<void, SqlError.SqlError>
}>() {}

/** PostgreSQL takes at most 65535 parameters a statement; rows are inserted in chunks well below. */
const CHUNK = 2000

const chunks = <A>(rows: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK))
  return out
}

const responseColumns = "id, monitor_id, prompt_id, platform, country, text, status, collected_at, analyzed_at, created_at, updated_at"

export const layerSql = Layer.effect(
  ResponsesRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(responseColumns)

    /**
     * Finds or creates rows keyed by a unique column, returning key → id. Rows go in key order, so two
     * answers citing the same new domains in another order wait for each other instead of deadlocking;
     * existing rows are read, not updated, so no row lock is held on them for the transaction's length.
     */
    const upsertIds = (
      table: "sources" | "source_urls",
      key: "domain" | "url",
      projectId: number,
      rows: ReadonlyArray<Record<string, unknown> & { readonly key: string }>
    ) =>
      Effect.gen(function*() {
        const ids = new Map<string, number>()
        const sorted = [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        for (const chunk of chunks(sorted)) {
          const inserted = yield* sql<{ id: number; key: string }>`
            INSERT INTO ${sql(table)} ${sql.insert(chunk.map(({ key: _, ...row }) => row))}
            ON CONFLICT (project_id, ${sql(key)}) DO NOTHING
            RETURNING id, ${sql(key)} AS key`
          for (const row of inserted) ids.set(row.key, row.id)
          const existing = chunk.map((row) => row.key).filter((value) => !ids.has(value))
          if (existing.length === 0) continue
          const found = yield* sql<{ id: number; key: string }>`
            SELECT id, ${sql(key)} AS key FROM ${sql(table)}
            WHERE project_id = ${projectId} AND ${sql(key)} = ANY(${existing}::text[])`
          for (const row of found) ids.set(row.key, row.id)
        }
        return ids
      })

    const where = (projectId: number, filter: ResponseFilter) =>
      sql.and([
        sql`project_id = ${projectId}`,
        ...(filter.monitorId === undefined ? [] : [sql`monitor_id = ${filter.monitorId}`]),
        ...(filter.promptId === undefined ? [] : [sql`prompt_id = ${filter.promptId}`]),
        ...(filter.platform === undefined ? [] : [sql`platform = ${filter.platform}`]),
        ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
        ...(filter.from === undefined ? [] : [sql`collected_at >= ${filter.from}`]),
        ...(filter.to === undefined ? [] : [sql`collected_at <= ${filter.to}`])
      ])

    return ResponsesRepo.of({
      insertAnalyzed: (projectId, responses) =>
        Effect.gen(function*() {
          if (responses.length === 0) return []
          // First, before any row lock: a deletion of the project waits for this, or this finds it gone.
          yield* lockForWriting(sql, projectId)
          const project = yield* sql`SELECT 1 FROM projects WHERE id = ${projectId}`
          if (project.length === 0) return yield* new NotFound({ resource: "Project" })
          const domains = [...new Set(responses.flatMap((r) => r.citations.map((c) => c.domain)))]
          const sourceIds = yield* upsertIds("sources", "domain", projectId, domains.map((domain) => ({ project_id: projectId, domain, key: domain })))
          const urls = new Map(responses.flatMap((r) => r.citations.map((c) => [c.normalized, c.domain] as const)))
          const urlIds = yield* upsertIds(
            "source_urls",
            "url",
            projectId,
            [...urls].map(([url, domain]) => ({ project_id: projectId, source_id: sourceIds.get(domain)!, url, key: url }))
          )
          const stored: Array<Response> = []
          // Analysis ran here, in the application, just before: its clock says when.
          const analyzedAt = new Date()
          for (const chunk of chunks(responses)) {
            // A multi-row VALUES insert returns its rows in the order given.
            const rows = yield* sql<Response>`
              INSERT INTO responses ${
              sql.insert(chunk.map((r) => ({
                project_id: projectId,
                monitor_id: r.monitor_id,
                prompt_id: r.prompt_id,
                platform: r.platform,
                country: r.country,
                text: r.text,
                status: "analyzed",
                collected_at: r.collected_at,
                analyzed_at: analyzedAt,
                // One instant for the three, as the stored response was analysed and created together.
                created_at: analyzedAt,
                updated_at: analyzedAt
              })))
            }
              RETURNING ${columns}`
            stored.push(...rows)
          }
          const citations = responses.flatMap((r, i) =>
            r.citations.map((c, index) => ({
              response_id: stored[i]!.id,
              source_id: sourceIds.get(c.domain)!,
              source_url_id: urlIds.get(c.normalized)!,
              url: c.url,
              position: index + 1
            }))
          )
          for (const chunk of chunks(citations)) yield* sql`INSERT INTO citations ${sql.insert(chunk)}`
          const mentions = responses.flatMap((r, i) =>
            r.mentions.map((m) => ({ project_id: projectId, response_id: stored[i]!.id, ...m }))
          )
          for (const chunk of chunks(mentions)) yield* sql`INSERT INTO brand_mentions ${sql.insert(chunk)}`
          return stored
        }).pipe(sql.withTransaction, retryConflicts),
      list: (projectId, filter, window) =>
        Effect.all({
          rows: sql<Response>`
            SELECT ${columns} FROM responses WHERE ${where(projectId, filter)}
            ORDER BY id LIMIT ${window.limit} OFFSET ${window.offset}`,
          total: sql<{ total: number }>`SELECT count(*) AS total FROM responses WHERE ${where(projectId, filter)}`.pipe(
            Effect.map((rows) => rows[0]!.total)
          )
        }),
      find: (projectId, id) =>
        sql<Response>`SELECT ${columns} FROM responses WHERE id = ${id} AND project_id = ${projectId}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]))
        ),
      findMany: (projectId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<Response>`SELECT ${columns} FROM responses WHERE project_id = ${projectId} AND id IN ${sql.in(ids)}`,
      citations: (projectId, filter, window) => {
        const condition = filter.responseId === undefined
          ? sql`r.project_id = ${projectId}`
          : sql`r.project_id = ${projectId} AND c.response_id = ${filter.responseId}`
        return Effect.all({
          rows: sql<Citation>`
            SELECT c.id, c.response_id, c.source_id, c.source_url_id, c.url, c.position, c.created_at
            FROM citations c JOIN responses r ON r.id = c.response_id
            WHERE ${condition} ORDER BY c.id LIMIT ${window.limit} OFFSET ${window.offset}`,
          total: sql<{ total: number }>`
            SELECT count(*) AS total FROM citations c JOIN responses r ON r.id = c.response_id WHERE ${condition}`.pipe(
            Effect.map((rows) => rows[0]!.total)
          )
        })
      },
      brandsForDetection: (projectId) =>
        sql<BrandForDetection>`SELECT id, name, aliases, domains, classification FROM brands WHERE project_id = ${projectId} ORDER BY id`,
      forReanalysis: (projectId, afterId, limit) =>
        Effect.gen(function*() {
          const rows = yield* sql<{ id: number; text: string }>`
            SELECT id, text FROM responses
            WHERE project_id = ${projectId} AND status = 'analyzed' AND id > ${afterId}
            ORDER BY id LIMIT ${limit}`
          if (rows.length === 0) return []
          // One parameter (an array), however large the batch.
          const cited = yield* sql<{ response_id: number; domain: string }>`
            SELECT c.response_id, s.domain FROM citations c JOIN sources s ON s.id = c.source_id
            WHERE c.response_id = ANY(${rows.map((row) => row.id)}::bigint[])
            ORDER BY c.response_id, c.position`
          const domains = new Map<number, Array<string>>()
          for (const { domain, response_id } of cited) {
            const list = domains.get(response_id) ?? []
            list.push(domain)
            domains.set(response_id, list)
          }
          return rows.map((row) => ({ id: row.id, text: row.text, citedDomains: domains.get(row.id) ?? [] }))
        }),
      replaceMentions: (projectId, responses) =>
        Effect.gen(function*() {
          if (responses.length === 0) return
          const responseIds = responses.map((r) => r.responseId)
          const mentions = responses.flatMap((r) =>
            r.mentions.map(({ brand_id, position, sentiment_score }) => ({
              project_id: projectId,
              response_id: r.responseId,
              brand_id,
              position,
              sentiment_score
            }))
          )
          // The pairs detected now, as two parallel arrays: the mentions of the batch outside them go.
          yield* sql`
            DELETE FROM brand_mentions m
            WHERE m.project_id = ${projectId} AND m.response_id = ANY(${responseIds}::bigint[])
              AND NOT EXISTS (
                SELECT 1 FROM unnest(${mentions.map((m) => m.response_id)}::bigint[], ${mentions.map((m) => m.brand_id)}::bigint[])
                  AS kept (response_id, brand_id)
                WHERE kept.response_id = m.response_id AND kept.brand_id = m.brand_id
              )`
          for (const chunk of chunks(mentions)) {
            yield* sql`
              INSERT INTO brand_mentions ${sql.insert(chunk)}
              ON CONFLICT (response_id, brand_id) DO UPDATE
                SET position = EXCLUDED.position, sentiment_score = EXCLUDED.sentiment_score, updated_at = now()
                WHERE (brand_mentions.position, brand_mentions.sentiment_score)
                  IS DISTINCT FROM (EXCLUDED.position, EXCLUDED.sentiment_score)`
          }
          yield* sql`
            UPDATE responses SET analyzed_at = now()
            WHERE project_id = ${projectId} AND id = ANY(${responseIds}::bigint[])`
        }).pipe(sql.withTransaction)
    })
  })
)
