import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { againstFake, HttpClientLive } from "./support.ts"
import { type AnswerCase, KEY, type ProviderCase, providers, question } from "./providers.ts"

/**
 * Every adapter, behind the resilience wrapper, against a local fake answering in its provider's
 * documented format (providers.ts names the source of each shape): the answer read whole, and each
 * failure of the right kind, tried again or not as it should be.
 */
describe.each(providers)("$platform", (provider: ProviderCase) => {
  const ask = { ...question, platform: provider.platform }

  /** The fake, answering `replies` in order (the provider's own routes first). */
  const fake = (replies: Parameters<typeof againstFake>[1], policy?: Parameters<typeof againstFake>[2]) =>
    againstFake(provider, replies, policy)

  /** A 200 with the case's body (built with the fake's origin). */
  const answering = (answerCase: AnswerCase) => fake((baseUrl) => [{ status: 200, json: answerCase.body({ baseUrl }) }])

  it.scopedLive("a grounded answer: its text, cited and retrieved sources, searches, model and usage; the request carries key, model and locale", () =>
    Effect.gen(function*() {
      const { client, server } = yield* answering(provider.grounded)
      expect(yield* client.ask(ask)).toEqual(provider.grounded.answer)
      const own = server.requests.filter((request) => !request.url.startsWith("/grounding-api-redirect/"))
      expect(own).toHaveLength(1)
      provider.checkRequest(own[0]!)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("an answer without sources", () =>
    Effect.gen(function*() {
      const { client } = yield* answering(provider.noSources)
      expect(yield* client.ask(ask)).toEqual(provider.noSources.answer)
    }).pipe(Effect.provide(HttpClientLive)))

  if (provider.refusal !== undefined) {
    const refusal = provider.refusal
    it.scopedLive("a refusal is stored as refused, not a failure", () =>
      Effect.gen(function*() {
        const { client, server } = yield* answering(refusal)
        expect(yield* client.ask(ask)).toEqual(refusal.answer)
        expect(server.requests).toHaveLength(1)
      }).pipe(Effect.provide(HttpClientLive)))
  }

  if (provider.incomplete !== undefined) {
    const incomplete = provider.incomplete
    it.scopedLive("an answer cut short keeps its text, with the reason it stopped", () =>
      Effect.gen(function*() {
        const { client } = yield* answering(incomplete)
        expect(yield* client.ask(ask)).toEqual(incomplete.answer)
      }).pipe(Effect.provide(HttpClientLive)))
  }

  it.scopedLive("a 429 is tried again after at least its retry signal", () =>
    Effect.gen(function*() {
      const { client, server, waits } = yield* fake((baseUrl) => [
        provider.rateLimited.reply,
        { status: 200, json: provider.grounded.body({ baseUrl }) }
      ])
      expect(yield* client.ask(ask)).toEqual(provider.grounded.answer)
      expect(server.requests.filter((request) => !request.url.startsWith("/grounding-api-redirect/"))).toHaveLength(2)
      expect(waits).toHaveLength(1)
      expect(Duration.toMillis(waits[0]!)).toBeGreaterThanOrEqual(provider.rateLimited.waitAtLeastMs ?? 0)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a quota error is not tried again", () =>
    Effect.gen(function*() {
      const { client, server, waits } = yield* fake([provider.quota.reply])
      const failure = yield* Effect.flip(client.ask(ask))
      expect(failure.kind).toBe("quota_exceeded")
      expect(failure.platform).toBe(provider.platform)
      expect(server.requests).toHaveLength(1)
      expect(waits).toHaveLength(0)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a 5xx is tried again, then answers", () =>
    Effect.gen(function*() {
      const { client, server, waits } = yield* fake((baseUrl) => [
        provider.serverError,
        { status: 200, json: provider.grounded.body({ baseUrl }) }
      ])
      expect((yield* client.ask(ask)).citations).toEqual(provider.grounded.answer.citations)
      expect(server.requests.filter((request) => !request.url.startsWith("/grounding-api-redirect/"))).toHaveLength(2)
      expect(waits).toHaveLength(1)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a 5xx that persists is given up after the maximum attempts", () =>
    Effect.gen(function*() {
      const { client, server, waits } = yield* fake([provider.serverError], { maxAttempts: 3 })
      const failure = yield* Effect.flip(client.ask(ask))
      expect(failure.kind).toBe("unavailable")
      expect(failure.message).toMatch(/HTTP 5\d\d/)
      expect(server.requests).toHaveLength(3)
      expect(waits).toHaveLength(2)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a request that takes too long is cut: timeout, tried again, then given up", () =>
    Effect.gen(function*() {
      const { client, server } = yield* fake(["hang"], { timeout: Duration.millis(150), maxAttempts: 2 })
      const failure = yield* Effect.flip(client.ask(ask))
      expect(failure.kind).toBe("timeout")
      expect(server.requests).toHaveLength(2)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a body in the wrong shape is malformed, not tried again", () =>
    Effect.gen(function*() {
      const { client, server } = yield* fake([{ status: 200, json: provider.wrongShape }])
      const failure = yield* Effect.flip(client.ask(ask))
      expect(failure.kind).toBe("malformed")
      expect(failure.message).toMatch(/expected shape/)
      expect(failure.message.length).toBeLessThan(300)
      expect(server.requests).toHaveLength(1)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a body that is not JSON is malformed", () =>
    Effect.gen(function*() {
      const { client } = yield* fake([{ status: 200, text: "<html>captcha</html>" }])
      const failure = yield* Effect.flip(client.ask(ask))
      expect(failure.kind).toBe("malformed")
      expect(failure.message).toBe(`${provider.platform}: response body is not JSON`)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a 401 is rejected at once, and the key is not in the failure even when the body echoes it", () =>
    Effect.gen(function*() {
      const { client, server, waits } = yield* fake([provider.unauthorized])
      const failure = yield* Effect.flip(client.ask(ask))
      expect(failure.kind).toBe("rejected")
      expect(failure.message).toMatch(/^[a-z_]+: HTTP 401/)
      expect(failure.message).toContain("[redacted]")
      expect(JSON.stringify(failure)).not.toContain(KEY)
      expect(String(failure)).not.toContain(KEY)
      expect(server.requests).toHaveLength(1)
      expect(waits).toHaveLength(0)
    }).pipe(Effect.provide(HttpClientLive)))
})
