import { Context, Effect, Layer, Option, Redacted } from "effect"
import { hashKey, isUsable, KEY_PATTERN, type ApiKey } from "../Domain/ApiKey.ts"
import { Unauthenticated } from "../Domain/Errors.ts"
import type { Project } from "../Domain/Project.ts"
import { ApiKeysRepo } from "./Repo.ts"

/**
 * Bearer key authentication: the key is looked up by its SHA-256 (the key itself is never stored),
 * revoked and expired keys are refused, and each use is recorded in `last_used_at`. The project a
 * request names comes with the key, in the same statement, when its id is given.
 */
export class KeyAuth extends Context.Tag("KeyAuth")<KeyAuth, {
  readonly authenticate: (
    token: Redacted.Redacted<string>,
    projectId: Option.Option<number>
  ) => Effect.Effect<{ readonly key: ApiKey; readonly project: Option.Option<Project> }, Unauthenticated>
}>() {
  static readonly layer = Layer.effect(
    KeyAuth,
    Effect.gen(function*() {
      const keys = yield* ApiKeysRepo
      return KeyAuth.of({
        authenticate: (token, projectId) =>
          Effect.gen(function*() {
            const value = Redacted.value(token).trim()
            if (!KEY_PATTERN.test(value)) return yield* new Unauthenticated()
            const now = new Date()
            const found = yield* keys.authenticate(hashKey(value), projectId, now)
            if (Option.isNone(found) || !isUsable(found.value.key, now)) return yield* new Unauthenticated()
            return found.value
          })
      })
    })
  )
}
