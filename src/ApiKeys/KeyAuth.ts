import { Context, Effect, Layer, Option, Redacted } from "effect"
import { hashKey, isUsable, KEY_PATTERN, type ApiKey } from "../Domain/ApiKey.ts"
import { Unauthenticated } from "../Domain/Errors.ts"
import { ApiKeysRepo } from "./Repo.ts"

/**
 * Bearer key authentication: the key is looked up by its SHA-256 (the key itself is never stored),
 * revoked and expired keys are refused, and each use is recorded in `last_used_at`.
 */
export class KeyAuth extends Context.Tag("KeyAuth")<KeyAuth, {
  readonly authenticate: (token: Redacted.Redacted<string>) => Effect.Effect<ApiKey, Unauthenticated>
}>() {
  static readonly layer = Layer.effect(
    KeyAuth,
    Effect.gen(function*() {
      const keys = yield* ApiKeysRepo
      return KeyAuth.of({
        authenticate: (token) =>
          Effect.gen(function*() {
            const value = Redacted.value(token).trim()
            if (!KEY_PATTERN.test(value)) return yield* new Unauthenticated()
            const now = new Date()
            const key = yield* keys.findByHash(hashKey(value)).pipe(Effect.orDie)
            if (Option.isNone(key) || !isUsable(key.value, now)) return yield* new Unauthenticated()
            // A failed bookkeeping write must not fail the request it records.
            yield* keys.touch(key.value.id, now).pipe(
              Effect.catchAll((error) => Effect.logWarning("could not record key use", error))
            )
            return key.value
          })
      })
    })
  )
}
