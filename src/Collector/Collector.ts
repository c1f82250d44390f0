import { Duration, Effect, Layer } from "effect"
import { Settings } from "../Config.ts"
import * as Jobs from "./Jobs.ts"
import * as PlatformsLive from "./PlatformsLive.ts"
import * as Scheduler from "./Scheduler.ts"
import * as Worker from "./Worker.ts"

/**
 * The collector of one process: the scheduler ticking every COLLECTOR_TICK_SECONDS, and a worker
 * polling for jobs. Both are fibers of the layer's scope, so shutdown interrupts them; a job interrupted
 * half-way keeps its claim until the lease expires, then another worker takes it over.
 */
export const layer = Layer.scopedDiscard(Effect.gen(function*() {
  const settings = yield* Settings
  const scheduler = yield* Scheduler.make({ lookbackMs: settings.collectorMissedDays * 86_400_000 })
  const worker = yield* Worker.make({
    leaseMs: settings.collectorLeaseSeconds * 1000,
    maxAttempts: settings.collectorMaxAttempts,
    concurrency: settings.collectorConcurrency
  })
  yield* Effect.logInfo("collector started").pipe(
    Effect.annotateLogs({ tick_seconds: settings.collectorTickSeconds, concurrency: settings.collectorConcurrency })
  )
  yield* Effect.forkScoped(scheduler.loop(Duration.seconds(settings.collectorTickSeconds)))
  yield* Effect.forkScoped(worker.loop(Duration.seconds(1)))
}))

/** The collector on the SQL job queue, asking the platforms configured by the environment. */
export const layerLive = layer.pipe(Layer.provide(Jobs.layerSql), Layer.provide(PlatformsLive.layer))
