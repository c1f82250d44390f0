import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import pg from "pg"
import { randomUUID } from "node:crypto"
import type { ApiKey } from "../Domain/ApiKey.ts"
import type { Project } from "../Domain/Project.ts"
import { Settings } from "../Config.ts"

/** A key as authentication found it, with the project the request named when the key reaches it. */
export interface KeyAndProject {
  readonly key: ApiKey
  /** Looked up only when a project id was given: none when the key may not act in it. */
  readonly project: Option.Option<Project>
}

/**
 * Keys found by their hash, with the projects they were asked for, kept in this process so that an
 * authenticated request sends no statement for its key: on PostgreSQL, that is one round trip of the
 * two a simple GET needs (docs/performance.md, "Where the time goes").
 *
 * A cached key is only as good as the news of its changes. The cache is kept only while a connection
 * of its own LISTENs on `bvm_auth_changed` and has heard there its own probe, sent on another
 * connection. Migration 0009 notifies that channel whenever a key's rights change (revoked, expiry,
 * abilities, projects), a key is deleted, or a project is changed or deleted, whichever process or tool
 * made the change; every notification empties the cache. While that connection is down, nothing is
 * cached. What this process changes itself it forgets at once (`forget`), before it answers, and an
 * entry is never older than `KEY_CACHE_SECONDS` (10) in any case. On the embedded database (one
 * session for every client: notifications reach none reliably), or with `KEY_CACHE_SECONDS=0`, the
 * cache is off.
 */
export class KeyCache extends Context.Tag("KeyCache")<KeyCache, {
  /** The cached key of this hash, with the project of `projectId` (required when given). */
  readonly find: (hash: string, projectId: Option.Option<number>, now: number) => KeyAndProject | undefined
  /**
   * The cache's generation: read it before looking a key up in the database, and give it to `keep`, so
   * that what was read before a change is not kept after it.
   */
  readonly generation: () => number
  /** Keeps a key found in the database (and its project, when one was asked for and reached). */
  readonly keep: (hash: string, projectId: Option.Option<number>, found: KeyAndProject, generation: number, now: number) => void
  /** Empties the cache: a key or a project changed. */
  readonly forget: () => void
}>() {
  /** No cache: every request reads its key (the embedded database, the in-memory tests). */
  static readonly off = Layer.succeed(KeyCache, {
    find: () => undefined,
    generation: () => 0,
    keep: () => undefined,
    forget: () => undefined
  })

  /**
   * On a PostgreSQL server (a client made from a connection URL), the listening cache, its entries
   * trusted for `KEY_CACHE_SECONDS` at most; else, or when that is 0, off.
   */
  static readonly layer = Layer.unwrapEffect(
    Effect.gen(function*() {
      const { keyCacheSeconds } = yield* Settings
      const client = yield* Effect.serviceOption(PgClient.PgClient)
      const url = Option.flatMap(client, (client) => Option.fromNullable(client.config.url))
      return Option.isNone(url) || keyCacheSeconds === 0 ? KeyCache.off : listening(url.value, keyCacheSeconds * 1000)
    })
  )
}

/** Beyond this many keys, the cache starts over: memory stays bounded whatever the traffic. */
const MAX_KEYS = 10_000

/** The wait before listening again after the connection was lost. */
const RECONNECT_MS = 1_000

/** How long the listener may take to hear its own probe before it is given up and made again. */
const PROBE_TIMEOUT_MS = 5_000

/** The channel migration 0009's triggers notify. */
const CHANNEL = "bvm_auth_changed"

interface Entry {
  readonly key: ApiKey
  readonly projects: Map<number, Project>
  readonly storedAt: number
}

