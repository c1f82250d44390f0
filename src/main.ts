import { Effect, Layer } from "effect"
import * as Merger from "./Analytics/Merger.ts"
import { Settings } from "./Config.ts"
import { checkPort } from "./Http/PortCheck.ts"
import { LoggingLive, runProcess } from "./Logging.ts"
import { Metrics } from "./Observability/Metrics.ts"
import * as Tracing from "./Observability/Tracing.ts"
import { Analyzer } from "./Responses/Analyzer.ts"
import { CollectorLive, DatabaseLive, HttpServerLive } from "./Server.ts"

/**
 * Built after the server, so released before it: when shutdown starts, in-flight requests get
 * SHUTDOWN_TIMEOUT_SECONDS to finish before the process exits anyway.
 */
const ShutdownDeadline = Layer.scopedDiscard(Effect.gen(function*() {
  const { shutdownTimeoutSeconds } = yield* Settings
  yield* Effect.addFinalizer(() =>
    Effect.logInfo("shutting down: no new connections, waiting for in-flight requests").pipe(
      Effect.zipRight(Effect.sync(() => setTimeout(() => process.exit(1), shutdownTimeoutSeconds * 1000).unref()))
    )
  )
}))

/**
 * Built before the database: a port in use stops the start here, before any migration runs or any
 * collector starts (a second `npm start`).
 */
const PortFree = Layer.effectDiscard(Effect.flatMap(Settings, (settings) => checkPort(settings.port)))

// SIGTERM and SIGINT interrupt the main fiber: the server stops accepting connections, lets in-flight
// requests finish, then the database closes.
ShutdownDeadline.pipe(
  Layer.provideMerge(HttpServerLive),
  Layer.provideMerge(CollectorLive),
  // Folds the answers stored since the last pass into the analytics rollups (src/Analytics/Merger.ts).
  Layer.provideMerge(Merger.background),
  // Answers are analysed on worker threads, off the event loop (src/Responses/Analyzer.ts).
  Layer.provide(Analyzer.threads()),
  Layer.provide(Metrics.layer),
  Layer.provide(Tracing.layer),
  Layer.provide(DatabaseLive),
  Layer.provide(PortFree),
  Layer.provide(LoggingLive),
  Layer.provide(Settings.layer),
  Layer.launch,
  runProcess("the service could not start")
)
