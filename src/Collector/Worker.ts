import { Clock, Duration, Effect, Either, Option } from "effect"
import { Ingestion } from "../Responses/Ingestion.ts"
import { ResponsesRepo } from "../Responses/Repo.ts"
import { type Platform, platforms as allPlatforms } from "../Domain/Platform.ts"
import { Metrics } from "../Observability/Metrics.ts"
import { storableText } from "../Domain/Text.ts"
import { type ClaimedJob, JobsRepo, type Outcome, spanOfJob } from "./Jobs.ts"
import { answerDetailsOf, askBudgetMs, isRetryable, type PlatformClient, PlatformFailure, Platforms, type Question } from "./Platform.ts"
import { simulatedClient } from "./Simulated.ts"
import { utcDay } from "./Slots.ts"
import type { WorkerCapabilities } from "./Workers.ts"

/**
 * The worker: claims jobs, asks their platform, and hands the answer to `Ingestion` (checked and analysed
 * with the brands the question carried, as every answer is), whose write runs in the transaction that
 * finishes the job (docs/collector.md). Any number of workers may share one database.
 *
 * Simulated answers only where they were asked for (docs/simulated.md): a job of a simulated monitor is
 * answered by the simulated platform and by nothing else, any other job by its provider (`Platforms`)
 * and never by the simulated platform, whatever the settings.
 */

export const NOT_CONFIGURED_REASON = "platform not configured"

export interface WorkerOptions {
  /** How long a claim holds a job; after it, another worker may claim the job again. */
  readonly leaseMs: number
  /** Attempts a job may have, the one a crashed worker never finished included. */
  readonly maxAttempts: number
  /** Jobs asked at the same time by this worker (and claimed at once). */
  readonly concurrency: number
  /** The platforms this worker answers with the simulated platform, for simulated monitors' jobs; none by default. */
  readonly simulate?: ReadonlySet<Platform>
  /** Only this project's jobs (the demo's worker, which must write into its own project alone). */
  readonly projectId?: number
}

/** The wait before attempt n + 1 after a failure that may pass: the provider's Retry-After, or 30 s doubling, at most 10 min. */
const backoffMs = (failure: PlatformFailure, attempt: number): number =>
  failure.retryAfter !== undefined
    ? Duration.toMillis(failure.retryAfter)
    : Math.min(30_000 * 2 ** (attempt - 1), 600_000)

