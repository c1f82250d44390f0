import { SqlClient, SqlSchema } from "@effect/sql"
import { Array as Arr, Context, Effect, Layer, type Option, Schema } from "effect"
import { lockProject, retryConflicts } from "../Database/ProjectLocks.ts"
import { findKeysetPage } from "../Database/Keyset.ts"
import { findPage, orDefect, rowOf } from "../Database/Rows.ts"
import { Classification } from "../Domain/Brand.ts"
import { Id } from "../Domain/Common.ts"
import { NotFound } from "../Domain/Errors.ts"
import type { Key, KeyPart, Keyset, KeysetPage, Page, Window } from "../Domain/Page.ts"
import type { Platform } from "../Domain/Platform.ts"
import { type AnswerDetails, Citation, Response, type ResponseStatus } from "../Domain/Response.ts"
import { responseConditions, type ResponseFilters } from "./Filters.ts"

/** What every answer of a platform comes with: where, when, what. */
export interface AnswerFields {
  readonly monitor_id: number
  readonly prompt_id: number
  readonly platform: Platform
  readonly country: string
  readonly text: string
  readonly collected_at: Date
}

/** A response with everything analysis found in it, ready to be stored, and what its platform reported. */
export interface AnalyzedResponse extends AnswerFields, AnswerDetails {
  /** In the platform's order; positions are 1-based and consecutive. */
  readonly citations: ReadonlyArray<{ readonly url: string; readonly normalized: string; readonly domain: string }>
  readonly mentions: ReadonlyArray<{ readonly brand_id: number; readonly position: number; readonly sentiment_score: number }>
}

export interface ResponseFilter extends ResponseFilters {
  readonly monitorId?: number | undefined
  readonly promptId?: number | undefined
  readonly platform?: Platform | undefined
  readonly status?: ResponseStatus | undefined
  /** `q`: every word in the text, in any case (`searchWords`). */
  readonly words?: ReadonlyArray<string> | undefined
}

/** What `GET /responses` sorts by; `id` in the same direction breaks ties, so pages never overlap. */
export const responseSortColumns = ["id", "collected_at"] as const

export interface ResponseOrder {
  readonly by: (typeof responseSortColumns)[number]
  readonly direction: "asc" | "desc"
}

/** The documented order of `GET /responses` when none is asked for: by id, oldest first. */
export const defaultResponseOrder: ResponseOrder = { by: "id", direction: "asc" }

/** What the key of a response holds in `order` (Domain/Page.ts): its `collected_at` when sorted by it, its id. */
export const responseKeyParts = (order: ResponseOrder): ReadonlyArray<KeyPart> =>
  order.by === "id" ? ["integer"] : ["timestamp", "integer"]

/** The key of a response in `order`. */
export const responseKey = (order: ResponseOrder) => (response: Response): Key =>
  order.by === "id" ? [response.id] : [response.collected_at.toISOString(), response.id]

/** The key of a citation: its id (the only order of the list). */
export const citationKeyParts: ReadonlyArray<KeyPart> = ["integer"]
export const citationKey = (citation: Citation): Key => [citation.id]

/** Which citations a list shows: the responses' window and filters, or those of one response. */
export interface CitationFilter extends ResponseFilters {
  readonly responseId?: number | undefined
}

