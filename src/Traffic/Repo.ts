import { Context, type Effect, type Option } from "effect"
import type { ProjectTable } from "../Database/ProjectTable.ts"
import type { NotFound } from "../Domain/Errors.ts"
import type { IngestReport } from "./Ingest.ts"
import type { Rollup } from "./Rollup.ts"
import type { NewTrafficSource, TrafficSource, TrafficUpload } from "./Sources.ts"

/**
 * Where a traffic source's rollups are kept. The in-memory layer (RepoMemory.ts) is the reference the
 * database one will be held to.
 */
export class TrafficRollupsRepo extends Context.Tag("TrafficRollupsRepo")<TrafficRollupsRepo, {
  /** Adds a log's rollup to the source's (rows of the same key merged: counts added, visitors united). */
  readonly record: (source: number, rollup: Rollup) => Effect.Effect<void>
  readonly read: (source: number) => Effect.Effect<Rollup>
}>() {}

/** What an upload's row records of its log once read. */
export interface UploadOutcome {
  readonly report: IngestReport
  readonly rollup: Rollup
}

/**
 * A project's traffic sources, their uploads and their rollups (docs/agent-traffic.md). Two
 * implementations: SQL (RepoSql.ts) and in memory (RepoMemory.ts), the reference the SQL one is held to.
 */
export class TrafficRepo extends Context.Tag("TrafficRepo")<TrafficRepo, {
  readonly sources: ProjectTable<TrafficSource, NewTrafficSource>
  /** A source by id, whatever its project (the command-line import). */
  readonly sourceById: (id: number) => Effect.Effect<Option.Option<TrafficSource>>
  /**
   * The upload of this file (by its SHA-256) to the source: a new one in `processing`, or the one it
   * already has. An upload that failed is started again (`fresh`). `NotFound` when the source is gone.
   */
  readonly beginUpload: (sourceId: number, sha256: string, bytes: number) => Effect.Effect<{ readonly upload: TrafficUpload; readonly fresh: boolean }, NotFound>
  readonly findUpload: (sourceId: number, uploadId: number) => Effect.Effect<Option.Option<TrafficUpload>>
  /** Adds the log's rollup to the source's and marks the upload `completed`, in one transaction. */
  readonly completeUpload: (uploadId: number, outcome: UploadOutcome) => Effect.Effect<void>
  /** Marks the upload `failed`; nothing of it is counted. */
  readonly failUpload: (uploadId: number, message: string) => Effect.Effect<void>
  /** The source's rollup: every row of every completed upload, merged. */
  readonly rollup: (sourceId: number) => Effect.Effect<Rollup>
  /**
   * The rollup rows of the project's sources (of `sourceIds` only, when given) whose day is in
   * `[start, end]` (YYYY-MM-DD, inclusive), each source's rows apart.
   */
  readonly projectRows: (
    projectId: number,
    range: { readonly start: string; readonly end: string },
    sourceIds?: ReadonlyArray<number>
  ) => Effect.Effect<Rollup>
}>() {}