export const make = (options: WorkerOptions) =>
  Effect.gen(function*() {
    const jobs = yield* JobsRepo
    const responses = yield* ResponsesRepo
    const ingestion = yield* Ingestion
    const platforms = yield* Platforms
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
    // Counted where /metrics is served (npm start's own workers); a separate worker process has none.
    const metrics = yield* Effect.serviceOption(Metrics)
    const countFailure = (failure: PlatformFailure) =>
      Effect.sync(() => Option.map(metrics, (m) => m.platformFailure({ platform: failure.platform, kind: failure.kind })))
    // One warning per platform and process, not one per job.
    const warnedUnconfigured = new Set<string>()

    const finish = (job: ClaimedJob, outcome: Outcome) =>
      Effect.flatMap(now, (at) => jobs.finish(job, outcome, at)).pipe(
        Effect.tap((held) => held ? Effect.void : Effect.logWarning("a job's claim expired before its result was recorded; it was dropped"))
      )

    const failed = (job: ClaimedJob, failure: PlatformFailure): Effect.Effect<Outcome> =>
      Effect.zipRight(countFailure(failure), now).pipe(Effect.map((at): Outcome => {
        const reason = `${failure.kind}: ${failure.message}`
        return isRetryable(failure) && job.attempt < options.maxAttempts
          ? { status: "pending", reason, notBefore: new Date(at.getTime() + backoffMs(failure, job.attempt)) }
          : { status: "failed", reason }
      }))

    const ask = (client: PlatformClient, job: ClaimedJob) =>
      Effect.gen(function*() {
        const brands = yield* responses.brandsForDetection(job.projectId)
        const question: Question = {
          platform: job.platform,
          prompt: job.prompt,
          promptId: job.promptId,
          country: job.country,
          day: utcDay(job.slot),
          brands: brands
            .filter((brand) => brand.classification !== "ignored")
            .map((brand) => ({ name: brand.name, aliases: brand.aliases, domains: brand.domains, own: brand.id === job.ownBrandId }))
        }
        // An adapter that throws or never answers is the adapter's bug, recorded on the job; it never
        // takes the worker down nor holds the job past its lease.
        const answer = yield* client.ask(question).pipe(
          Effect.timeoutFail({
            duration: Duration.millis(askBudgetMs(options.leaseMs)),
            onTimeout: () => new PlatformFailure({ platform: job.platform, kind: "timeout", message: "no answer within half the lease" })
          }),
          Effect.catchAllDefect((defect) =>
            Effect.fail(new PlatformFailure({ platform: job.platform, kind: "malformed", message: `the adapter failed: ${String(defect)}` }))
          ),
          Effect.either
        )
        if (Either.isLeft(answer)) return yield* finish(job, yield* failed(job, answer.left))
        if (answer.right.simulated !== job.simulated) {
          return yield* finish(job, {
            status: "failed",
            reason: job.simulated
              ? "malformed: a provider's answer to a simulated monitor's job"
              : "malformed: a simulated answer to the job of a monitor that did not ask for one"
          })
        }
        const at = yield* now
        const analyzed = yield* ingestion.prepareCollected(job.projectId, {
          monitor_id: job.monitorId,
          prompt_id: job.promptId,
          platform: job.platform,
          country: job.country,
          // A platform's answer is stored whatever it holds: a NUL cannot be, so it is dropped.
          text: storableText(answer.right.text),
          // A backfilled answer is dated on its slot, so that it counts on the day it stands for.
          collected_at: job.trigger === "backfill" ? job.slot : at,
          citations: answer.right.citations?.map(storableText),
          ...answerDetailsOf(answer.right)
        }, brands)
        if (Either.isLeft(analyzed)) {
          const detail = Object.entries(analyzed.left).map(([field, texts]) => `${field}: ${texts.join(" ")}`).join("; ")
          return yield* finish(job, { status: "failed", reason: `malformed: ${detail}` })
        }
        // The answer's write, in the transaction that checks the claim still holds and marks the job succeeded.
        const held = yield* jobs.succeed(job, ingestion.store(job.projectId, [analyzed.right]), at)
        if (!held) yield* Effect.logWarning("a job's claim expired before its answer was stored; the answer was dropped")
        return held
      })

    const simulate = options.simulate ?? new Set<Platform>()
    /** The client of a job: the simulated platform for a simulated monitor's, its provider for any other. */
    const clientOf = (job: ClaimedJob): Option.Option<PlatformClient> =>
      job.simulated
        ? simulate.has(job.platform) ? Option.some(simulatedClient(job.platform)) : Option.none()
        : platforms.client(job.platform)

    const process = Effect.fn("CollectorWorker.job")(function*(job: ClaimedJob) {
      yield* Effect.annotateCurrentSpan({ ...spanOfJob(job), "trigger": job.trigger, "simulated": job.simulated })
      return yield* Option.match(clientOf(job), {
        onNone: () =>
          Effect.gen(function*() {
            if (!warnedUnconfigured.has(job.platform)) {
              warnedUnconfigured.add(job.platform)
              yield* Effect.logWarning(`platform ${job.platform} is not configured: its jobs are skipped`)
            }
            return yield* finish(job, { status: "skipped", reason: NOT_CONFIGURED_REASON })
          }),
        onSome: (client) => ask(client, job)
      }).pipe(
        Effect.annotateLogs({ job_id: job.id, run_id: job.runId, platform: job.platform }),
        // A database failure on one job leaves it to its lease; the others go on.
        Effect.catchAllCause((cause) => Effect.logError("a collector job could not be finished", cause).pipe(Effect.as(false)))
      )
    })

    // Only the jobs of platforms this process can ask: another worker (or a later one) asks the others.
    const capabilities: WorkerCapabilities = {
      providers: allPlatforms.filter((platform) => Option.isSome(platforms.client(platform))),
      simulated: allPlatforms.filter((platform) => simulate.has(platform))
    }

    /** Claims one batch and works it; the number of jobs claimed. */
    const runOnce = Effect.gen(function*() {
      const claimed = yield* jobs.claim({
        now: yield* now,
        leaseMs: options.leaseMs,
        limit: options.concurrency,
        maxAttempts: options.maxAttempts,
        platforms: capabilities.providers,
        simulatedPlatforms: capabilities.simulated,
        ...(options.projectId === undefined ? {} : { projectId: options.projectId })
      })
      yield* Effect.forEach(claimed, process, { concurrency: options.concurrency, discard: true })
      return claimed.length
    })

    /** Works batches while there are jobs, and polls every `idle` when there are none. Never ends. */
    const loop = (idle: Duration.DurationInput) =>
      runOnce.pipe(
        Effect.catchAllCause((cause) => Effect.logError("the collector worker could not claim jobs", cause).pipe(Effect.as(0))),
        Effect.flatMap((count) => count > 0 ? Effect.void : Effect.sleep(idle)),
        Effect.forever
      )

    /** Works until no job is due: for tests, the demo's backfill and the CLI. */
    const drain = Effect.gen(function*() {
      let total = 0
      while (true) {
        const count = yield* runOnce
        if (count === 0) return total
        total += count
      }
    })

    return { runOnce, loop, drain, capabilities } as const
  })
