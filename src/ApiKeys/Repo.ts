import { SqlClient, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { orDefect, rowOf } from "../Database/Rows.ts"
import { ApiKey, isUsable, isUseDue, MAX_ACTIVE_KEYS, TooManyKeys } from "../Domain/ApiKey.ts"
import { Id } from "../Domain/Common.ts"
import { NotFound } from "../Domain/Errors.ts"
import { Project } from "../Domain/Project.ts"
import { type KeyAndProject, KeyCache } from "./KeyCache.ts"

export interface NewApiKey {
  readonly organization_id: number
  readonly name: string
  readonly key_hash: string
  readonly prefix: string
  readonly abilities: ReadonlyArray<string>
  readonly project_ids: ReadonlyArray<number> | null
  readonly expires_at: Date | null
}

export class ApiKeysRepo extends Context.Tag("ApiKeysRepo")<ApiKeysRepo, {
  /**
   * What authenticating a request needs, in one statement: the key of this hash, the project of
   * `projectId` within its reach, and the key's use recorded (at most once a minute, only for a usable
   * key, at `at`). A key in the `KeyCache` costs no statement.
   */
  readonly authenticate: (hash: string, projectId: Option.Option<number>, at: Date) => Effect.Effect<Option.Option<KeyAndProject>>
  /**
   * Makes a key, unless its organization already holds `MAX_ACTIVE_KEYS` active ones (exactly, whatever
   * runs at the same time), or is gone.
   */
  readonly create: (key: NewApiKey) => Effect.Effect<ApiKey, TooManyKeys | NotFound>
  readonly findByHash: (hash: string) => Effect.Effect<Option.Option<ApiKey>>
  /** Records a use; at most once a minute per key, so reads do not turn into a write each. */
  readonly touch: (id: number, at: Date) => Effect.Effect<void>
  readonly listByOrganization: (organizationId: number) => Effect.Effect<ReadonlyArray<ApiKey>>
  /** False when there is no such key. Revoking twice keeps the first revocation time. */
  readonly revoke: (id: number) => Effect.Effect<boolean>
}>() {}

const Row = rowOf(ApiKey)

/** A key row with the project it names, as JSON (timestamps as text: decoded as the API reads a project). */
const KeyWithProject = Schema.extend(Row, Schema.Struct({ project: Schema.NullOr(Project) }))

export const layerSql = Layer.effect(
  ApiKeysRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const cache = yield* KeyCache
    const columns = sql`id, organization_id, name, prefix, abilities, project_ids, expires_at, revoked_at, last_used_at, created_at`
    const insert = SqlSchema.single({
      Request: Schema.Any as Schema.Schema<NewApiKey>,
      Result: Row,
      execute: (key) =>
        sql`
          INSERT INTO api_keys (organization_id, name, key_hash, prefix, abilities, project_ids, expires_at)
          VALUES (${key.organization_id}, ${key.name}, ${key.key_hash}, ${key.prefix}, ${key.abilities},
                  ${key.project_ids}, ${key.expires_at})
          RETURNING ${columns}`
    })
    const byHash = SqlSchema.findOne({
      Request: Schema.String,
      Result: Row,
      execute: (hash) => sql`SELECT ${columns} FROM api_keys WHERE key_hash = ${hash}`
    })
    const ofOrganization = SqlSchema.findAll({
      Request: Schema.Number,
      Result: Row,
      execute: (organizationId) => sql`SELECT ${columns} FROM api_keys WHERE organization_id = ${organizationId} ORDER BY id`
    })
    const revoked = SqlSchema.findOne({
      Request: Schema.Number,
      Result: Schema.Struct({ id: Id }),
      execute: (id) => sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()), updated_at = now() WHERE id = ${id} RETURNING id`
    })
    const keyWithProject = SqlSchema.findOne({
      Request: Schema.Struct({ hash: Schema.String, projectId: Schema.NullOr(Schema.Number), at: Schema.DateFromSelf }),
      Result: KeyWithProject,
      execute: ({ at, hash, projectId }) =>
        sql`
          WITH k AS (SELECT ${columns} FROM api_keys WHERE key_hash = ${hash}),
          touched AS (
            UPDATE api_keys SET last_used_at = ${at}
            WHERE id = (SELECT id FROM k) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${at})
              AND (last_used_at IS NULL OR last_used_at < ${at}::timestamptz - interval '1 minute')
          )
          SELECT k.*, ${projectId === null ? sql`NULL` : sql`(
            SELECT to_jsonb(p) FROM projects p
            WHERE p.id = ${projectId} AND p.organization_id = k.organization_id AND (k.project_ids IS NULL OR p.id = ANY(k.project_ids))
          )`} AS project
          FROM k`
    })

    return ApiKeysRepo.of({
      authenticate: (hash, projectId, at) =>
        Effect.suspend(() => {
          const cached = cache.find(hash, projectId, at.getTime())
          // A cached entry is at most seconds old (KEY_CACHE_SECONDS): its key's use, recorded when it
          // was read, is recent enough for the minute `last_used_at` is precise to.
          if (cached !== undefined) return Effect.succeed(Option.some(cached))
          const generation = cache.generation()
          return keyWithProject({ hash, projectId: Option.getOrNull(projectId), at }).pipe(
            Effect.map(Option.map(({ project, ...key }): KeyAndProject => ({ key, project: Option.fromNullable(project) }))),
            Effect.tap(Option.match({
              onNone: () => undefined,
              // Kept as the statement left it: its use recorded (the answer shows the key as it was before).
              onSome: (found) =>
                cache.keep(
                  hash,
                  projectId,
                  isUsable(found.key, at) && isUseDue(found.key, at) ? { ...found, key: { ...found.key, last_used_at: at } } : found,
                  generation,
                  at.getTime()
                )
            })),
            orDefect
          )
        }),
      create: (key) =>
        Effect.gen(function*() {
          // Key creations of one organization run one after the other, so that each counts the others'
          // keys. NO KEY UPDATE: the foreign-key checks of inserts that name the organization (its
          // projects) do not wait for it.
          const organization = yield* sql`SELECT id FROM organizations WHERE id = ${key.organization_id} FOR NO KEY UPDATE`
          if (organization.length === 0) return yield* new NotFound({ resource: "Organization" })
          const [active] = yield* sql<{ n: number }>`
            SELECT count(*)::int AS n FROM api_keys
            WHERE organization_id = ${key.organization_id} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`
          if (active!.n >= MAX_ACTIVE_KEYS) return yield* new TooManyKeys({ organizationId: key.organization_id })
          return yield* insert(key)
        }).pipe(sql.withTransaction, orDefect),
      findByHash: (hash) => orDefect(byHash(hash)),
      touch: (id, at) =>
        sql`
          UPDATE api_keys SET last_used_at = ${at}
          WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${at}::timestamptz - interval '1 minute')`.pipe(
          Effect.asVoid,
          orDefect
        ),
      listByOrganization: (organizationId) => orDefect(ofOrganization(organizationId)),
      revoke: (id) =>
        revoked(id).pipe(
          Effect.map((row) => row._tag === "Some"),
          Effect.ensuring(Effect.sync(cache.forget)),
          orDefect
        )
    })
  })
)
