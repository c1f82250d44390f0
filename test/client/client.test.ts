import { SqlError } from "@effect/sql"
import { Effect, Either, Layer, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Client from "../../src/Client/index.ts"
import { MemoryStore } from "../../src/Memory/Store.ts"
import { TagsRepo } from "../../src/Tags/Repo.ts"
import * as TagsMemory from "../../src/Tags/RepoMemory.ts"

/** A list's total: the page-number envelope has one, a cursor page has none (-1). */
const totalOf = (page: { readonly meta: object }): number => "total" in page.meta ? (page.meta as { total: number }).total : -1
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * The published client against the real server: every endpoint group called through it, once with the
 * Effect service (`BrandVisibilityClient` from its Layer, and from its Config-based Layer) and once
 * through the Promise wrapper, and each documented failure status arriving as its typed error.
 */

/** Runs a program of the Effect client configured with `options`. */
const withClient = <A, E>(options: Client.ClientOptions, program: (client: Client.Client) => Effect.Effect<A, E>) =>
  Effect.runPromise(Effect.flatMap(Client.BrandVisibilityClient, program).pipe(Effect.provide(Client.layer(options))))

/** The failure of a program of the Effect client, which must fail. */
const failureOf = <A, E>(options: Client.ClientOptions, program: (client: Client.Client) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.flatMap(Client.BrandVisibilityClient, (client) => Effect.either(program(client))).pipe(Effect.provide(Client.layer(options)))
  ).then((result) => {
    if (Either.isRight(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.right)}`)
    return result.left
  })

const today = new Date().toISOString().slice(0, 10)
const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)

describe.each(backends)("the typed client (%s)", (backend) => {
  let server: TestServer
  let key: string
  let organizationId: number
  beforeAll(async () => {
    server = await startServer(backend)
    organizationId = (await server.createOrganization("Acme Org")).id
    key = (await server.createKey(organizationId, ["*"])).key
  })
  afterAll(() => server.close())

  it("calls every endpoint group, the project given once in the configuration", async () => {
    // The Promise client, without a project: the organization's own endpoints.
    const plain = Client.createClient({ baseUrl: server.baseUrl, apiKey: key })
    const project = (await plain.projects.create({ payload: { name: "Acme", domain: "acme.com" } })).data
    expect((await plain.me.me()).data.projects).toEqual([{ id: project.id, name: "Acme" }])
    expect((await plain.organization.get()).data.name).toBe("Acme Org")
    expect((await plain.projects.list({ urlParams: {} })).data.map((p) => p.id)).toEqual([project.id])

    const options = { baseUrl: server.baseUrl, apiKey: key, projectId: project.id }
    const seen = await withClient(options, (client) =>
      Effect.gen(function*() {
        const monitor = (yield* client.monitors.create({
          payload: { name: "US", country: "US", platforms: ["chatgpt", "perplexity"], schedule: "daily", active: true, simulated: true }
        })).data
        const segment = (yield* client.segments.create({ payload: { name: "CRM" } })).data
        const own = (yield* client.brands.create({
          payload: { name: "Acme", aliases: [], domains: ["acme.com"], classification: "competitor", segment_ids: [segment.id] }
        })).data
        const rival = (yield* client.brands.create({
          payload: { name: "Globex", aliases: [], domains: ["globex.com"], classification: "competitor", segment_ids: [] }
        })).data
        yield* client.project.update({ path: { project: project.id }, payload: { brand_id: own.id } })
        const tag = (yield* client.tags.create({ payload: { name: "pricing" } })).data
        const prompt = (yield* client.prompts.create({ payload: { monitor_id: monitor.id, text: "Best CRM for a small agency?", tags: [tag.id] } })).data
        const missing = (yield* client.prompts.create({ payload: { monitor_id: monitor.id, text: "Cheapest CRM?", tags: [] } })).data
        const answer = (yield* client.responses.create({
          payload: {
            prompt_id: prompt.id,
            platform: "chatgpt",
            text: "Acme is the easiest start; Globex is a close second.",
            citations: ["https://acme.com/pricing", "https://review.example.org/crm"]
          }
        })).data
        yield* client.responses.create({
          payload: { prompt_id: missing.id, platform: "perplexity", text: "Globex is the cheapest.", citations: ["https://globex.com/"] }
        })
        const window = { start_date: weekAgo, end_date: today }
        return {
          monitor,
          own,
          rival,
          prompt,
          missing,
          answer,
          monitors: (yield* client.monitors.list({ urlParams: {} })).data.length,
          prompts: (yield* client.prompts.list({ urlParams: {} })).data.length,
          tags: (yield* client.tags.list({ urlParams: {} })).data.map((t) => t.name),
          segments: (yield* client.segments.list({ urlParams: {} })).data.length,
          read: (yield* client.responses.get({ path: { response: answer.id } })).data,
          responses: totalOf(yield* client.responses.list({ urlParams: {} })),
          citations: (yield* client.responses.citations({ urlParams: { response_id: answer.id } })).data.map((c) => c.url),
          sources: (yield* client.sources.list({ urlParams: {} })).data.map((s) => s.domain).sort(),
          urls: (yield* client.sources.urls({ urlParams: {} })).meta.total,
          mentions: totalOf(yield* client.brandMentions.list({ urlParams: {} })),
          brands: (yield* client.analytics.brands({ urlParams: window })).data,
          series: (yield* client.analytics.brandSeries({ urlParams: { ...window, interval: "day" } })).data.series.length,
          promptRows: (yield* client.analytics.prompts({ urlParams: window })).data,
          sourceRows: (yield* client.analytics.sources({ urlParams: window })).meta.total,
          urlRows: (yield* client.analytics.sourceUrls({ urlParams: window })).meta.total,
          usage: (yield* client.analytics.sourceUrlUsage({ urlParams: { ...window, interval: "week" } })).data.series.length,
          runs: (yield* client.runs.list({ path: { monitor: monitor.id }, urlParams: {} })).data.length,
          health: (yield* client.collector.health()).data,
          keys: (yield* client.apiKeys.list({ urlParams: {} })).data.length,
          // The groups added with webhooks, brand suggestions and agent traffic.
          agents: (yield* client.agents.list()).data.length,
          suggestions: (yield* client.brandSuggestions.list({ urlParams: { ...window, gated: "false" } })).meta.total,
          untracked: (yield* client.brandSuggestions.untrackedShare({ urlParams: window })).data.tracked_mentions,
          webhook: (yield* client.webhooks.create({ payload: { url: "https://93.184.215.14/client-test", events: ["run.completed"] } })).data,
          webhooks: (yield* client.webhooks.list({ urlParams: {} })).data.length,
          trafficSource: (yield* client.traffic.create({ payload: { name: "nginx www" } })).data.name,
          agentTraffic: (yield* client.traffic.agentTraffic({ urlParams: window })).data.length
        }
      }))
    expect(seen.monitors).toBe(1)
    expect(seen.prompts).toBe(2)
    expect(seen.tags).toContain("pricing")
    expect(seen.segments).toBe(1)
    expect(seen.read.text).toBe("Acme is the easiest start; Globex is a close second.")
    expect(seen.responses).toBe(2)
    expect(seen.citations).toEqual(["https://acme.com/pricing", "https://review.example.org/crm"])
    expect(seen.sources).toEqual(["acme.com", "globex.com", "review.example.org"])
    expect(seen.urls).toBe(3)
    expect(seen.mentions).toBe(3)
    const acme = seen.brands.find((row) => row.brand.id === seen.own.id)!
    expect(acme).toMatchObject({ responses_count: 2, mentioned_count: 1, visibility: 50, total_mentions: 3 })
    // Numbers arrive as numbers: the interval is a pair of numbers.
    expect(typeof acme.visibility_ci?.low).toBe("number")
    expect(seen.series).toBe(2)
    expect(seen.promptRows[0]).toMatchObject({ prompt: { id: seen.missing.id }, own: { mentioned_count: 0 }, top_competitor: { brand: { id: seen.rival.id } } })
    expect(seen.sourceRows).toBe(3)
    expect(seen.urlRows).toBe(3)
    expect(seen.usage).toBe(3)
    expect(seen.runs).toBe(0)
    expect(seen.health.platforms.length).toBeGreaterThan(0)
    expect(seen.keys).toBe(1)
    expect(seen.agents).toBeGreaterThan(5)
    expect(seen.suggestions).toBeGreaterThanOrEqual(0)
    expect(seen.untracked).toBe(3)
    expect(seen.webhook.secret).toMatch(/^whsec_/)
    expect(seen.webhooks).toBe(1)
    expect(seen.trafficSource).toBe("nginx www")
    expect(seen.agentTraffic).toBe(0)

    // Runs and keys through the Promise client; the project of a call given in its headers wins.
    const run = await plain.runs.trigger({ path: { monitor: seen.monitor.id }, headers: { "service-project-id": String(project.id) } })
    expect(run.data.monitor_id).toBe(seen.monitor.id)
    const created = await plain.apiKeys.create({ payload: { name: "read only", abilities: ["analytics:read"] } })
    await plain.apiKeys.revoke({ path: { api_key: created.data.id } })
    expect((await plain.apiKeys.list({ urlParams: {} })).data.find((k) => k.id === created.data.id)?.revoked).toBe(true)
  })

  it("is configured from the environment by its Config-based Layer", async () => {
    const previous = { ...process.env }
    process.env.BVM_URL = server.baseUrl
    process.env.BVM_API_KEY = key
    try {
      const me = await Effect.runPromise(
        Effect.flatMap(Client.BrandVisibilityClient, (client) => client.me.me()).pipe(Effect.provide(Client.layerConfig))
      )
      expect(me.data.organization.id).toBe(organizationId)
    } finally {
      process.env = previous
    }
  })

  it("fails with a typed error for 401, 403, 404, 400, 409 and 422", async () => {
    const base = { baseUrl: server.baseUrl, apiKey: key }
    const project = await withClient(base, (client) => client.projects.create({ payload: { name: "Errors" } }))
    const options = { ...base, projectId: project.data.id }

    const unauthenticated = await failureOf({ ...options, apiKey: "bvm_not_a_real_key" }, (client) => client.me.me())
    expect(unauthenticated).toBeInstanceOf(Client.Unauthenticated)

    const reader = (await server.createKey(organizationId, ["tags:read"])).key
    const forbidden = await failureOf({ ...options, apiKey: reader }, (client) => client.tags.create({ payload: { name: "x" } }))
    expect(forbidden).toBeInstanceOf(Client.Forbidden)
    expect((forbidden as Client.Forbidden).requiredAbility).toBe("tags:write")

    const notFound = await failureOf(options, (client) => client.prompts.get({ path: { prompt: 999_999 } }))
    expect(notFound).toBeInstanceOf(Client.NotFound)
    expect((notFound as Client.NotFound).message).toBe("Prompt not found")

    const otherProject = await failureOf({ ...options, projectId: 999_999 }, (client) => client.tags.list({ urlParams: {} }))
    expect(otherProject).toBeInstanceOf(Client.NotFound)
    expect((otherProject as Client.NotFound).message).toBe("Project not found")

    const invalidHeader = await failureOf(options, (client) => client.tags.list({ urlParams: {}, headers: { "service-project-id": "abc" } }))
    expect(invalidHeader).toBeInstanceOf(Client.InvalidProjectHeader)

    // A name its project has already (every project starts with the tag `branded`).
    const invalid = await failureOf(options, (client) => client.tags.create({ payload: { name: "branded" } }))
    expect(invalid).toBeInstanceOf(Client.ValidationError)
    expect(Object.keys((invalid as Client.ValidationError).errors)).toEqual(["name"])

    // A brand suggestion decided twice: the second decision is a 409.
    const answered = await withClient(options, (client) =>
      Effect.gen(function*() {
        const monitor = (yield* client.monitors.create({
          payload: { name: "US", country: "US", platforms: ["chatgpt"], schedule: "daily", active: true, simulated: true }
        })).data
        const prompt = (yield* client.prompts.create({ payload: { monitor_id: monitor.id, text: "Best CRM?", tags: [] } })).data
        yield* client.responses.create({ payload: { prompt_id: prompt.id, platform: "chatgpt", text: "1. **Zylomatic** is the one to try." } })
        return (yield* client.brandSuggestions.list({ urlParams: { start_date: weekAgo, end_date: today, gated: "false" } })).data
      }))
    const suggestion = answered.find((row) => row.key === "zylomatic")!
    await withClient(options, (client) => client.brandSuggestions.ignore({ path: { suggestion: suggestion.id } }))
    const conflict = await failureOf(options, (client) => client.brandSuggestions.ignore({ path: { suggestion: suggestion.id } }))
    expect(conflict).toBeInstanceOf(Client.Conflict)
    expect((conflict as Client.Conflict).message).toBe("The suggestion is already ignored.")

    // The Promise client rejects with the same typed errors.
    const plain = Client.createClient(options)
    await expect(plain.prompts.get({ path: { prompt: 999_999 } })).rejects.toBeInstanceOf(Client.NotFound)
  })
})

describe("the typed client: 429, 500 and 503", () => {
  it("429: TooManyRequests once the key's budget is spent", async () => {
    const server = await startServer("memory", { rateLimitPerMinute: 1 })
    try {
      const organization = await server.createOrganization()
      const { key } = await server.createKey(organization.id, ["*"])
      const plain = Client.createClient({ baseUrl: server.baseUrl, apiKey: key })
      await plain.me.me()
      await expect(plain.me.me()).rejects.toBeInstanceOf(Client.TooManyRequests)
    } finally {
      await server.close()
    }
  })

  it("500 and 503: the body with its request id, nothing of the cause", async () => {
    const failingTags = Layer.effect(
      TagsRepo,
      Effect.map(TagsRepo, (tags) =>
        TagsRepo.of({
          ...tags,
          list: () => Effect.die(new Error("secret internals")),
          find: () =>
            Effect.die(
              new SqlError.SqlError({
                cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
                message: "Failed to connect"
              })
            ) as Effect.Effect<Option.Option<never>>
        }))
    ).pipe(Layer.provide(TagsMemory.layerMemory), Layer.provide(MemoryStore.layer))
    const server = await startServer("memory", {}, failingTags)
    try {
      const organization = await server.createOrganization()
      const { key } = await server.createKey(organization.id, ["*"])
      const plain = Client.createClient({ baseUrl: server.baseUrl, apiKey: key })
      const project = (await plain.projects.create({ payload: { name: "Failing" } })).data
      const options = { baseUrl: server.baseUrl, apiKey: key, projectId: project.id }
      const serverError = await failureOf(options, (client) => client.tags.list({ urlParams: {} }))
      expect(serverError).toMatchObject({ message: "Server Error", request_id: expect.any(String) })
      const unavailable = await failureOf(options, (client) => client.tags.get({ path: { tag: 1 } }))
      expect(unavailable).toMatchObject({ message: "Service Unavailable", request_id: expect.any(String) })
    } finally {
      await server.close()
    }
  })
})
