import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { againstFake, HttpClientLive } from "./support.ts"
import { KEY, providers, question } from "./providers.ts"

/** Every adapter, behind the resilience wrapper, against a local fake speaking its provider's format. */
describe.each(providers)("$platform", (provider) => {
  const ask = { ...question, platform: provider.platform }

  it.scopedLive("answers with the text and the citations; the request carries key, model and country", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(provider, [{ status: 200, json: provider.success }])
      const answer = yield* client.ask(ask)
      expect(answer).toEqual({ text: provider.text, citations: provider.citations, simulated: false })
      expect(server.requests).toHaveLength(1)
      provider.checkRequest(server.requests[0]!)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("waits at least the Retry-After of a 429, then answers", () =>
    Effect.gen(function*() {
      const { client, server, waits } = yield* againstFake(provider, [
        { status: 429, headers: { "retry-after": "7" }, json: provider.errorBody },
        { status: 200, json: provider.success }
      ])
      const answer = yield* client.ask(ask)
      expect(answer.text).toBe(provider.text)
      expect(server.requests).toHaveLength(2)
      expect(waits).toHaveLength(1)
      expect(Duration.toMillis(waits[0]!)).toBeGreaterThanOrEqual(7_000)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("tries again after a 5xx, then answers", () =>
    Effect.gen(function*() {
      const { client, server, waits } = yield* againstFake(provider, [
        { status: 503, text: "<html>Service Unavailable</html>" },
        { status: 200, json: provider.success }
      ])
      const answer = yield* client.ask(ask)
      expect(answer.citations).toEqual(provider.citations)
      expect(server.requests).toHaveLength(2)
      expect(waits).toHaveLength(1)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("gives up after the maximum attempts when the 5xx persists", () =>
    Effect.gen(function*() {
      const { client, server, waits } = yield* againstFake(
        provider,
        [{ status: 500, json: { error: { message: "internal error" } } }],
        { maxAttempts: 3 }
      )
      const failure = yield* Effect.flip(client.ask(ask))
      expect(failure.kind).toBe("unavailable")
      expect(failure.platform).toBe(provider.platform)
      expect(failure.message).toContain("HTTP 500")
      expect(server.requests).toHaveLength(3)
      expect(waits).toHaveLength(2)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("cuts a request that takes too long: timeout, tried again, then given up", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(provider, ["hang"], {
        timeout: Duration.millis(150),
        maxAttempts: 2
      })
      const failure = yield* Effect.flip(client.ask(ask))
      expect(failure.kind).toBe("timeout")
      expect(server.requests).toHaveLength(2)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a body in the wrong shape is malformed, not tried again", () =>
    Effect.gen(function*() {
      const { client, server } = yield* againstFake(provider, [{ status: 200, json: provider.wrongShape }])
      const failure = yield* Effect.flip(client.ask(ask))
      expect(failure.kind).toBe("malformed")
      expect(failure.message).toMatch(/expected shape/)
      expect(failure.message.length).toBeLessThan(300)
      expect(server.requests).toHaveLength(1)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a body that is not JSON is malformed", () =>
    Effect.gen(function*() {
      const { client } = yield* againstFake(provider, [{ status: 200, text: "<html>captcha</html>" }])
      const failure = yield* Effect.flip(client.ask(ask))
      expect(failure.kind).toBe("malformed")
      expect(failure.message).toBe(`${provider.platform}: response body is not JSON`)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a 401 is rejected at once, and the key is not in the failure even when the body echoes it", () =>
    Effect.gen(function*() {
      const { client, server, waits } = yield* againstFake(provider, [{ status: 401, json: provider.errorBody }])
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
