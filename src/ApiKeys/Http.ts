import { Clock, Effect, Layer, Option, Redacted } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { type ApiKey, generateKey, hashKey, isUsable, KEY_PATTERN, keyPrefix, withinReach } from "../Domain/ApiKey.ts"
import { NotFound, Unauthenticated, ValidationError } from "../Domain/Errors.ts"
import { CurrentKey, keyGone } from "../Http/Authorize.ts"
import { scopeOf } from "../Http/ProjectContext.ts"
import { KeyAuth } from "../Http/Ports.ts"
import { paginated } from "../Http/Responses.ts"
import { ProjectsRepo } from "../Projects/Repo.ts"
import type { ApiKeyRecord } from "./Api.ts"
import { ApiKeysRepo } from "./Repo.ts"
import { ApiKeysApi } from "./Api.ts"
import * as Area from "../Area.ts"
import * as ApiKeysMemory from "./RepoMemory.ts"
import * as ApiKeysSql from "./Repo.ts"

/** A key as the API shows it: everything but its hash. */
const recordOf = ({ organization_id: _, ...key }: ApiKey): ApiKeyRecord => ({ ...key, revoked: key.revoked_at !== null })

const notGranted = "The key may not grant what it does not have itself."

export const ApiKeysLive = ApiGroup.group(ApiKeysApi, (handlers) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeysRepo
    const projects = yield* ProjectsRepo

    /** The organization's keys this key could have made, by id. */
    const reachable = Effect.flatMap(CurrentKey, (current) =>
      Effect.map(keys.listByOrganization(current.organization_id), (all) => all.filter((key) => withinReach(current, key))))

    return handlers
      .handle("list", ({ urlParams }) =>
        paginated(urlParams, (window) =>
          Effect.map(reachable, (all) => ({ total: all.length, rows: all.slice(window.offset, window.offset + window.limit).map(recordOf) }))))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const current = yield* CurrentKey
          const now = yield* Clock.currentTimeMillis
          // Unset, the new key takes the creating key's own limits, so a limited key makes limited keys.
          const wanted = {
            abilities: [...new Set(payload.abilities)],
            project_ids: payload.project_ids === undefined ? current.project_ids : payload.project_ids && [...new Set(payload.project_ids)],
            expires_at: payload.expires_at === undefined ? current.expires_at : payload.expires_at
          }
          const errors: Record<string, Array<string>> = {}
          payload.abilities.forEach((ability, index) => {
            if (!withinReach(current, { ...current, abilities: [ability] })) errors[`abilities.${index}`] = [notGranted]
          })
          if (wanted.project_ids !== null) {
            const own = new Set((yield* projects.listAll(scopeOf(current))).map((project) => project.id))
            wanted.project_ids.forEach((id, index) => {
              if (!own.has(id)) errors[`project_ids.${index}`] = [`The selected project_ids.${index} is invalid.`]
            })
          } else if (current.project_ids !== null) {
            errors.project_ids = [notGranted]
          }
          if (wanted.expires_at !== null && wanted.expires_at.getTime() <= now) {
            errors.expires_at = ["The expires at field must be a date in the future."]
          } else if (!withinReach(current, { ...current, expires_at: wanted.expires_at })) {
            errors.expires_at = [notGranted]
          }
          if (Object.keys(errors).length > 0) return yield* new ValidationError({ errors })
          // The key exists only in this answer: the database gets its hash (for lookups) and its prefix (for display).
          const key = generateKey()
          const stored = yield* keys.create({
            organization_id: current.organization_id,
            name: payload.name,
            key_hash: hashKey(key),
            prefix: keyPrefix(key),
            ...wanted
          }).pipe(
            Effect.catchTag("TooManyKeys", (error) => ValidationError.field("api_keys", error.message)),
            // The organization was deleted while the request ran, and the key with it: what its next request is told.
            Effect.catchTag("NotFound", () => keyGone)
          )
          return { data: { ...recordOf(stored), key } }
        }))
      .handle("revoke", ({ path }) =>
        Effect.gen(function*() {
          const target = (yield* reachable).find((key) => key.id === path.api_key)
          if (target === undefined) return yield* new NotFound({ resource: "API key" })
          yield* keys.revoke(target.id)
        }))
  }))

/**
 * Bearer key authentication for the key middleware (Http/Ports.ts): the key is looked up by its SHA-256
 * (the key itself is never stored), revoked and expired keys are refused, and each use is recorded in
 * `last_used_at`. The project a request names comes with the key, in the same statement, when its id is given.
 */
export const KeyAuthLive = Layer.effect(
  KeyAuth,
  Effect.map(ApiKeysRepo, (keys) =>
    KeyAuth.of({
      authenticate: (token, projectId) =>
        Effect.gen(function*() {
          const value = Redacted.value(token).trim()
          if (!KEY_PATTERN.test(value)) return yield* new Unauthenticated()
          const now = new Date()
          const found = yield* keys.authenticate(hashKey(value), projectId, now)
          if (Option.isNone(found) || !isUsable(found.value.key, now)) return yield* new Unauthenticated()
          return found.value
        })
    }))
)

/** The organization's API keys. */
export const ApiKeysArea = Area.make({
  groups: [ApiKeysApi],
  handlers: ApiKeysLive,
  repositories: [Area.repository(ApiKeysRepo, { sql: ApiKeysSql.layerSql, memory: ApiKeysMemory.layerMemory })],
  abilities: ["keys:manage"]
})
