import { FetchHttpClient } from "@effect/platform"
import { Duration, Effect, Layer, Logger, LogLevel } from "effect"
import type { PlatformClient } from "../../../src/Collector/Platform.ts"
import { type ResiliencePolicy, resilient } from "../../../src/Collector/Platforms/Resilience.ts"
import { fakeServer, type Reply } from "./FakeServer.ts"
import type { ProviderCase } from "./providers.ts"

/** Quick settings for tests against a local fake: tiny backoffs, a timeout that never fires by accident. */
export const testPolicy = (overrides: Partial<ResiliencePolicy> = {}): ResiliencePolicy => ({
  timeout: Duration.seconds(5),
  maxAttempts: 3,
  concurrency: 2,
  requestsPerMinute: 10_000,
  backoffBase: Duration.millis(10),
  backoffMax: Duration.millis(100),
  maxRetryAfter: Duration.seconds(60),
  budget: Duration.seconds(60),
  ...overrides
})

/**
 * A provider's adapter, behind the resilience wrapper, talking to a fake that answers `replies`. The
 * waits between attempts are recorded rather than slept, so a Retry-After of seconds costs nothing.
 */
export const againstFake = (
  provider: ProviderCase,
  replies: ReadonlyArray<Reply> | ((baseUrl: string) => ReadonlyArray<Reply>),
  policy: Partial<ResiliencePolicy> = {}
) =>
  Effect.gen(function*() {
    const server = yield* fakeServer(replies, provider.route)
    const waits: Array<Duration.Duration> = []
    const adapter = yield* provider.make(server.baseUrl)
    const client: PlatformClient = yield* resilient(adapter, testPolicy(policy), {
      sleep: (duration) => Effect.sync(() => void waits.push(duration))
    })
    return { server, client, waits }
  })

/** A real HTTP client; the retry warnings stay out of the test output. */
export const HttpClientLive = Layer.merge(FetchHttpClient.layer, Logger.minimumLogLevel(LogLevel.None))