/** What detection needs to know of the project's brands. */
export const BrandForDetection = Schema.Struct({
  id: Id,
  name: Schema.String,
  aliases: Schema.Array(Schema.String),
  domains: Schema.Array(Schema.String),
  classification: Classification
})
export type BrandForDetection = typeof BrandForDetection.Type

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
   * transaction; `NotFound` (Project) when the project was deleted meanwhile, `NotFound` (Prompt) when
   * the prompt or the monitor of one of them was, and nothing is stored then. Mentions of a brand
   * deleted meanwhile are left out, as its deletion would have taken them.
   */
  readonly insertAnalyzed: (
    projectId: number,
    responses: ReadonlyArray<AnalyzedResponse>
  ) => Effect.Effect<ReadonlyArray<Response>, NotFound>
  /** A page of the project's responses; by id, oldest first, without an order. */
  readonly list: (projectId: number, filter: ResponseFilter, window: Window, order?: ResponseOrder) => Effect.Effect<Page<Response>>
  /** The same list, the rows after a key (`responseKey`) in `order`. */
  readonly listAfter: (projectId: number, filter: ResponseFilter, keyset: Keyset, order: ResponseOrder) => Effect.Effect<KeysetPage<Response>>
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<Response>>
  /** The responses of these ids in the project, in one query. */
  readonly findMany: (projectId: number, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<Response>>
  readonly citations: (projectId: number, filter: CitationFilter, window: Window) => Effect.Effect<Page<Citation>>
  /** The same list, the citations after a key (`citationKey`), by id. */
  readonly citationsAfter: (projectId: number, filter: CitationFilter, keyset: Keyset) => Effect.Effect<KeysetPage<Citation>>
  readonly brandsForDetection: (projectId: number) => Effect.Effect<ReadonlyArray<BrandForDetection>>
  /**
   * A batch of re-analysis: the project's analyzed responses with ids above `afterId`, by id, at most
   * `limit`, each with the domains of its citations. Two queries, whatever the batch size.
   */
  readonly forReanalysis: (
    projectId: number,
    afterId: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<ResponseForReanalysis>>
  /**
   * Makes `mentions` the brand mentions of each of these responses of the project, in one transaction: a
   * mention no longer detected is deleted, a new one inserted, and one detected again keeps its id and
   * created_at (its updated_at moves only when its position or sentiment changes). The responses'
   * analyzed_at becomes now; nothing else of them, nor their citations, changes.
   */
  readonly replaceMentions: (
    projectId: number,
    responses: ReadonlyArray<MentionsOfResponse>
  ) => Effect.Effect<void>
}>() {}

/** The answer details of a response to store: what was not reported is none, and the state `answered`. */
export const storedDetails = (details: AnswerDetails) => ({
  model: details.model ?? null,
  answer_state: details.answer_state ?? "answered",
  finish_reason: details.finish_reason ?? null,
  input_tokens: details.input_tokens ?? null,
  output_tokens: details.output_tokens ?? null,
  cost_usd: details.cost_usd ?? null,
  search_queries: [...(details.search_queries ?? [])],
  retrieved_urls: [...(details.retrieved_urls ?? [])]
})

/** PostgreSQL takes at most 65535 parameters a statement; rows are inserted in chunks well below. */
const CHUNK = 2000

const chunks = <A>(rows: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK))
  return out
}

const responseColumns = "id, monitor_id, prompt_id, platform, country, text, status, model, answer_state, finish_reason, " +
  "input_tokens, output_tokens, cost_usd, search_queries, retrieved_urls, collected_at, analyzed_at, created_at, updated_at"

const Row = rowOf(Response)
const CitationRow = rowOf(Citation)
const KeyId = Schema.Struct({ id: Id, key: Schema.String })
const KnownKey = Schema.Struct({ kind: Schema.Literal("project", "monitor", "prompt", "brand", "source", "url"), id: Id, key: Schema.String })
const ReanalysisRow = Schema.Struct({ id: Id, text: Schema.String })
const CitedDomain = Schema.Struct({ response_id: Id, domain: Schema.String })

