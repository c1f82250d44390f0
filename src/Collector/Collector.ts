import { Clock, Duration, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { Settings } from "../Config.ts"
import { Ingestion } from "../Responses/Ingestion.ts"
import * as Jobs from "./Jobs.ts"
import * as PlatformsLive from "./PlatformsLive.ts"
import * as Scheduler from "./Scheduler.ts"
import * as Worker from "./Worker.ts"
import * as WebhookDelivery from "../Webhooks/Delivery.ts"
import { HEARTBEAT_MS, WorkersRepo } from "./Workers.ts"

/**
 * The collector of one process: the scheduler ticking every COLLECTOR_TICK_SECONDS, a worker polling
 * for jobs, and its heartbeat (Workers.ts) every HEARTBEAT_MS with the platforms it answers. All are
 * fibers of the layer's scope, so shutdown interrupts them and the heartbeat's row goes with the process;
 * a job interrupted half-way keeps its claim until the lease expires, then another worker takes it over.
 */
export const layer = Layer.scopedDiscard(Effect.gen(function*() {
  const settings = yield* Settings
  const simulate = yield* PlatformsLive.simulatedPlatformsConfig
  const scheduler = yield* Scheduler.make({ lookbackMs: settings.collectorMissedDays * 86_400_000 })
  const worker = yield* Worker.make({
    leaseMs: settings.collectorLeaseSeconds * 1000,
    maxAttempts: settings.collectorMaxAttempts,
    concurrency: settings.collectorConcurrency,
    simulate
  })
  const workers = yield* WorkersRepo
  const id = randomUUID()
  const startedAt = new Date(yield* Clock.currentTimeMillis)
  const beat = Effect.flatMap(Clock.currentTimeMillis, (now) => workers.beat({ id, startedAt, ...worker.capabilities }, new Date(now)))
  // The first heartbeat before anything else: a worker that starts is answerable at once.
  yield* beat
  yield* Effect.addFinalizer(() => workers.leave(id).pipe(Effect.catchAllCause(() => Effect.void)))
  yield* Effect.logInfo("collector started").pipe(
    Effect.annotateLogs({
      tick_seconds: settings.collectorTickSeconds,
      concurrency: settings.collectorConcurrency,
      providers: worker.capabilities.providers.join(",") || "none",
      simulated: worker.capabilities.simulated.join(",") || "none"
    })
  )
  yield* Effect.forkScoped(scheduler.loop(Duration.seconds(settings.collectorTickSeconds)))
  yield* Effect.forkScoped(worker.loop(Duration.seconds(1)))
  // Webhook deliveries from the outbox (Webhooks/Delivery.ts), in every collector process.
  yield* Effect.forkScoped(WebhookDelivery.loop(Duration.seconds(1)))
  yield* Effect.forkScoped(
    Effect.sleep(Duration.millis(HEARTBEAT_MS)).pipe(
      Effect.zipRight(beat),
      Effect.catchAllCause((cause) => Effect.logWarning("the collector could not record its heartbeat", cause)),
      Effect.forever
    )
  )
}))

/**
 * The collector on the SQL job queue, asking the platforms configured by the environment, its answers
 * entering through `Ingestion` as every other answer does.
 */
export const layerLive = layer.pipe(Layer.provide([Jobs.layerSql, Ingestion.layer, PlatformsLive.layer]))
