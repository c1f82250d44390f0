import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { decodeRows, orDefect, rowOf } from "../Database/Rows.ts"
import { Timestamp } from "../Domain/Common.ts"
import { type Platform, Platform as PlatformSchema, platforms as allPlatforms } from "../Domain/Platform.ts"
import { MemoryStore } from "../Memory/Store.ts"

/**
 * The collector's workers as the database knows them: each collector process records a heartbeat with
 * the platforms it answers, so that any process (an API without a collector of its own) can tell which
 * platforms no worker can answer, and why (docs/collector.md, "Workers and their heartbeats").
 */

/** How often a collector process records its heartbeat. */
export const HEARTBEAT_MS = 15_000
/** A worker whose last heartbeat is older than this is taken for gone. */
export const ALIVE_MS = 60_000
/** Heartbeats older than this are deleted (a worker killed without a word leaves its row). */
const FORGET_MS = 24 * 60 * 60 * 1000

/** What a collector process answers: the ground of every "can a worker answer this job?". */
export interface WorkerCapabilities {
  /** The platforms it asks with a provider key, for the jobs of monitors that are not simulated. */
  readonly providers: ReadonlyArray<Platform>
  /** The platforms it answers with the simulated platform, for the jobs of simulated monitors only. */
  readonly simulated: ReadonlyArray<Platform>
}

export interface WorkerBeat extends WorkerCapabilities {
  /** Random, one per process. */
  readonly id: string
  readonly startedAt: Date
}

export interface SeenWorker extends WorkerBeat {
  readonly lastSeenAt: Date
}

export interface WorkersStatus {
  /** The workers whose heartbeat is at most ALIVE_MS old. */
  readonly alive: ReadonlyArray<SeenWorker>
  /** The latest heartbeat of any worker still remembered, alive or not. */
  readonly lastHeartbeatAt: Date | null
}

export class WorkersRepo extends Context.Tag("WorkersRepo")<WorkersRepo, {
  /** Records the worker's heartbeat (its row made or refreshed), and forgets workers silent for a day. */
  readonly beat: (worker: WorkerBeat, now: Date) => Effect.Effect<void>
  /** The worker stops: its row goes at once rather than after ALIVE_MS. */
  readonly leave: (id: string) => Effect.Effect<void>
  readonly status: (now: Date) => Effect.Effect<WorkersStatus>
}>() {}

// --- What the live workers can answer -------------------------------------------------------------

export interface Coverage {
  readonly workers: number
  readonly providers: ReadonlySet<Platform>
  readonly simulated: ReadonlySet<Platform>
}

export const coverageOf = (alive: ReadonlyArray<WorkerCapabilities>): Coverage => ({
  workers: alive.length,
  providers: new Set(alive.flatMap((worker) => worker.providers)),
  simulated: new Set(alive.flatMap((worker) => worker.simulated))
})

export const NO_WORKER_REASON = "no collector worker is running"

/**
 * Why no live worker answers a pending job of `platform`, or undefined when one does. A job of a
 * simulated monitor needs a worker that simulates the platform; any other job a worker with its key.
 */
export const blockReason = (platform: Platform, simulated: boolean, coverage: Coverage): string | undefined => {
  if (coverage.workers === 0) return NO_WORKER_REASON
  if (simulated) return coverage.simulated.has(platform) ? undefined : `simulation is off for ${platform} in every running worker`
  return coverage.providers.has(platform) ? undefined : `no provider key for ${platform}`
}

export interface BlockedPlatform {
  readonly platform: Platform
  readonly reason: string
}

/** The platforms of a run's pending jobs that no live worker answers, in the platforms' order, with why. */
export const blockedPlatforms = (
  pending: { readonly real: ReadonlyArray<Platform>; readonly simulated: ReadonlyArray<Platform> },
  coverage: Coverage
): ReadonlyArray<BlockedPlatform> =>
  allPlatforms.flatMap((platform) => {
    const reasons = [
      pending.real.includes(platform) ? blockReason(platform, false, coverage) : undefined,
      pending.simulated.includes(platform) ? blockReason(platform, true, coverage) : undefined
    ].filter((reason): reason is string => reason !== undefined)
    return reasons.length === 0 ? [] : [{ platform, reason: [...new Set(reasons)].join("; ") }]
  })

// --- Storage --------------------------------------------------------------------------------------

const WorkerRow = rowOf(Schema.Struct({
  id: Schema.String,
  providers: Schema.Array(PlatformSchema),
  simulated: Schema.Array(PlatformSchema),
  started_at: Timestamp,
  last_seen_at: Timestamp
}))

export const layerSql = Layer.effect(
  WorkersRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return WorkersRepo.of({
      beat: (worker, now) =>
        Effect.gen(function*() {
          yield* sql`
            INSERT INTO collector_workers (id, providers, simulated, started_at, last_seen_at)
            VALUES (${worker.id}, ${worker.providers}::varchar[], ${worker.simulated}::varchar[], ${worker.startedAt}, ${now})
            ON CONFLICT (id) DO UPDATE SET providers = excluded.providers, simulated = excluded.simulated,
              last_seen_at = excluded.last_seen_at`
          yield* sql`DELETE FROM collector_workers WHERE last_seen_at < ${new Date(now.getTime() - FORGET_MS)}`
        }).pipe(orDefect),
      leave: (id) => sql`DELETE FROM collector_workers WHERE id = ${id}`.pipe(Effect.asVoid, orDefect),
      status: (now) =>
        decodeRows(WorkerRow, sql`SELECT id, providers, simulated, started_at, last_seen_at FROM collector_workers ORDER BY id`).pipe(
          Effect.map((rows) => statusOf(rows.map(seenOf), now)),
          orDefect
        )
    })
  })
)

const seenOf = (row: typeof WorkerRow.Type): SeenWorker => ({
  id: row.id,
  providers: row.providers,
  simulated: row.simulated,
  startedAt: row.started_at,
  lastSeenAt: row.last_seen_at
})

const statusOf = (workers: ReadonlyArray<SeenWorker>, now: Date): WorkersStatus => {
  const latest = Math.max(...workers.map((worker) => worker.lastSeenAt.getTime()))
  return {
    alive: workers.filter((worker) => worker.lastSeenAt.getTime() >= now.getTime() - ALIVE_MS),
    lastHeartbeatAt: workers.length === 0 ? null : new Date(latest)
  }
}

export const layerMemory = Layer.effect(
  WorkersRepo,
  Effect.map(MemoryStore, (db) =>
    WorkersRepo.of({
      beat: (worker, now) =>
        Effect.sync(() => {
          db.table("collector_workers").set(worker.id, { ...worker, lastSeenAt: now })
          for (const [id, seen] of db.table("collector_workers")) if (seen.lastSeenAt.getTime() < now.getTime() - FORGET_MS) db.table("collector_workers").delete(id)
        }),
      leave: (id) => Effect.sync(() => void db.table("collector_workers").delete(id)),
      status: (now) => Effect.sync(() => statusOf([...db.table("collector_workers").values()], now))
    }))
)
