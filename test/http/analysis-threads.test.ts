import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Analyzer } from "../../src/Responses/Analyzer.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * `POST /responses` analyses its answer on the analysis threads, as `npm start` does: while a long
 * analysis runs there, the server goes on answering everyone else. The heavy answer: six brands of fifty
 * nested aliases ("a", "a a", ...) found at every word of "a " × 100,000, the longest text accepted.
 * (One backend a pass: the mechanism does not depend on the store.)
 */
describe.each(backends.slice(0, 1))("analysis off the event loop (%s)", (backend) => {
  let server: TestServer
  let key: string
  let project: number
  let prompt: number
  /** Resolved when the server hands an answer to the analyzer. */
  let analysisStarted: Promise<void>
  let signalStart: () => void = () => {}

  beforeAll(async () => {
    analysisStarted = new Promise((resolve) => (signalStart = resolve))
    // The production threads, told to signal when an analysis starts.
    const signalling = Layer.effect(
      Analyzer,
      Effect.map(Analyzer, (threads) =>
        Analyzer.of({
          ...threads,
          analyze: (response, brands) => Effect.zipRight(Effect.sync(() => signalStart()), threads.analyze(response, brands))
        }))
    ).pipe(Layer.provide(Analyzer.threads(2)))
    server = await startServer(backend, {}, undefined, signalling)
    const organization = await server.createOrganization()
    key = (await server.createKey(organization.id, ["*"])).key
    const call = async (path: string, body: unknown, inProject = true) => {
      const reply = await server.request("POST", `/api/v1${path}`, { key, body, ...(inProject ? { project } : {}) })
      expect(reply.status, reply.text).toBe(201)
      return reply.body.data.id as number
    }
    project = await call("/projects", { name: "Heavy" }, false)
    const monitor = await call("/monitors", { name: "M", country: "US", platforms: ["chatgpt"], schedule: "daily", active: true })
    prompt = await call("/prompts", { monitor_id: monitor, text: "Best a?", tags: [] })
    for (let b = 0; b < 6; b++) {
      await call("/brands", { name: `Brand ${b}`, aliases: Array.from({ length: 50 }, (_, i) => "a ".repeat(b * 10 + i + 1).trim()) })
    }
  }, 120_000)
  afterAll(() => server.close())

  it("answers /health while an answer is analysed, before the answer is stored", async () => {
    const events: Array<string> = []
    const stored = server.request("POST", "/api/v1/responses", {
      key,
      project,
      body: { prompt_id: prompt, platform: "chatgpt", text: "a ".repeat(100_000) }
    }).then((reply) => {
      events.push("stored")
      return reply
    })
    await analysisStarted
    const health = await server.request("GET", "/health")
    events.push("health")
    expect(health.status).toBe(200)
    const reply = await stored
    expect(reply.status, reply.text).toBe(201)
    expect(events).toEqual(["health", "stored"])
    const mentions = await server.request("GET", `/api/v1/brand-mentions?response_id=${reply.body.data.id}`, { key, project })
    expect(mentions.body.data).toHaveLength(6)
  }, 120_000)
})
