import { RateLimiter } from "@effect/experimental"
import * as RedisRateLimiter from "@effect/experimental/RateLimiter/Redis"
import { Context, Duration, Effect, Layer, Option, Redacted } from "effect"
import { Settings } from "../Config.ts"
import { TooManyRequests } from "../Domain/Errors.ts"

export interface Quota {
  readonly limit: number
  readonly remaining: number
}

/**
 * The per-key request budget (decisions.md §3): every request costs 1, whatever its page size, in a
 * fixed one-minute window. Counters live in memory, or in Redis when `REDIS_URL` is set so that
 * several server processes share one budget per key.
 */
export class RequestQuota extends Context.Tag("RequestQuota")<RequestQuota, {
  readonly consume: (keyId: number) => Effect.Effect<Quota, TooManyRequests>
}>() {
  static readonly layer = Layer.effect(
    RequestQuota,
    Effect.gen(function*() {
      const limiter = yield* RateLimiter.RateLimiter
      const { rateLimitPerMinute } = yield* Settings
      return RequestQuota.of({
        consume: (keyId) =>
          limiter.consume({
            key: `api-key:${keyId}`,
            limit: rateLimitPerMinute,
            window: Duration.minutes(1),
            algorithm: "fixed-window",
            onExceeded: "fail"
          }).pipe(
            Effect.map((result) => ({ limit: result.limit, remaining: Math.max(result.remaining, 0) })),
            Effect.catchTags({
              RateLimiterError: (error) =>
                error.reason === "Exceeded"
                  ? Effect.fail(new TooManyRequests({ limit: rateLimitPerMinute, retryAfterSeconds: Math.max(1, Math.ceil(Duration.toSeconds(error.retryAfter))) }))
                  // A broken counter store must not take the API down with it.
                  : Effect.logWarning("rate limit store unavailable; request let through", error.message).pipe(
                    Effect.as({ limit: rateLimitPerMinute, remaining: rateLimitPerMinute })
                  )
            })
          )
      })
    })
  ).pipe(
    Layer.provide(RateLimiter.layer),
    Layer.provide(Layer.unwrapEffect(Effect.map(Settings, (settings) =>
      Option.match(settings.redisUrl, {
        onNone: () => RateLimiter.layerStoreMemory,
        onSome: (url) => RedisRateLimiter.layerStore(redisOptions(Redacted.value(url), settings.redisPrefix))
      })
    )))
  )
}

const redisOptions = (url: string, prefix: string) => {
  const parsed = new URL(url)
  return {
    host: parsed.hostname,
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    prefix
  }
}
