import { RateLimiter } from "@effect/experimental"
import { Context, Data, Duration, Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import { Settings } from "../Config.ts"

/** The key's budget is spent: the next request passes in `retryAfterSeconds`. */
export class QuotaExceeded extends Data.TaggedError("QuotaExceeded")<{
  readonly limit: number
  readonly retryAfterSeconds: number
}> {}

export interface Quota {
  readonly limit: number
  readonly remaining: number
}

/**
 * The per-key request budget: every request costs 1, whatever its page size. A token bucket of
 * `RATE_LIMIT_PER_MINUTE` requests that refills continuously, one request every 60 / limit seconds:
 * a key may burst up to the limit, then goes at the refill rate, and `Retry-After` is the wait until
 * its next request passes, never a whole window. Counters live in memory, or in Redis when
 * `REDIS_URL` is set so that several server processes share one budget per key.
 *
 * The store never holds a request up: Redis is asked with short timeouts and no queue while it is
 * disconnected, and after a failure it is not asked at all for `STORE_PAUSE`; meanwhile requests are
 * let through, and one warning says so.
 */
export class RequestQuota extends Context.Tag("RequestQuota")<RequestQuota, {
  readonly consume: (keyId: number) => Effect.Effect<Quota, QuotaExceeded>
}>() {
  static readonly layer = Layer.effect(
    RequestQuota,
    Effect.gen(function*() {
      const limiter = yield* RateLimiter.RateLimiter
      const { rateLimitPerMinute, redisUrl } = yield* Settings
      // Only Redis can keep a request waiting: the memory store answers at once, and a timeout would race
      // every request against a timer fiber for nothing.
      const bounded = Option.isSome(redisUrl)
        ? Effect.timeoutFail({ duration: STORE_TIMEOUT, onTimeout: () => new StoreUnavailable() })
        : <A, E, R>(effect: Effect.Effect<A, E, R>) => effect
      const unlimited: Quota = { limit: rateLimitPerMinute, remaining: rateLimitPerMinute }
      // Until when the store is not asked, after it failed.
      let pausedUntil = 0
      return RequestQuota.of({
        consume: (keyId) =>
          Effect.suspend(() => {
            if (Date.now() < pausedUntil) return Effect.succeed(unlimited)
            return limiter.consume({
              key: `api-key:${keyId}`,
              limit: rateLimitPerMinute,
              window: Duration.minutes(1),
              algorithm: "token-bucket",
              onExceeded: "fail"
            }).pipe(
              Effect.map((result): Quota => ({ limit: result.limit, remaining: Math.max(result.remaining, 0) })),
              bounded,
              Effect.catchAll((error) => {
                if (error._tag === "RateLimiterError" && error.reason === "Exceeded") {
                  return Effect.fail(
                    new QuotaExceeded({
                      limit: rateLimitPerMinute,
                      retryAfterSeconds: Math.max(1, Math.ceil(Duration.toSeconds(error.retryAfter)))
                    })
                  )
                }
                // A broken counter store must not take the API down with it, nor slow it down.
                const warn = Date.now() >= pausedUntil
                pausedUntil = Date.now() + Duration.toMillis(STORE_PAUSE)
                return (warn
                  ? Effect.logWarning(
                    `rate limit store unavailable; requests are let through, and it is asked again in ${Duration.format(STORE_PAUSE)}`,
                    error.message
                  )
                  : Effect.void).pipe(Effect.as(unlimited))
              })
            )
          })
      })
    })
  ).pipe(
    Layer.provide(RateLimiter.layer),
    Layer.provide(Layer.unwrapEffect(Effect.map(Settings, (settings) =>
      Option.match(settings.redisUrl, {
        onNone: () => RateLimiter.layerStoreMemory,
        // Loaded only with REDIS_URL: ioredis weighs some 25 MB in a process that never uses it.
        onSome: (url) => {
          const lifetime = { ended: false }
          return Layer.unwrapEffect(
            Effect.promise(() => import("@effect/experimental/RateLimiter/Redis")).pipe(
              Effect.map((RedisRateLimiter) =>
                quietClose(RedisRateLimiter.layerStore(redisOptions(Redacted.value(url), settings.redisPrefix, lifetime)), lifetime)
              )
            )
          )
        }
      })
    )))
  )
}

/** The longest a request waits for the counter store. */
const STORE_TIMEOUT = Duration.millis(250)

/** How long a failed store is left alone. */
const STORE_PAUSE = Duration.seconds(5)

class StoreUnavailable extends Data.TaggedError("StoreUnavailable")<{}> {
  override get message() {
    return `no answer within ${Duration.format(STORE_TIMEOUT)}`
  }
}

/** Whether the store's layer has been released: its client then stops reconnecting. */
interface Lifetime {
  ended: boolean
}

const redisOptions = (url: string, prefix: string, lifetime: Lifetime) => {
  const parsed = new URL(url)
  return {
    host: parsed.hostname,
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    prefix,
    // Fail fast rather than retry: with `STORE_TIMEOUT`, a request never waits long on a Redis that is down.
    connectTimeout: 1000,
    commandTimeout: 250,
    maxRetriesPerRequest: 0,
    // Once released, a client whose QUIT could not reach Redis would otherwise reconnect forever.
    retryStrategy: (attempt: number) => (lifetime.ended ? null : Math.min(attempt * 500, 5000))
  }
}

/**
 * A layer whose release cannot fail: closing the Redis client when Redis is down rejects (its QUIT
 * times out), and a shutdown must not fail for a counter store it no longer needs.
 */
const quietClose = <A, E, R>(layer: Layer.Layer<A, E, R>, lifetime: Lifetime): Layer.Layer<A, E, R> =>
  Layer.scopedContext(Effect.gen(function*() {
    const scope = yield* Scope.make()
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        lifetime.ended = true
      }).pipe(Effect.zipRight(Scope.close(scope, Exit.void)), Effect.catchAllCause(() => Effect.void))
    )
    return yield* Layer.buildWithScope(layer, scope)
  }))