export const layerSql = Layer.effect(
  ResponsesRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(responseColumns)

    /** The inserts and reads of `upsertIds`, per table, made once. */
    const keyedRows = (table: "sources" | "source_urls", key: "domain" | "url") => ({
      inserted: SqlSchema.findAll({
        Request: Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
        Result: KeyId,
        execute: (chunk) =>
          sql`INSERT INTO ${sql(table)} ${sql.insert(chunk as Array<Record<string, any>>)}
            ON CONFLICT (project_id, ${sql(key)}) DO NOTHING
            RETURNING id, ${sql(key)} AS key`
      }),
      found: SqlSchema.findAll({
        Request: Schema.Struct({ projectId: Schema.Number, keys: Schema.Array(Schema.String) }),
        Result: KeyId,
        execute: ({ keys, projectId }) =>
          sql`SELECT id, ${sql(key)} AS key FROM ${sql(table)} WHERE project_id = ${projectId} AND ${sql(key)} = ANY(${keys}::text[])`
      })
    })
    const keyed = { sources: keyedRows("sources", "domain"), source_urls: keyedRows("source_urls", "url") }

    /**
     * Finds or creates rows keyed by a unique column, returning key → id. Rows go in key order, so two
     * answers citing the same new domains in another order wait for each other instead of deadlocking;
     * existing rows are read, not updated, so no row lock is held on them for the transaction's length.
     */
    const upsertIds = (
      table: "sources" | "source_urls",
      projectId: number,
      rows: ReadonlyArray<Record<string, unknown> & { readonly key: string }>
    ) => {
      const { found, inserted } = keyed[table]
      return Effect.gen(function*() {
        const ids = new Map<string, number>()
        const sorted = [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        for (const chunk of chunks(sorted)) {
          for (const row of yield* inserted(chunk.map(({ key: _, ...row }) => row))) ids.set(row.key, row.id)
          const existing = chunk.map((row) => row.key).filter((value) => !ids.has(value))
          if (existing.length === 0) continue
          for (const row of yield* found({ projectId, keys: existing })) ids.set(row.key, row.id)
        }
        return ids
      })
    }

    const conditions = (projectId: number, filter: ResponseFilter) => [
      sql`project_id = ${projectId}`,
      ...(filter.monitorId === undefined ? [] : [sql`monitor_id = ${filter.monitorId}`]),
      ...(filter.promptId === undefined ? [] : [sql`prompt_id = ${filter.promptId}`]),
      ...(filter.platform === undefined ? [] : [sql`platform = ${filter.platform}`]),
      ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
      // A word is a parameter, never a pattern: `%` and `_` are text like any other.
      ...(filter.words ?? []).map((word) => sql`strpos(lower(text), lower(${word})) > 0`),
      ...responseConditions(sql, sql`responses`, filter)
    ]
    const where = (projectId: number, filter: ResponseFilter) => sql.and(conditions(projectId, filter))

    const insertResponses = SqlSchema.findAll({
      Request: Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
      Result: Row,
      // A multi-row VALUES insert returns its rows in the order given.
      execute: (rows) => sql`INSERT INTO responses ${sql.insert(rows as Array<Record<string, any>>)} RETURNING ${columns}`
    })
    /**
     * Whether the project exists (a `project` row), and which of these monitors of it exist, locked
     * `FOR KEY SHARE` until the transaction ends (Database/ProjectLocks.ts: monitors before prompts).
     */
    const projectAndMonitors = SqlSchema.findAll({
      Request: Schema.Struct({ projectId: Schema.Number, monitorIds: Schema.Array(Schema.Number) }),
      Result: KnownKey,
      execute: ({ monitorIds, projectId }) =>
        sql`
          WITH m AS (
            SELECT id FROM monitors WHERE project_id = ${projectId} AND id = ANY(${monitorIds}::bigint[]) ORDER BY id FOR KEY SHARE
          )
          SELECT 'project' AS kind, id, '' AS key FROM projects WHERE id = ${projectId}
          UNION ALL
          SELECT 'monitor', id, '' FROM m`
    })
    /**
     * Which of these prompts and brands of the project exist, locked `FOR KEY SHARE` until the
     * transaction ends, and the ids of those of its sources and URLs that exist, in one statement.
     */
    const knownKeys = SqlSchema.findAll({
      Request: Schema.Struct({
        projectId: Schema.Number,
        promptIds: Schema.Array(Schema.Number),
        brandIds: Schema.Array(Schema.Number),
        domains: Schema.Array(Schema.String),
        urls: Schema.Array(Schema.String)
      }),
      Result: KnownKey,
      execute: ({ brandIds, domains, projectId, promptIds, urls }) =>
        sql`
          WITH p AS (SELECT id FROM prompts WHERE project_id = ${projectId} AND id = ANY(${promptIds}::bigint[]) FOR KEY SHARE),
          b AS (SELECT id FROM brands WHERE project_id = ${projectId} AND id = ANY(${brandIds}::bigint[]) FOR KEY SHARE)
          SELECT 'prompt' AS kind, id, '' AS key FROM p
          UNION ALL
          SELECT 'brand', id, '' FROM b
          UNION ALL
          SELECT 'source', id, domain FROM sources WHERE project_id = ${projectId} AND domain = ANY(${domains}::text[])
          UNION ALL
          SELECT 'url', id, url FROM source_urls WHERE project_id = ${projectId} AND url = ANY(${urls}::text[])`
    })
    const byIds = SqlSchema.findAll({
      Request: Schema.Struct({ projectId: Schema.Number, ids: Schema.Array(Schema.Number) }),
      Result: Row,
      execute: ({ ids, projectId }) => sql`SELECT ${columns} FROM responses WHERE project_id = ${projectId} AND id IN ${sql.in(ids)} ORDER BY id`
    })
    /**
     * The citations a list shows, and the tables they are read from: the citations alone (they carry their
     * project), joined to their responses only when a condition is on those.
     */
    const citationsOf = (projectId: number, filter: CitationFilter) => {
      const ofResponse = responseConditions(sql, sql`r`, filter)
      return {
        tables: ofResponse.length === 0
          ? sql`citations c`
          : sql`citations c JOIN responses r ON r.id = c.response_id AND r.project_id = c.project_id`,
        where: [
          sql`c.project_id = ${projectId}`,
          ...(filter.responseId === undefined ? [] : [sql`c.response_id = ${filter.responseId}`]),
          ...ofResponse
        ]
      }
    }
    const citationColumns = sql`c.id, c.response_id, c.source_id, c.source_url_id, c.url, c.position, c.created_at`
    const brandsOf = SqlSchema.findAll({
      Request: Schema.Number,
      Result: BrandForDetection,
      execute: (projectId) => sql`SELECT id, name, aliases, domains, classification FROM brands WHERE project_id = ${projectId} ORDER BY id`
    })
    const reanalysisBatch = SqlSchema.findAll({
      Request: Schema.Struct({ projectId: Schema.Number, afterId: Schema.Number, limit: Schema.Number }),
      Result: ReanalysisRow,
      execute: ({ afterId, limit, projectId }) =>
        sql`
          SELECT id, text FROM responses
          WHERE project_id = ${projectId} AND status = 'analyzed' AND id > ${afterId}
          ORDER BY id LIMIT ${limit}`
    })
    const citedDomains = SqlSchema.findAll({
      Request: Schema.Array(Schema.Number),
      Result: CitedDomain,
      // One parameter (an array), however large the batch.
      execute: (responseIds) =>
        sql`
          SELECT c.response_id, s.domain FROM citations c JOIN sources s ON s.id = c.source_id
          WHERE c.response_id = ANY(${responseIds}::bigint[])
          ORDER BY c.response_id, c.position`
    })

    /** Which of these brands and responses of the project exist. */
    const stillThere = SqlSchema.findAll({
      Request: Schema.Struct({ projectId: Schema.Number, brandIds: Schema.Array(Schema.Number), responseIds: Schema.Array(Schema.Number) }),
      Result: Schema.Struct({ kind: Schema.Literal("brand", "response"), id: Id }),
      execute: ({ brandIds, projectId, responseIds }) =>
        sql`
          SELECT 'brand' AS kind, id FROM brands WHERE project_id = ${projectId} AND id = ANY(${brandIds}::bigint[])
          UNION ALL
          SELECT 'response', id FROM responses WHERE project_id = ${projectId} AND id = ANY(${responseIds}::bigint[])`
    })

    return ResponsesRepo.of({
      insertAnalyzed: (projectId, responses) =>
        Effect.gen(function*() {
          if (responses.length === 0) return []
          // The locks in their order (Database/ProjectLocks.ts): the project's lifecycle lock, before any row (a
          // deletion of the project waits for this, or this finds it gone), then the rows the answers refer to,
          // parents first, each kept from its deletion until this commits, or found gone.
          yield* lockProject(sql, projectId)
          const monitorIds = [...new Set(responses.map((r) => r.monitor_id))]
          const present = yield* projectAndMonitors({ projectId, monitorIds })
          if (!present.some((row) => row.kind === "project")) return yield* new NotFound({ resource: "Project" })
          const domains = [...new Set(responses.flatMap((r) => r.citations.map((c) => c.domain)))]
          const urls = new Map(responses.flatMap((r) => r.citations.map((c) => [c.normalized, c.domain] as const)))
          // The prompts and brands, and the sources and URLs that exist already (most, once a project has answers), in one statement.
          const known = yield* knownKeys({
            projectId,
            promptIds: [...new Set(responses.map((r) => r.prompt_id))],
            brandIds: [...new Set(responses.flatMap((r) => r.mentions.map((m) => m.brand_id)))],
            domains,
            urls: [...urls.keys()]
          })
          const idsOf = (rows: ReadonlyArray<typeof KnownKey.Type>, kind: typeof KnownKey.Type["kind"]) =>
            new Set(rows.filter((row) => row.kind === kind).map((row) => row.id))
          const [monitors, prompts, brands] = [idsOf(present, "monitor"), idsOf(known, "prompt"), idsOf(known, "brand")]
          if (responses.some((r) => !monitors.has(r.monitor_id) || !prompts.has(r.prompt_id))) {
            return yield* new NotFound({ resource: "Prompt" })
          }
          const sourceIds = new Map(known.filter((row) => row.kind === "source").map((row) => [row.key, row.id]))
          const urlIds = new Map(known.filter((row) => row.kind === "url").map((row) => [row.key, row.id]))
          const newDomains = domains.filter((domain) => !sourceIds.has(domain))
          if (newDomains.length > 0) {
            for (const [key, id] of yield* upsertIds("sources", projectId, newDomains.map((domain) => ({ project_id: projectId, domain, key: domain })))) {
              sourceIds.set(key, id)
            }
          }
          const newUrls = [...urls].filter(([url]) => !urlIds.has(url))
          if (newUrls.length > 0) {
            const made = yield* upsertIds(
              "source_urls",
              projectId,
              newUrls.map(([url, domain]) => ({ project_id: projectId, source_id: sourceIds.get(domain)!, url, key: url }))
            )
            for (const [key, id] of made) urlIds.set(key, id)
          }
          const stored: Array<Response> = []
          // Analysis ran here, in the application, just before: its clock says when.
          const analyzedAt = new Date()
          for (const chunk of chunks(responses)) {
            stored.push(
              ...yield* insertResponses(chunk.map((r) => ({
                project_id: projectId,
                monitor_id: r.monitor_id,
                prompt_id: r.prompt_id,
                platform: r.platform,
                country: r.country,
                text: r.text,
                status: "analyzed",
                ...storedDetails(r),
                collected_at: r.collected_at,
                analyzed_at: analyzedAt,
                // One instant for the three, as the stored response was analysed and created together.
                created_at: analyzedAt,
                updated_at: analyzedAt
              })))
            )
          }
          // Citations and mentions in one statement, a column an array: one round trip, whatever their number.
          const citations = responses.flatMap((r, i) =>
            r.citations.map((c, index) => ({
              response_id: stored[i]!.id,
              source_id: sourceIds.get(c.domain)!,
              source_url_id: urlIds.get(c.normalized)!,
              url: c.url,
              position: index + 1
            }))
          )
          const mentions = responses.flatMap((r, i) =>
            r.mentions.filter((m) => brands.has(m.brand_id)).map((m) => ({ response_id: stored[i]!.id, ...m }))
          )
          if (citations.length > 0 || mentions.length > 0) {
            yield* sql`
              WITH cited AS (
                INSERT INTO citations (project_id, response_id, source_id, source_url_id, url, position)
                SELECT ${projectId}, * FROM unnest(${citations.map((c) => c.response_id)}::bigint[], ${citations.map((c) => c.source_id)}::bigint[],
                  ${citations.map((c) => c.source_url_id)}::bigint[], ${citations.map((c) => c.url)}::text[],
                  ${citations.map((c) => c.position)}::integer[])
              )
              INSERT INTO brand_mentions (project_id, response_id, brand_id, position, sentiment_score)
              SELECT ${projectId}, * FROM unnest(${mentions.map((m) => m.response_id)}::bigint[], ${mentions.map((m) => m.brand_id)}::bigint[],
                ${mentions.map((m) => m.position)}::integer[], ${mentions.map((m) => m.sentiment_score)}::integer[])`
          }
          return stored
        }).pipe(sql.withTransaction, retryConflicts, orDefect),
      list: (projectId, filter, window, order = defaultResponseOrder) => {
        const from = sql`responses WHERE ${where(projectId, filter)}`
        // The column and direction come from closed lists, never from the request's text.
        const direction = sql.literal(order.direction === "asc" ? "ASC" : "DESC")
        const orderBy = order.by === "id" ? sql`id ${direction}` : sql`collected_at ${direction}, id ${direction}`
        // A page's ids are chosen on the index alone, then its rows (with their texts) are read.
        return findPage(sql, { Result: Row, columns, from, orderBy, keys: { key: sql`responses.id`, from, tables: sql`responses` } }, window)
      },
      listAfter: (projectId, filter, keyset, order) =>
        findKeysetPage(sql, {
          Result: Row,
          columns,
          tables: sql`responses`,
          where: conditions(projectId, filter),
          keyColumns: order.by === "id" ? [[sql`id`, "integer"]] : [[sql`collected_at`, "timestamp"], [sql`id`, "integer"]],
          direction: order.direction,
          keyOf: responseKey(order)
        }, keyset),
      find: (projectId, id) => byIds({ projectId, ids: [id] }).pipe(Effect.map(Arr.head), orDefect),
      findMany: (projectId, ids) => (ids.length === 0 ? Effect.succeed([]) : orDefect(byIds({ projectId, ids }))),
      citations: (projectId, filter, window) => {
        const { tables, where } = citationsOf(projectId, filter)
        return findPage(sql, { Result: CitationRow, columns: citationColumns, from: sql`${tables} WHERE ${sql.and(where)}`, orderBy: sql`c.id` }, window)
      },
      citationsAfter: (projectId, filter, keyset) =>
        findKeysetPage(sql, {
          Result: CitationRow,
          columns: citationColumns,
          ...citationsOf(projectId, filter),
          keyColumns: [[sql`c.id`, "integer"]],
          direction: "asc",
          keyOf: citationKey
        }, keyset),
      brandsForDetection: (projectId) => orDefect(brandsOf(projectId)),
      forReanalysis: (projectId, afterId, limit) =>
        Effect.gen(function*() {
          const rows = yield* reanalysisBatch({ projectId, afterId, limit })
          if (rows.length === 0) return []
          const domains = Arr.groupBy(yield* citedDomains(rows.map((row) => row.id)), (row) => String(row.response_id))
          return rows.map((row) => ({ id: row.id, text: row.text, citedDomains: (domains[row.id] ?? []).map((cited) => cited.domain) }))
        }).pipe(orDefect),
      replaceMentions: (projectId, responses) =>
        Effect.gen(function*() {
          if (responses.length === 0) return
          // The project's locks before any row (Database/ProjectLocks.ts): the mention triggers change the
          // rollups. No deletion runs while the rollup lock is held: the brands and responses found here
          // stay, and those deleted since they were read are left out, as their deletion took their mentions.
          yield* lockProject(sql, projectId, { rollups: true })
          const present = yield* stillThere({
            projectId,
            brandIds: [...new Set(responses.flatMap((r) => r.mentions.map((m) => m.brand_id)))],
            responseIds: responses.map((r) => r.responseId)
          })
          const brands = new Set(present.filter((row) => row.kind === "brand").map((row) => row.id))
          const kept = new Set(present.filter((row) => row.kind === "response").map((row) => row.id))
          const responseIds = responses.map((r) => r.responseId).filter((id) => kept.has(id))
          const mentions = responses.filter((r) => kept.has(r.responseId)).flatMap((r) =>
            r.mentions.filter((m) => brands.has(m.brand_id)).map(({ brand_id, position, sentiment_score }) => ({
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
        }).pipe(sql.withTransaction, orDefect)
    })
  })
)
