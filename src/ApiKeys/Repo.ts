import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import type { ApiKey } from "../Domain/ApiKey.ts"

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
  readonly create: (key: NewApiKey) => Effect.Effect<ApiKey, SqlError.SqlError>
  readonly findByHash: (hash: string) => Effect.Effect<Option.Option<ApiKey>, SqlError.SqlError>
  /** Records a use; at most once a minute per key, so reads do not turn into a write each. */
  readonly touch: (id: number, at: Date) => Effect.Effect<void, SqlError.SqlError>
  readonly listByOrganization: (organizationId: number) => Effect.Effect<ReadonlyArray<ApiKey>, SqlError.SqlError>
  /** False when there is no such key. Revoking twice keeps the first revocation time. */
  readonly revoke: (id: number) => Effect.Effect<boolean, SqlError.SqlError>
}>() {}

export const layerSql = Layer.effect(
  ApiKeysRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, organization_id, name, prefix, abilities, project_ids, expires_at, revoked_at, last_used_at, created_at`
    return ApiKeysRepo.of({
      create: (key) =>
        sql<ApiKey>`
          INSERT INTO api_keys (organization_id, name, key_hash, prefix, abilities, project_ids, expires_at)
          VALUES (${key.organization_id}, ${key.name}, ${key.key_hash}, ${key.prefix}, ${key.abilities},
                  ${key.project_ids === null ? null : key.project_ids}, ${key.expires_at})
          RETURNING ${columns}`.pipe(Effect.map((rows) => rows[0]!)),
      findByHash: (hash) =>
        sql<ApiKey>`SELECT ${columns} FROM api_keys WHERE key_hash = ${hash}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]))
        ),
      touch: (id, at) =>
        sql`
          UPDATE api_keys SET last_used_at = ${at}
          WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${at}::timestamptz - interval '1 minute')`.pipe(Effect.asVoid),
      listByOrganization: (organizationId) =>
        sql<ApiKey>`SELECT ${columns} FROM api_keys WHERE organization_id = ${organizationId} ORDER BY id`,
      revoke: (id) =>
        sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()), updated_at = now() WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0)
        )
    })
  })
)