const listening = (url: Redacted.Redacted, maxAgeMs: number) =>
  Layer.scoped(
    KeyCache,
    Effect.gen(function*() {
      const entries = new Map<string, Entry>()
      let generation = 0
      let connected = false
      let closed = false
      let client: pg.Client | undefined
      let retry: ReturnType<typeof setTimeout> | undefined

      const forget = () => {
        entries.clear()
        generation++
      }

      /** Closes a connection that is no longer listened to, whatever it then reports. */
      const drop = (dropped: pg.Client) => {
        dropped.removeAllListeners()
        dropped.on("error", () => undefined)
        return dropped.end().catch(() => undefined)
      }

      const lost = (lostClient: pg.Client) => {
        if (client !== lostClient) return
        connected = false
        client = undefined
        forget()
        drop(lostClient)
        if (!closed) retry = setTimeout(connect, RECONNECT_MS).unref()
      }

      /**
       * A notification sent on another connection, which the listener must hear before anything is
       * cached: a database or pooler that accepts LISTEN without delivering (PGlite shared through its
       * socket, a pooler in transaction mode) never turns the cache on.
       */
      const probe = async (token: string) => {
        const sender = new pg.Client({ connectionString: Redacted.value(url), application_name: "brand-visibility-monitor (key cache probe)" })
        sender.on("error", () => undefined)
        try {
          await sender.connect()
          await sender.query(`SELECT pg_notify('${CHANNEL}', $1)`, [token])
        } finally {
          await sender.end().catch(() => undefined)
        }
      }

      const connect = () => {
        retry = undefined
        const next = new pg.Client({ connectionString: Redacted.value(url), application_name: "brand-visibility-monitor (key cache)", keepAlive: true })
        const token = `probe ${randomUUID()}`
        let timeout: ReturnType<typeof setTimeout> | undefined
        client = next
        next.on("notification", (message) => {
          // Every notification empties the cache; its own probe's turns it on.
          forget()
          if (message.payload === token && client === next && !connected) {
            clearTimeout(timeout)
            connected = true
          }
        })
        next.on("error", () => lost(next))
        next.on("end", () => lost(next))
        next.connect()
          .then(() => next.query<{ version: string }>("SELECT version() AS version"))
          .then(async (result) => {
            // The embedded database serves one session to every client: notifications reach none reliably.
            if (result.rows[0]?.version.includes("PGlite")) {
              closed = true
              client = undefined
              drop(next)
              return
            }
            await next.query(`LISTEN ${CHANNEL}`)
            timeout = setTimeout(() => lost(next), PROBE_TIMEOUT_MS).unref()
            await probe(token)
          })
          .catch(() => lost(next))
      }

      connect()
      yield* Effect.addFinalizer(() =>
        Effect.promise(async () => {
          closed = true
          connected = false
          if (retry !== undefined) clearTimeout(retry)
          const last = client
          client = undefined
          if (last !== undefined) await drop(last)
        }).pipe(Effect.timeoutOption(1_000))
      )

      return KeyCache.of({
        find: (hash, projectId, now) => {
          if (!connected) return undefined
          const entry = entries.get(hash)
          if (entry === undefined) return undefined
          if (now - entry.storedAt > maxAgeMs) {
            entries.delete(hash)
            return undefined
          }
          if (Option.isNone(projectId)) return { key: entry.key, project: Option.none() }
          const project = entry.projects.get(projectId.value)
          return project === undefined ? undefined : { key: entry.key, project: Option.some(project) }
        },
        generation: () => generation,
        keep: (hash, projectId, found, at, now) => {
          if (!connected || at !== generation) return
          let entry = entries.get(hash)
          if (entry === undefined || entry.key.id !== found.key.id || now - entry.storedAt > maxAgeMs) {
            if (entries.size >= MAX_KEYS) entries.clear()
            entry = { key: found.key, projects: new Map(), storedAt: now }
            entries.set(hash, entry)
          }
          // A project the key does not reach is not kept: the next request asks again.
          if (Option.isSome(projectId) && Option.isSome(found.project)) entry.projects.set(projectId.value, found.project.value)
        },
        forget
      })
    })
  )
