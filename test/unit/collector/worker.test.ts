import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Clock, Duration, Effect, Layer, Option, TestClock } from "effect"
import * as Jobs from "../../../src/Collector/Jobs.ts"
import {
  type Answer,
  type PlatformClient,
  PlatformFailure,
  Platforms,
  type Question,
  unreported
} from "../../../src/Collector/Platform.ts"
import { RunsRepo } from "../../../src/Collector/Runs/Repo.ts"
import * as Worker from "../../../src/Collector/Worker.ts"
import { Settings } from "../../../src/Config.ts"
import { Metrics } from "../../../src/Observability/Metrics.ts"
import { type Platform, platforms as allPlatforms } from "../../../src/Domain/Platform.ts"
import { simulatedLabel } from "../../../src/Collector/Simulated.ts"
import type { RunTrigger } from "../../../src/Domain/Run.ts"
import * as Repositories from "../../../src/Repositories.ts"
import { Analyzer } from "../../../src/Responses/Analyzer.ts"
import { analyze } from "../../../src/Responses/Analysis.ts"
import { Ingestion } from "../../../src/Responses/Ingestion.ts"
import { MonitorsRepo } from "../../../src/Monitors/Repo.ts"
import { migratedSql } from "../../support/Databases.ts"
import { sqlBackend } from "../../support/TestServer.ts"
import { recordingSpans, spansNamed } from "../../support/Spans.ts"
import { monitorWithPrompts } from "./fixtures.ts"

/** The repositories, the jobs queue and raw SQL for the assertions, on one migrated database. */
const Live = Layer.mergeAll(Jobs.layerSql, Ingestion.layer).pipe(
  Layer.provideMerge(Layer.merge(Repositories.layerSql, Analyzer.inProcess)),
  Layer.provideMerge(migratedSql)
)

const options = { leaseMs: 60_000, maxAttempts: 3, concurrency: 4 }

/** A fake platform set: each configured platform answers with `behaviour`, and every question is counted. */
const fakePlatforms = (behaviour: Partial<Record<Platform, (question: Question) => Effect.Effect<Answer, PlatformFailure>>>) => {
  const calls = new Map<string, number>()
  const service = Platforms.of({
    client: (platform) => {
      const answer = behaviour[platform]
      if (answer === undefined) return Option.none()
      const client: PlatformClient = {
        platform,
        ask: (question) =>
          Effect.suspend(() => {
            const key = `${question.promptId}:${platform}:${question.day}`
            calls.set(key, (calls.get(key) ?? 0) + 1)
            return answer(question)
          })
      }
      return Option.some(client)
    }
  })
  return { service, calls }
}

const answering = (question: Question): Effect.Effect<Answer, PlatformFailure> =>
  Effect.succeed({
    text: `For "${question.prompt}", Acme is excellent and Globex is fine. See [Acme](https://www.acme.example/pricing?utm_source=x).`,
    citations: ["https://www.acme.example/pricing?utm_source=x", "https://review.example/crm"],
    simulated: false,
    ...unreported
  })

const makeWorker = (platforms: ReturnType<typeof fakePlatforms>, overrides: Partial<Worker.WorkerOptions> = {}) =>
  Worker.make({ ...options, ...overrides }).pipe(Effect.provideService(Platforms, platforms.service))

/** The test clock at the real now: the database stamps rows with the real clock. */
const atRealNow = Effect.suspend(() => TestClock.setTime(Date.now()))

/** The suite shares one database: the jobs earlier cases left unfinished are put out of the queue. */
const emptyQueue = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`UPDATE collector_jobs SET status = 'skipped', reason = 'test: out of the queue' WHERE status IN ('pending', 'running')`)

/** A run of a fresh monitor for the current UTC day, its jobs the only ones in the queue. */
const runNow = (setup: Parameters<typeof monitorWithPrompts>[0], trigger: RunTrigger = "schedule", deadline: Date | null = null) =>
  Effect.gen(function*() {
    yield* emptyQueue
    const fixture = yield* monitorWithPrompts(setup)
    const slot = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000)
    const { run } = yield* (yield* RunsRepo).create(fixture.monitor, { slot, trigger, deadline })
    return { ...fixture, run, slot }
  })

const jobsOf = (runId: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: number; status: string; reason: string | null; attempts: number; response_id: number | null; simulated: boolean | null }>`
      SELECT id, status, reason, attempts, response_id, simulated FROM collector_jobs WHERE run_id = ${runId} ORDER BY id`)

