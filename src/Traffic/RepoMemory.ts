import { Effect, Layer, Option, Ref } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import type { ProjectTable } from "../Database/ProjectTable.ts"
import { NotFound } from "../Domain/Errors.ts"
import { byId, MemoryStore, pageOf } from "../Memory/Store.ts"
import type { IngestReport } from "./Ingest.ts"
import { TrafficRepo, TrafficRollupsRepo } from "./Repo.ts"
import type { NewTrafficSource, TrafficSource, TrafficUpload } from "./Sources.ts"
import { emptyRollup, mergeRollups, type Rollup } from "./Rollup.ts"

export const TrafficRollupsRepoMemory = Layer.effect(
  TrafficRollupsRepo,
  Effect.gen(function*() {
    const store = yield* Ref.make(new Map<number, Rollup>())
    return {
      record: (source, rollup) =>
        Ref.update(store, (map) => new Map(map).set(source, mergeRollups(map.get(source) ?? emptyRollup, rollup))),
      read: (source) => Ref.get(store).pipe(Effect.map((map) => map.get(source) ?? emptyRollup))
    }
  })
)

/** A day within `[start, end]` (YYYY-MM-DD strings compare as dates). */
const inRange = (day: string, range: { readonly start: string; readonly end: string }) => day >= range.start && day <= range.end

