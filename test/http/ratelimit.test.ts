import * as Net from "node:net"
import { Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AppSettings } from "../../src/Config.ts"
import { startServer, type TestServer } from "../support/TestServer.ts"

/**
 * The per-key budget on each counter store: in memory, and in Redis when REDIS_URL is set (CI's
 * PostgreSQL pass sets it). With Redis, two server processes share one budget per key.
 */
const stores: ReadonlyArray<"memory" | "redis"> = process.env.REDIS_URL ? ["memory", "redis"] : ["memory"]

describe.each(stores)("rate limit with the %s store", (store) => {
  const settings: Partial<AppSettings> = {
    rateLimitPerMinute: 3,
    ...(store === "redis"
      ? { redisUrl: Option.some(Redacted.make(process.env.REDIS_URL!)), redisPrefix: `bvm-test:${process.pid}:${Date.now()}:` }
      : {})
  }
  let first: TestServer
  let second: TestServer
  beforeAll(async () => {
    first = await startServer("memory", settings)
    second = await startServer("memory", settings)
  })
  afterAll(async () => {
    await first.close()
    await second.close()
  })

  it("lets 3 requests a minute through per key, then answers 429 with Retry-After", async () => {
    const organization = await first.createOrganization()
    const { key } = await first.createKey(organization.id, ["*"])
    const remaining: Array<string | null> = []
    for (let i = 0; i < 3; i++) {
      const reply = await first.request("GET", "/api/v1/me", { key })
      expect(reply.status).toBe(200)
      expect(reply.headers.get("x-ratelimit-limit")).toBe("3")
      remaining.push(reply.headers.get("x-ratelimit-remaining"))
    }
    expect(remaining).toEqual(["2", "1", "0"])
    const refused = await first.request("GET", "/api/v1/me", { key })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ message: "Too Many Requests" })
    // The budget refills continuously, one request every 20 s at 3 a minute: the next one passes
    // within 20 s, not at the end of a minute-long window.
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 20).toBe(true)
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0")
    const other = await first.createKey(organization.id, ["*"])
    expect((await first.request("GET", "/api/v1/me", { key: other.key })).status).toBe(200)
  })

  it(store === "redis" ? "shares one budget per key between server processes" : "keeps one budget per server process", async () => {
    // Each server has its own (in-memory) keys; issue keys on the second until one has the id of the
    // first server's key, which names the counter.
    const a = await first.createOrganization()
    const b = await second.createOrganization()
    const keyA = await first.createKey(a.id, ["*"])
    let keyB = await second.createKey(b.id, ["*"])
    while (keyB.id < keyA.id) keyB = await second.createKey(b.id, ["*"])
    expect(keyB.id).toBe(keyA.id)
    expect((await first.request("GET", "/api/v1/me", { key: keyA.key })).status).toBe(200)
    expect((await first.request("GET", "/api/v1/me", { key: keyA.key })).status).toBe(200)
    const third = await second.request("GET", "/api/v1/me", { key: keyB.key })
    expect(third.headers.get("x-ratelimit-remaining")).toBe(store === "redis" ? "0" : "2")
  })
})

/** A Redis that never answers (a port that accepts connections and stays silent), or refuses them. */
const unreachableRedis = async (kind: "silent" | "refusing") => {
  const server = Net.createServer(() => {})
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const port = (server.address() as Net.AddressInfo).port
  if (kind === "refusing") await new Promise<void>((resolve) => server.close(() => resolve()))
  return { url: `redis://127.0.0.1:${port}`, close: () => server.close() }
}

describe.each(["silent", "refusing"] as const)("rate limit with a Redis that is %s", (kind) => {
  let redis: Awaited<ReturnType<typeof unreachableRedis>>
  let server: TestServer
  beforeAll(async () => {
    redis = await unreachableRedis(kind)
    server = await startServer("memory", { rateLimitPerMinute: 3, redisUrl: Option.some(Redacted.make(redis.url)) })
  })
  afterAll(async () => {
    await server.close()
    redis.close()
  })

  it("lets keyed requests through at once, unmetered", async () => {
    const organization = await server.createOrganization()
    const { key } = await server.createKey(organization.id, ["*"])
    const started = Date.now()
    for (let i = 0; i < 10; i++) expect((await server.request("GET", "/api/v1/me", { key })).status).toBe(200)
    // A hang bound, not a speed target: before, each of these waited 10-42 s.
    expect(Date.now() - started).toBeLessThan(5_000)
  }, 15_000)
})