const runStatus = (runId: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string }>`SELECT status FROM collector_runs WHERE id = ${runId}`.pipe(Effect.map((rows) => rows[0]!.status)))

const responsesOf = (monitorId: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: number; prompt_id: number; platform: string; collected_at: Date; status: string }>`
      SELECT id, prompt_id, platform, collected_at, status FROM responses WHERE monitor_id = ${monitorId} ORDER BY id`)

layer(Live, { timeout: 60_000 })(`collector worker (${sqlBackend})`, (it) => {
  it.effect("stores an answered job as an analysed response with its citations and mentions, and completes the run", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const { monitor, own, rival, run } = yield* runNow({ prompts: 1, platforms: ["chatgpt"] })
      const platforms = fakePlatforms({ chatgpt: answering })
      const worker = yield* makeWorker(platforms)
      expect(yield* worker.drain).toBe(1)
      const [job] = yield* jobsOf(run.id)
      expect(job).toMatchObject({ status: "succeeded", reason: null, attempts: 1, simulated: false })
      const [response] = yield* responsesOf(monitor.id)
      expect(job!.response_id).toBe(response!.id)
      expect(response!.status).toBe("analyzed")
      const sql = yield* SqlClient.SqlClient
      const citations = yield* sql<{ url: string; position: number }>`SELECT url, position FROM citations WHERE response_id = ${response!.id} ORDER BY position`
      expect(citations.map((c) => c.url)).toEqual(["https://www.acme.example/pricing?utm_source=x", "https://review.example/crm"])
      const mentions = yield* sql<{ brand_id: number; position: number }>`SELECT brand_id, position FROM brand_mentions WHERE response_id = ${response!.id} ORDER BY position`
      expect(mentions.map((m) => m.brand_id)).toEqual([own.id, rival.id])
      expect(yield* runStatus(run.id)).toBe("completed")
      // The question carried the project's brands, its own one marked.
      expect(platforms.calls.size).toBe(1)
    }))

  it.effect("asks the question with the prompt, the monitor's country, the slot's day and the brands", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const asked: Array<Question> = []
      const { prompts, slot } = yield* runNow({ prompts: 1, platforms: ["claude"] })
      const worker = yield* makeWorker(fakePlatforms({ claude: (q) => Effect.zipRight(Effect.sync(() => asked.push(q)), answering(q)) }))
      yield* worker.drain
      expect(asked).toHaveLength(1)
      expect(asked[0]).toMatchObject({ platform: "claude", prompt: prompts[0]!.text, promptId: prompts[0]!.id, country: "US", day: slot.toISOString().slice(0, 10) })
      expect(asked[0]!.brands.map((b) => [b.name, b.own])).toEqual([["Acme", true], ["Globex", false]])
    }))

  it.effect("records a platform failure on the job with its kind and message, and stores nothing", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const { monitor, run } = yield* runNow({ prompts: 1, platforms: ["perplexity", "copilot"] })
      const worker = yield* makeWorker(fakePlatforms({
        perplexity: () => Effect.fail(new PlatformFailure({ platform: "perplexity", kind: "rejected", message: "HTTP 401: the API key was refused" })),
        // Out of searches: failed at once, not put back for later attempts.
        copilot: () => Effect.fail(new PlatformFailure({ platform: "copilot", kind: "quota_exceeded", message: "HTTP 429: Your account has run out of searches." }))
      }))
      yield* worker.drain
      expect(yield* jobsOf(run.id)).toMatchObject([
        { status: "failed", reason: "rejected: HTTP 401: the API key was refused", attempts: 1, response_id: null },
        { status: "failed", reason: "quota_exceeded: HTTP 429: Your account has run out of searches.", attempts: 1, response_id: null }
      ])
      expect(yield* responsesOf(monitor.id)).toHaveLength(0)
      expect(yield* runStatus(run.id)).toBe("completed")
    }))

  it.effect("counts every failed attempt in the process's metrics, by platform and kind", () =>
    Effect.gen(function*() {
      yield* atRealNow
      yield* runNow({ prompts: 2, platforms: ["perplexity"] })
      const metrics = yield* Metrics
      const worker = yield* makeWorker(fakePlatforms({
        perplexity: () => Effect.fail(new PlatformFailure({ platform: "perplexity", kind: "rejected", message: "HTTP 401" }))
      }))
      yield* worker.drain
      const text = yield* Effect.promise(() => metrics.registry.metrics())
      expect(text).toMatch(/^bvm_platform_failures_total\{platform="perplexity",kind="rejected"\} 2$/m)
    }).pipe(Effect.provide(Metrics.layer.pipe(Layer.provide(Settings.layerWith({ metrics: true }))))))

  it.effect("retries a failure that may pass after its backoff, and fails it for good after the last attempt", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const { run } = yield* runNow({ prompts: 1, platforms: ["grok"] })
      const platforms = fakePlatforms({
        grok: () => Effect.fail(new PlatformFailure({ platform: "grok", kind: "rate_limited", message: "HTTP 429", retryAfter: Duration.seconds(20) }))
      })
      const worker = yield* makeWorker(platforms)
      yield* worker.drain
      expect(yield* jobsOf(run.id)).toMatchObject([{ status: "pending", reason: "rate_limited: HTTP 429", attempts: 1 }])
      // Not before its Retry-After.
      expect(yield* worker.drain).toBe(0)
      yield* TestClock.adjust(Duration.seconds(21))
      yield* worker.drain
      yield* TestClock.adjust(Duration.seconds(21))
      yield* worker.drain
      yield* TestClock.adjust(Duration.seconds(21))
      expect(yield* worker.drain).toBe(0)
      expect(yield* jobsOf(run.id)).toMatchObject([{ status: "failed", reason: "rate_limited: HTTP 429", attempts: 3 }])
      expect([...platforms.calls.values()]).toEqual([3])
      expect(yield* runStatus(run.id)).toBe("completed")
    }))

  it.effect("a job waiting for a retry when the attempts are lowered below its count is failed, keeping its last reason", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const { run } = yield* runNow({ prompts: 1, platforms: ["grok"] })
      const worker = yield* makeWorker(fakePlatforms({
        grok: () => Effect.fail(new PlatformFailure({ platform: "grok", kind: "unavailable", message: "HTTP 503" }))
      }))
      yield* worker.drain
      expect(yield* jobsOf(run.id)).toMatchObject([{ status: "pending", attempts: 1 }])
      const lowered = yield* makeWorker(fakePlatforms({ grok: answering }), { maxAttempts: 1 })
      yield* TestClock.adjust(Duration.minutes(5))
      expect(yield* lowered.drain).toBe(0)
      expect(yield* jobsOf(run.id)).toMatchObject([{ status: "failed", reason: "unavailable: HTTP 503", attempts: 1 }])
      expect(yield* runStatus(run.id)).toBe("completed")
    }))

  it.effect("claims only the jobs of platforms it can ask; a worker that can ask the others takes them", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const { monitor, run } = yield* runNow({ prompts: 2, platforms: ["chatgpt", "copilot"] })
      const chatgptOnly = yield* makeWorker(fakePlatforms({ chatgpt: answering }))
      expect(yield* chatgptOnly.drain).toBe(2)
      expect((yield* jobsOf(run.id)).map((j) => j.status)).toEqual(["succeeded", "pending", "succeeded", "pending"])
      expect(yield* runStatus(run.id)).toBe("running")
      const copilotOnly = yield* makeWorker(fakePlatforms({ copilot: answering }))
      expect(yield* copilotOnly.drain).toBe(2)
      expect((yield* jobsOf(run.id)).map((j) => j.status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"])
      expect(yield* responsesOf(monitor.id)).toHaveLength(4)
      expect(yield* runStatus(run.id)).toBe("completed")
    }))

  it.effect("skips a manual run's job that no worker could ask for a day, with the reason", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const { run } = yield* runNow({ prompts: 1, platforms: ["copilot"] }, "manual")
      const chatgptOnly = yield* makeWorker(fakePlatforms({ chatgpt: answering }))
      expect(yield* chatgptOnly.drain).toBe(0)
      yield* TestClock.adjust(Duration.hours(23))
      expect(yield* chatgptOnly.drain).toBe(0)
      expect(yield* jobsOf(run.id)).toMatchObject([{ status: "pending", attempts: 0 }])
      yield* TestClock.adjust(Duration.hours(2))
      expect(yield* chatgptOnly.drain).toBe(0)
      expect(yield* jobsOf(run.id)).toMatchObject([{ status: "skipped", reason: Jobs.UNANSWERED_REASON, attempts: 0 }])
      expect(yield* runStatus(run.id)).toBe("completed")
    }))

  it.effect("fails a malformed answer and an adapter that crashes, without stopping the worker", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const { monitor, run } = yield* runNow({ prompts: 1, platforms: ["gemini", "google_ai_mode", "chatgpt"] })
      const worker = yield* makeWorker(fakePlatforms({
        gemini: () => Effect.succeed({ text: "An answer", citations: ["javascript:alert(1)"], simulated: false, ...unreported }),
        google_ai_mode: () => Effect.die(new TypeError("Cannot read properties of undefined")),
        chatgpt: answering
      }))
      yield* worker.drain
      const jobs = yield* jobsOf(run.id)
      expect(jobs.map((j) => j.status)).toEqual(["failed", "failed", "succeeded"])
      expect(jobs[0]!.reason).toMatch(/^malformed: citations\.0: /)
      expect(jobs[1]!.reason).toMatch(/^malformed: the adapter failed: TypeError/)
      expect(yield* responsesOf(monitor.id)).toHaveLength(1)
    }))

  it.effect("stores what the platform reported of its answer; a page without an AI answer is stored as such and not counted", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const { monitor, run } = yield* runNow({ prompts: 1, platforms: ["chatgpt", "google_ai_overview"] })
      const worker = yield* makeWorker(fakePlatforms({
        chatgpt: (question) =>
          Effect.map(answering(question), (answer): Answer => ({
            ...answer,
            state: "answered",
            model: "gpt-6.1-terra-2026-10-26",
            finishReason: "max_tokens",
            usage: { inputTokens: 12, outputTokens: 340, costUsd: 0.0021 },
            searchQueries: ["best crm for agencies", "acme pricing"],
            retrieved: ["https://other.example/list"]
          })),
        google_ai_overview: () => Effect.succeed({ text: "", citations: [], simulated: false, ...unreported, state: "no_answer" })
      }))
      yield* worker.drain
      expect((yield* jobsOf(run.id)).map((j) => j.status)).toEqual(["succeeded", "succeeded"])
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<Record<string, unknown>>`
        SELECT platform, text, model, answer_state, finish_reason, input_tokens, output_tokens, cost_usd, search_queries, retrieved_urls
        FROM responses WHERE monitor_id = ${monitor.id} ORDER BY platform`
      expect(rows).toEqual([
        {
          platform: "chatgpt",
          text: expect.stringContaining("Acme is excellent"),
          model: "gpt-6.1-terra-2026-10-26",
          answer_state: "answered",
          finish_reason: "max_tokens",
          input_tokens: 12,
          output_tokens: 340,
          cost_usd: 0.0021,
          search_queries: ["best crm for agencies", "acme pricing"],
          retrieved_urls: ["https://other.example/list"]
        },
        {
          platform: "google_ai_overview",
          text: "",
          model: null,
          answer_state: "no_answer",
          finish_reason: null,
          input_tokens: null,
          output_tokens: null,
          cost_usd: null,
          search_queries: [],
          retrieved_urls: []
        }
      ])
      // Only the answer is queued for the analytics; the page without one never counts.
      const pending = yield* sql<{ platform: string }>`
        SELECT r.platform FROM analytics_pending q JOIN responses r ON r.id = q.response_id WHERE r.monitor_id = ${monitor.id}`
      expect(pending.map((row) => row.platform)).toEqual(["chatgpt"])
    }))

  it.effect("a crash between claim and store: the job is claimed again after the lease, and the answer is stored once", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const { monitor, run } = yield* runNow({ prompts: 1, platforms: ["chatgpt"] })
      const jobs = yield* Jobs.JobsRepo
      // The crashed worker: claimed, asked, never came back in time.
      const [crashed] = yield* jobs.claim({ now: new Date(yield* Clock.currentTimeMillis), leaseMs: options.leaseMs, limit: 10, maxAttempts: options.maxAttempts, platforms: ["chatgpt"] })
      expect(crashed).toBeDefined()
      const platforms = fakePlatforms({ chatgpt: answering })
      const worker = yield* makeWorker(platforms)
      // Within the lease, nobody else takes the job.
      expect(yield* worker.drain).toBe(0)
      yield* TestClock.adjust(Duration.millis(options.leaseMs + 1))
      expect(yield* worker.drain).toBe(1)
      // The crashed worker wakes up with its answer: refused, nothing stored twice.
      const late = analyze({ monitor_id: monitor.id, prompt_id: crashed!.promptId, platform: "chatgpt", country: "US", text: "Late.", collected_at: new Date(), citations: [] }, [])
      expect(late._tag).toBe("Right")
      if (late._tag === "Right") {
        expect(yield* jobs.succeed(crashed!, (yield* Ingestion).store(monitor.project_id, [late.right]), new Date())).toBe(false)
      }
      expect(yield* jobs.finish(crashed!, { status: "failed", reason: "late" }, new Date())).toBe(false)
      expect(yield* responsesOf(monitor.id)).toHaveLength(1)
      expect(yield* jobsOf(run.id)).toMatchObject([{ status: "succeeded", attempts: 2 }])
    }))

  it.effect("a job whose worker vanished on its last attempt is failed as abandoned, not retried forever", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const { run } = yield* runNow({ prompts: 1, platforms: ["chatgpt"] })
      const jobs = yield* Jobs.JobsRepo
      for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
        const now = new Date(Date.now() + attempt * (options.leaseMs + 1))
        const claimed = yield* jobs.claim({ now, leaseMs: options.leaseMs, limit: 10, maxAttempts: options.maxAttempts, platforms: ["chatgpt"] })
        expect(claimed.map((job) => job.attempt)).toEqual([attempt])
      }
      const after = new Date(Date.now() + (options.maxAttempts + 1) * (options.leaseMs + 1))
      expect(yield* jobs.claim({ now: after, leaseMs: options.leaseMs, limit: 10, maxAttempts: options.maxAttempts, platforms: ["chatgpt"] })).toEqual([])
      const [job] = yield* jobsOf(run.id)
      expect(job).toMatchObject({ status: "failed", attempts: 3 })
      expect(job!.reason).toMatch(/^abandoned/)
      expect(yield* runStatus(run.id)).toBe("completed")
    }))

  it.effect("a scheduled job not asked before its slot ended is skipped as missed", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const deadline = new Date(Date.now() + 60_000)
      const { monitor, run } = yield* runNow({ prompts: 1, platforms: ["chatgpt"] }, "schedule", deadline)
      yield* TestClock.adjust(Duration.minutes(2))
      const worker = yield* makeWorker(fakePlatforms({ chatgpt: answering }))
      expect(yield* worker.drain).toBe(0)
      expect(yield* jobsOf(run.id)).toMatchObject([{ status: "skipped", reason: Jobs.SLOT_ENDED_REASON }])
      expect(yield* responsesOf(monitor.id)).toHaveLength(0)
      expect(yield* runStatus(run.id)).toBe("completed")
    }))

  it.effect("a backfilled answer is dated on its slot", () =>
    Effect.gen(function*() {
      yield* atRealNow
      yield* emptyQueue
      const fixture = yield* monitorWithPrompts({ prompts: 1, platforms: ["chatgpt"] })
      const slot = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 30 * 86_400_000)
      yield* (yield* RunsRepo).create(fixture.monitor, { slot, trigger: "backfill", deadline: null })
      const worker = yield* makeWorker(fakePlatforms({ chatgpt: answering }))
      yield* worker.drain
      expect((yield* responsesOf(fixture.monitor.id)).map((r) => r.collected_at)).toEqual([slot])
    }))

  describe("the answer enters through Ingestion", () => {
    it.effect("its details follow the rules of POST /responses: a retrieved URL it also cites is dropped, a repeat kept once", () =>
      Effect.gen(function*() {
        yield* atRealNow
        const { monitor } = yield* runNow({ prompts: 1, platforms: ["chatgpt"] })
        const worker = yield* makeWorker(fakePlatforms({
          chatgpt: (question) =>
            Effect.map(answering(question), (answer): Answer => ({
              ...answer,
              retrieved: ["https://review.example/crm", "https://other.example/list", "https://other.example/list"]
            }))
        }))
        expect(yield* worker.drain).toBe(1)
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ retrieved_urls: Array<string> }>`SELECT retrieved_urls FROM responses WHERE monitor_id = ${monitor.id}`
        expect(rows).toEqual([{ retrieved_urls: ["https://other.example/list"] }])
      }))

    it.effect("its spans: the job's, Ingestion's check within it, and Ingestion's write within the job's transaction", () =>
      Effect.gen(function*() {
        yield* atRealNow
        const { monitor, project, prompts, run } = yield* runNow({ prompts: 1, platforms: ["chatgpt"] })
        const worker = yield* makeWorker(fakePlatforms({ chatgpt: answering }))
        const { spans, value } = yield* recordingSpans(worker.drain)
        expect(value).toBe(1)
        const [job] = yield* jobsOf(run.id)
        const ids = { "job.id": job!.id, "run.id": run.id, "project.id": project.id, "prompt.id": prompts[0]!.id, "platform": "chatgpt" }
        expect(spansNamed(spans, "CollectorWorker.job")).toEqual([
          { name: "CollectorWorker.job", attributes: expect.objectContaining({ ...ids, attempt: 1, trigger: "schedule", simulated: false }), ancestors: [] }
        ])
        expect(spansNamed(spans, "Ingestion.prepareCollected")).toEqual([{
          name: "Ingestion.prepareCollected",
          attributes: expect.objectContaining({ "project.id": project.id, "prompt.id": prompts[0]!.id, "platform": "chatgpt", "monitor.id": monitor.id, "answers": 1 }),
          ancestors: ["CollectorWorker.job"]
        }])
        expect(spansNamed(spans, "JobsRepo.succeed")).toEqual([
          { name: "JobsRepo.succeed", attributes: expect.objectContaining({ ...ids, attempt: 1 }), ancestors: ["CollectorWorker.job"] }
        ])
        expect(spansNamed(spans, "Ingestion.store")).toEqual([{
          name: "Ingestion.store",
          attributes: expect.objectContaining({ "project.id": project.id, "prompt.id": prompts[0]!.id, "platform": "chatgpt", "answers": 1 }),
          // In the transaction that checks the claim and marks the job succeeded.
          ancestors: ["sql.transaction", "JobsRepo.succeed", "CollectorWorker.job"]
        }])
        expect(spansNamed(spans, "JobsRepo.claim")[0]!.attributes).toMatchObject({ "job.ids": [job!.id], "jobs.limit": options.concurrency })
      }))

    it.effect("a job's platform is checked against its run's monitor as it was when the run was made", () =>
      Effect.gen(function*() {
        yield* atRealNow
        const { monitor, run } = yield* runNow({ prompts: 1, platforms: ["chatgpt", "claude"] })
        // The monitor no longer asks Claude; the run made before still has its job, and its answer counts.
        yield* (yield* MonitorsRepo).update(monitor.id, { platforms: ["chatgpt"] })
        const worker = yield* makeWorker(fakePlatforms({ chatgpt: answering, claude: answering }))
        expect(yield* worker.drain).toBe(2)
        expect((yield* jobsOf(run.id)).map((job) => job.status)).toEqual(["succeeded", "succeeded"])
        expect((yield* responsesOf(monitor.id)).map((response) => response.platform).sort()).toEqual(["chatgpt", "claude"])
      }))
  })

  // The platform's delay is real time (a timer outside Effect), so the two workers truly interleave.
  it.effect("two workers on one database never ask a job twice nor store its answer twice", () =>
    Effect.gen(function*() {
      yield* atRealNow
      const { monitor, run } = yield* runNow({ prompts: 10, platforms: ["chatgpt", "perplexity", "claude"] })
      const slow = (question: Question) =>
        Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 2))).pipe(Effect.zipRight(answering(question)))
      const platforms = fakePlatforms({ chatgpt: slow, perplexity: slow, claude: slow })
      const a = yield* makeWorker(platforms, { concurrency: 3 })
      const b = yield* makeWorker(platforms, { concurrency: 3 })
      const [byA, byB] = yield* Effect.all([a.drain, b.drain], { concurrency: 2 })
      expect(byA + byB).toBe(30)
      expect(platforms.calls.size).toBe(30)
      expect([...platforms.calls.values()].every((count) => count === 1)).toBe(true)
      const responses = yield* responsesOf(monitor.id)
      expect(responses).toHaveLength(30)
      expect(new Set(responses.map((r) => `${r.prompt_id}:${r.platform}`)).size).toBe(30)
      expect((yield* jobsOf(run.id)).every((job) => job.status === "succeeded" && job.attempts === 1)).toBe(true)
      expect(yield* runStatus(run.id)).toBe("completed")
    }))

  // Simulated answers only where they were asked for (docs/simulated.md).
  describe("simulated answers", () => {
    const everyPlatform = new Set(allPlatforms)

    it.effect("a worker that simulates every platform leaves a real monitor's jobs alone: not claimed, nothing stored", () =>
      Effect.gen(function*() {
        yield* atRealNow
        const { monitor, run } = yield* runNow({ prompts: 2, platforms: ["chatgpt", "claude"] })
        const worker = yield* makeWorker(fakePlatforms({}), { simulate: everyPlatform })
        expect(worker.capabilities).toEqual({ providers: [], simulated: allPlatforms })
        expect(yield* worker.drain).toBe(0)
        expect((yield* jobsOf(run.id)).map((job) => [job.status, job.attempts])).toEqual(Array(4).fill(["pending", 0]))
        expect(yield* responsesOf(monitor.id)).toHaveLength(0)
      }))

    it.effect("a simulated monitor's jobs get labelled simulated answers, never a provider's, even where the worker has the key", () =>
      Effect.gen(function*() {
        yield* atRealNow
        const { monitor, run } = yield* runNow({ prompts: 2, platforms: ["chatgpt", "perplexity"], simulated: true })
        const providers = fakePlatforms({ chatgpt: answering, perplexity: answering })
        // Without simulation, the worker has nothing it may answer here.
        const realOnly = yield* makeWorker(providers)
        expect(yield* realOnly.drain).toBe(0)
        const worker = yield* makeWorker(providers, { simulate: everyPlatform })
        expect(yield* worker.drain).toBe(4)
        expect(providers.calls.size).toBe(0)
        const jobs = yield* jobsOf(run.id)
        expect(jobs.map((job) => [job.status, job.simulated])).toEqual(Array(4).fill(["succeeded", true]))
        const sql = yield* SqlClient.SqlClient
        const texts = yield* sql<{ text: string }>`SELECT text FROM responses WHERE monitor_id = ${monitor.id}`
        expect(texts).toHaveLength(4)
        expect(texts.every((row) => row.text.startsWith(simulatedLabel))).toBe(true)
      }))

    it.effect("simulates only the platforms it is given", () =>
      Effect.gen(function*() {
        yield* atRealNow
        const { run } = yield* runNow({ prompts: 1, platforms: ["chatgpt", "claude"], simulated: true })
        const worker = yield* makeWorker(fakePlatforms({}), { simulate: new Set(["claude"]) })
        expect(yield* worker.drain).toBe(1)
        expect((yield* jobsOf(run.id)).map((job) => job.status)).toEqual(["pending", "succeeded"])
      }))

    it.effect("a provider whose answer says it is simulated is refused on a real monitor's job", () =>
      Effect.gen(function*() {
        yield* atRealNow
        const { monitor, run } = yield* runNow({ prompts: 1, platforms: ["chatgpt"] })
        const worker = yield* makeWorker(fakePlatforms({ chatgpt: (q) => Effect.map(answering(q), (a) => ({ ...a, simulated: true })) }))
        expect(yield* worker.drain).toBe(1)
        const [job] = yield* jobsOf(run.id)
        expect(job).toMatchObject({ status: "failed", response_id: null })
        expect(job!.reason).toMatch(/^malformed: a simulated answer to the job of a monitor that did not ask for one/)
        expect(yield* responsesOf(monitor.id)).toHaveLength(0)
      }))

    it.effect("a worker bound to a project answers that project's jobs only", () =>
      Effect.gen(function*() {
        yield* atRealNow
        yield* emptyQueue
        const mine = yield* monitorWithPrompts({ prompts: 1, platforms: ["chatgpt"], simulated: true })
        const theirs = yield* monitorWithPrompts({ prompts: 1, platforms: ["chatgpt"], simulated: true })
        const slot = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000)
        const runs = yield* RunsRepo
        const { run: myRun } = yield* runs.create(mine.monitor, { slot, trigger: "schedule", deadline: null })
        const { run: theirRun } = yield* runs.create(theirs.monitor, { slot, trigger: "schedule", deadline: null })
        const worker = yield* makeWorker(fakePlatforms({}), { simulate: everyPlatform, projectId: mine.project.id })
        expect(yield* worker.drain).toBe(1)
        expect((yield* jobsOf(myRun.id)).map((job) => job.status)).toEqual(["succeeded"])
        expect((yield* jobsOf(theirRun.id)).map((job) => [job.status, job.attempts])).toEqual([["pending", 0]])
        expect(yield* responsesOf(theirs.monitor.id)).toHaveLength(0)
      }))
  })
})