/** The in-memory TrafficRepo: the reference the SQL one is held to. Sources of a deleted project go with it. */
export const TrafficRepoMemory = Layer.effect(
  TrafficRepo,
  Effect.map(MemoryStore, (db) => {
    const sources = new Map<number, TrafficSource>()
    const uploads = new Map<number, TrafficUpload>()
    const rollups = new Map<number, Rollup>()
    let sourceSeq = 0
    let uploadSeq = 0
    /** A source whose project is gone is gone too (the SQL cascade). */
    const live = (source: TrafficSource | undefined) => source !== undefined && db.table("projects").has(source.project_id) ? source : undefined
    const ofProject = (projectId: number) => byId([...sources.values()].filter((source) => source.project_id === projectId && live(source) !== undefined))
    const table: ProjectTable<TrafficSource, NewTrafficSource> = {
      list: (projectId, window) => Effect.sync(() => pageOf(ofProject(projectId), window)),
      find: (projectId, id) => Effect.sync(() => Option.fromNullable(ofProject(projectId).find((source) => source.id === id))),
      findMany: (projectId, ids) => Effect.sync(() => ofProject(projectId).filter((source) => ids.includes(source.id))),
      existing: (projectId, ids) => Effect.sync(() => ofProject(projectId).filter((source) => ids.includes(source.id)).map((source) => source.id)),
      create: (projectId, values) =>
        Effect.suspend(() => {
          if (!db.table("projects").has(projectId)) return Effect.fail(new NotFound({ resource: "Project" }))
          const now = db.now()
          const source: TrafficSource = { id: ++sourceSeq, project_id: projectId, ...values, created_at: now, updated_at: now }
          sources.set(source.id, source)
          return Effect.succeed(source)
        }),
      update: (id, patch) =>
        Effect.suspend(() => {
          const current = live(sources.get(id))
          if (current === undefined) return Effect.fail(new NotFound({ resource: "Traffic source" }))
          const changes = changesOf(patch)
          if (isEmpty(changes)) return Effect.succeed(current)
          const updated = { ...current, ...changes, updated_at: db.now() } as TrafficSource
          sources.set(id, updated)
          return Effect.succeed(updated)
        }),
      get: (id) =>
        Effect.suspend(() => {
          const source = live(sources.get(id))
          return source === undefined ? Effect.fail(new NotFound({ resource: "Traffic source" })) : Effect.succeed(source)
        }),
      delete: (id) =>
        Effect.sync(() => {
          sources.delete(id)
          rollups.delete(id)
          for (const upload of [...uploads.values()]) if (upload.source_id === id) uploads.delete(upload.id)
        })
    }
    const update = (uploadId: number, change: (upload: TrafficUpload) => TrafficUpload) => {
      const upload = uploads.get(uploadId)
      if (upload !== undefined && live(sources.get(upload.source_id)) !== undefined) uploads.set(uploadId, change(upload))
    }
    return {
      sources: table,
      sourceById: (id) => Effect.sync(() => Option.fromNullable(live(sources.get(id)))),
      beginUpload: (sourceId, sha256, bytes) =>
        Effect.suspend((): Effect.Effect<{ readonly upload: TrafficUpload; readonly fresh: boolean }, NotFound> => {
          if (live(sources.get(sourceId)) === undefined) return Effect.fail(new NotFound({ resource: "Traffic source" }))
          const seen = [...uploads.values()].find((upload) => upload.source_id === sourceId && upload.sha256 === sha256)
          if (seen !== undefined && seen.status !== "failed") return Effect.succeed({ upload: seen, fresh: false })
          const upload: TrafficUpload = {
            ...(seen ?? emptyUpload(++uploadSeq, sourceId, sha256, bytes, db.now())),
            status: "processing",
            error: null
          }
          uploads.set(upload.id, upload)
          return Effect.succeed({ upload, fresh: true })
        }),
      findUpload: (sourceId, uploadId) =>
        Effect.sync(() => {
          const upload = uploads.get(uploadId)
          return Option.fromNullable(upload?.source_id === sourceId && live(sources.get(sourceId)) !== undefined ? upload : undefined)
        }),
      completeUpload: (uploadId, { report, rollup }) =>
        Effect.sync(() => {
          const upload = uploads.get(uploadId)
          if (upload === undefined || live(sources.get(upload.source_id)) === undefined) return
          rollups.set(upload.source_id, mergeRollups(rollups.get(upload.source_id) ?? emptyRollup, rollup))
          update(uploadId, (current) => ({ ...current, ...reportColumns(report), status: "completed", completed_at: db.now() }))
        }),
      failUpload: (uploadId, message) =>
        Effect.sync(() => update(uploadId, (current) => ({ ...current, status: "failed", error: message, completed_at: db.now() }))),
      rollup: (sourceId) => Effect.sync(() => rollups.get(sourceId) ?? emptyRollup),
      projectRows: (projectId, range, sourceIds) =>
        Effect.sync(() => {
          const chosen = ofProject(projectId).filter((source) => sourceIds === undefined || sourceIds.includes(source.id))
          const parts = chosen.map((source) => rollups.get(source.id) ?? emptyRollup)
          return {
            totals: parts.flatMap((part) => part.totals.filter((row) => inRange(row.day, range))),
            agentHits: parts.flatMap((part) => part.agentHits.filter((row) => inRange(row.day, range))),
            unknownBots: parts.flatMap((part) => part.unknownBots.filter((row) => inRange(row.day, range))),
            referrals: parts.flatMap((part) => part.referrals.filter((row) => inRange(row.day, range)))
          }
        })
    }
  })
)

/** A new upload's row, before its log is read. */
export const emptyUpload = (id: number, sourceId: number, sha256: string, bytes: number, now: Date): TrafficUpload => ({
  id,
  source_id: sourceId,
  status: "processing",
  sha256,
  bytes,
  lines: 0,
  parsed: 0,
  ignored: 0,
  unparsed: 0,
  filtered: 0,
  own: 0,
  agent_hits: 0,
  unknown_bot_hits: 0,
  referral_visits: 0,
  first_time: null,
  last_time: null,
  error: null,
  created_at: now,
  completed_at: null
})

/** An upload's counts, from its log's report. */
export const reportColumns = (report: IngestReport) => ({
  lines: report.lines,
  parsed: report.parsed,
  ignored: report.ignored,
  unparsed: report.unparsed,
  filtered: report.filtered,
  own: report.own,
  agent_hits: report.agentHits,
  unknown_bot_hits: report.unknownBotHits,
  referral_visits: report.referralVisits,
  first_time: report.firstTime === null ? null : new Date(report.firstTime),
  last_time: report.lastTime === null ? null : new Date(report.lastTime)
})
