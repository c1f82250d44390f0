import { SqlClient, SqlSchema } from "@effect/sql"
import { Array as Arr, Effect, Layer, Schema } from "effect"
import * as ProjectTable from "../Database/ProjectTable.ts"
import { orDefect, rowOf } from "../Database/Rows.ts"
import { NotFound } from "../Domain/Errors.ts"
import type { Platform } from "../Domain/Platform.ts"
import type { StatusClass } from "./LogLine.ts"
import { TrafficRepo } from "./Repo.ts"
import { reportColumns } from "./RepoMemory.ts"
import { type Rollup, sortRollup } from "./Rollup.ts"
import { type NewTrafficSource, TrafficSource, TrafficUpload } from "./Sources.ts"
import type { Verdict } from "./Verify.ts"

/** Rows written by one statement: well under PostgreSQL's 65,535 parameters. */
const CHUNK = 2_000

const UploadRow = rowOf(TrafficUpload)

/** A field map as its jsonb column takes it. */
const stored = <P extends { readonly field_map?: unknown }>(values: P): P =>
  (values.field_map === undefined || values.field_map === null ? values : { ...values, field_map: JSON.stringify(values.field_map) }) as P

export const layerSql = Layer.effect(
  TrafficRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const table = yield* ProjectTable.make<TrafficSource, NewTrafficSource>({ table: "traffic_sources", resource: "Traffic source", row: TrafficSource })
    const sources: ProjectTable.ProjectTable<TrafficSource, NewTrafficSource> = {
      ...table,
      create: (projectId, values) => table.create(projectId, stored(values)),
      update: (id, patch) => table.update(id, stored(patch))
    }
    const uploadsWhere = SqlSchema.findAll({
      Request: Schema.Struct({ sourceId: Schema.Number, id: Schema.Number }),
      Result: UploadRow,
      execute: ({ id, sourceId }) => sql`SELECT * FROM traffic_uploads WHERE id = ${id} AND source_id = ${sourceId}`
    })
    const startUpload = SqlSchema.findAll({
      Request: Schema.Struct({ sourceId: Schema.Number, sha256: Schema.String, bytes: Schema.Number }),
      Result: UploadRow,
      // A new file, or one whose upload failed (started again); a file already there returns no row.
      execute: ({ bytes, sha256, sourceId }) =>
        sql`
          INSERT INTO traffic_uploads (source_id, sha256, bytes, status) VALUES (${sourceId}, ${sha256}, ${bytes}, 'processing')
          ON CONFLICT (source_id, sha256) DO UPDATE SET status = 'processing', error = NULL, completed_at = NULL
            WHERE traffic_uploads.status = 'failed'
          RETURNING *`
    })
    const existingUpload = SqlSchema.findAll({
      Request: Schema.Struct({ sourceId: Schema.Number, sha256: Schema.String }),
      Result: UploadRow,
      execute: ({ sha256, sourceId }) => sql`SELECT * FROM traffic_uploads WHERE source_id = ${sourceId} AND sha256 = ${sha256}`
    })

    const readRows = (where: ReturnType<typeof sql.and>) =>
      Effect.gen(function*() {
        const totals = yield* sql<{ day: string; requests: number; html_requests: number }>`
          SELECT t.day::text AS day, t.requests, t.html_requests FROM traffic_totals t JOIN traffic_sources s ON s.id = t.source_id WHERE ${where}`
        const agentHits = yield* sql<{ day: string; agent: string; verdict: Verdict; status_class: StatusClass; page: string; hits: number }>`
          SELECT t.day::text AS day, t.agent, t.verdict, t.status_class, t.page, t.hits
          FROM traffic_agent_hits t JOIN traffic_sources s ON s.id = t.source_id WHERE ${where}`
        const unknownBots = yield* sql<{ day: string; family: string; hits: number; sample_user_agent: string }>`
          SELECT t.day::text AS day, t.family, t.hits, t.sample_user_agent
          FROM traffic_unknown_bots t JOIN traffic_sources s ON s.id = t.source_id WHERE ${where}`
        const referrals = yield* sql<{ day: string; platform: Platform; page: string; visits: number; visitor_hashes: Array<string> }>`
          SELECT t.day::text AS day, t.platform, t.page, t.visits, t.visitor_hashes
          FROM traffic_referrals t JOIN traffic_sources s ON s.id = t.source_id WHERE ${where}`
        return sortRollup({
          totals: totals.map((row) => ({ day: row.day, requests: Number(row.requests), htmlRequests: Number(row.html_requests) })),
          agentHits: agentHits.map((row) => ({
            day: row.day,
            agent: row.agent,
            verdict: row.verdict,
            statusClass: row.status_class,
            page: row.page,
            hits: Number(row.hits)
          })),
          unknownBots: unknownBots.map((row) => ({ day: row.day, family: row.family, hits: Number(row.hits), sampleUserAgent: row.sample_user_agent })),
          referrals: referrals.map((row) => ({
            day: row.day,
            platform: row.platform,
            page: row.page,
            visits: Number(row.visits),
            visitors: row.visitor_hashes.length,
            visitorHashes: [...row.visitor_hashes].sort()
          }))
        }) as Rollup
      }).pipe(orDefect)

    /** Adds a rollup's rows to the source's. */
    const addRollup = (sourceId: number, rollup: Rollup) =>
      Effect.gen(function*() {
        for (const rows of Arr.chunksOf(rollup.totals, CHUNK)) {
          yield* sql`
            INSERT INTO traffic_totals ${sql.insert(rows.map((row) => ({ source_id: sourceId, day: row.day, requests: row.requests, html_requests: row.htmlRequests })))}
            ON CONFLICT (source_id, day) DO UPDATE SET
              requests = traffic_totals.requests + excluded.requests, html_requests = traffic_totals.html_requests + excluded.html_requests`
        }
        for (const rows of Arr.chunksOf(rollup.agentHits, CHUNK)) {
          yield* sql`
            INSERT INTO traffic_agent_hits ${
            sql.insert(rows.map((row) => ({
              source_id: sourceId,
              day: row.day,
              agent: row.agent,
              verdict: row.verdict,
              status_class: row.statusClass,
              page: row.page,
              hits: row.hits
            })))
          }
            ON CONFLICT (source_id, day, agent, verdict, status_class, page) DO UPDATE SET hits = traffic_agent_hits.hits + excluded.hits`
        }
        for (const rows of Arr.chunksOf(rollup.unknownBots, CHUNK)) {
          yield* sql`
            INSERT INTO traffic_unknown_bots ${
            sql.insert(rows.map((row) => ({ source_id: sourceId, day: row.day, family: row.family, hits: row.hits, sample_user_agent: row.sampleUserAgent })))
          }
            ON CONFLICT (source_id, day, family) DO UPDATE SET hits = traffic_unknown_bots.hits + excluded.hits`
        }
        for (const rows of Arr.chunksOf(rollup.referrals, CHUNK)) {
          yield* sql`
            INSERT INTO traffic_referrals ${
            sql.insert(rows.map((row) => ({
              source_id: sourceId,
              day: row.day,
              platform: row.platform,
              page: row.page,
              visits: row.visits,
              visitor_hashes: row.visitorHashes as Array<string>
            })))
          }
            ON CONFLICT (source_id, day, platform, page) DO UPDATE SET
              visits = traffic_referrals.visits + excluded.visits,
              visitor_hashes = ARRAY(SELECT DISTINCT h FROM unnest(traffic_referrals.visitor_hashes || excluded.visitor_hashes) AS h ORDER BY h)`
        }
      })

    return {
      sources,
      sourceById: (id) => Effect.map(sql<{ project_id: number }>`SELECT project_id FROM traffic_sources WHERE id = ${id}`, Arr.head).pipe(
        Effect.flatMap((row) => row._tag === "None" ? Effect.succeedNone : sources.find(Number(row.value.project_id), id)),
        orDefect
      ),
      beginUpload: (sourceId, sha256, bytes) =>
        Effect.gen(function*() {
          const source = yield* sql`SELECT id FROM traffic_sources WHERE id = ${sourceId} FOR KEY SHARE`
          if (source.length === 0) return yield* new NotFound({ resource: "Traffic source" })
          const [started] = yield* startUpload({ sourceId, sha256, bytes })
          if (started !== undefined) return { upload: started, fresh: true }
          const [existing] = yield* existingUpload({ sourceId, sha256 })
          return { upload: existing!, fresh: false }
        }).pipe(sql.withTransaction, orDefect),
      findUpload: (sourceId, uploadId) => uploadsWhere({ sourceId, id: uploadId }).pipe(Effect.map(Arr.head), orDefect),
      completeUpload: (uploadId, { report, rollup }) =>
        Effect.gen(function*() {
          // The upload locked first: a source deleted meanwhile has taken it (and is not written to).
          const [upload] = yield* sql<{ source_id: number }>`SELECT source_id FROM traffic_uploads WHERE id = ${uploadId} FOR UPDATE`
          if (upload === undefined) return
          yield* addRollup(Number(upload.source_id), rollup)
          yield* sql`
            UPDATE traffic_uploads SET ${sql.update({ ...reportColumns(report), status: "completed" })}, completed_at = now()
            WHERE id = ${uploadId}`
        }).pipe(sql.withTransaction, Effect.asVoid, orDefect),
      failUpload: (uploadId, message) =>
        sql`UPDATE traffic_uploads SET status = 'failed', error = ${message}, completed_at = now() WHERE id = ${uploadId}`.pipe(Effect.asVoid, orDefect),
      rollup: (sourceId) => readRows(sql.and([sql`s.id = ${sourceId}`])),
      projectRows: (projectId, range, sourceIds) =>
        readRows(sql.and([
          sql`s.project_id = ${projectId}`,
          sql`t.day BETWEEN ${range.start}::date AND ${range.end}::date`,
          ...(sourceIds === undefined ? [] : [sourceIds.length === 0 ? sql`false` : sql`s.id IN ${sql.in(sourceIds)}`])
        ]))
    }
  })
)
