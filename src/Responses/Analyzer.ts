import * as Worker from "@effect/platform/Worker"
import { NodeWorker } from "@effect/platform-node"
import { Context, Effect, Either, Layer } from "effect"
import { availableParallelism } from "node:os"
import { Worker as Thread } from "node:worker_threads"
import type { FieldErrors } from "../Domain/Errors.ts"
import { type AnalysisJob, type AnalysisResult, type CollectedResponse, runAnalysisJob } from "./Analysis.ts"
import type { AnalyzedResponse, BrandForDetection } from "./Repo.ts"

/** What analysis offers its callers, wherever it runs. */
interface AnalyzerService {
  /** An answer's citations checked and its mentions detected, or the fields in error (`analyze`). */
  readonly analyze: (
    response: CollectedResponse,
    brands: ReadonlyArray<BrandForDetection>
  ) => Effect.Effect<Either.Either<AnalyzedResponse, FieldErrors>>
  /** A stored answer's mentions detected again, its cited domains as at ingestion (`redetect`). */
  readonly redetect: (
    text: string,
    brands: ReadonlyArray<BrandForDetection>,
    citedDomains: ReadonlyArray<string>
  ) => Effect.Effect<AnalyzedResponse["mentions"]>
}

/** The service around a runner of jobs. */
const make = (run: <Job extends AnalysisJob>(job: Job) => Effect.Effect<AnalysisResult<Job>>): AnalyzerService => ({
  analyze: (response, brands) =>
    Effect.map(run({ _tag: "Analyze", response, brands }), (result) =>
      "analyzed" in result ? Either.right(result.analyzed) : Either.left(result.errors)),
  redetect: (text, brands, citedDomains) => run({ _tag: "Redetect", text, brands, citedDomains })
})

/**
 * The thread's module: beside the bundle (`dist/server/analysis-thread.js`, scripts/build-server.ts),
 * or, when the service runs from its sources (tsx, the tests), a module that compiles the TypeScript
 * entry on the fly as the parent does.
 */
const threadModule = (): URL =>
  import.meta.url.endsWith(".ts")
    ? new URL("../analysis-thread.dev.mjs", import.meta.url)
    : new URL("./analysis-thread.js", import.meta.url)

/**
 * Threads of the pool: two at least, so that one long analysis leaves another thread to the rest; at
 * most four, a few megabytes of detection code and data each.
 */
export const poolSize = (): number => Math.min(4, Math.max(2, availableParallelism()))

/**
 * Analysis of answers (src/Responses/Analysis.ts) as a service, so that where it runs is decided once:
 * in production, on a small pool of worker threads, so that one long analysis (a 200,000-character
 * answer against a thousand brands) never holds the event loop that serves every other request; in
 * unit tests, in the calling thread. The API's `POST /responses`, the collector, `cli import` and
 * `cli reanalyze` all analyse through it.
 */
export class Analyzer extends Context.Tag("Analyzer")<Analyzer, AnalyzerService>() {
  /** Analysis in the calling thread: for unit tests, and as the reference of the threads. */
  static readonly inProcess: Layer.Layer<Analyzer> = Layer.succeed(this, make((job) => Effect.sync(() => runAnalysisJob(job))))

  /**
   * Analysis on a pool of worker threads (`src/analysis-thread.ts`), one job at a time each: a job waits
   * for a free thread. A thread that dies fails its job (a 500 for a request) and is started again.
   */
  static readonly threads = (size: number = poolSize()): Layer.Layer<Analyzer> =>
    Layer.scoped(
      this,
      Effect.gen(function*() {
        const pool = yield* Worker.makePool<AnalysisJob, unknown, never>({ size, concurrency: 1 })
        return make(<Job extends AnalysisJob>(job: Job) =>
          // The thread answers with `runAnalysisJob`'s result for this very job.
          Effect.orDie(pool.executeEffect(job)) as Effect.Effect<AnalysisResult<Job>>
        )
      })
    ).pipe(
      Layer.provide(NodeWorker.layer((id) => new Thread(threadModule(), { name: `analysis-${id}` }))),
      // A thread that cannot start at all (a missing bundle) is a broken installation: the process stops.
      Layer.orDie
    )
}
