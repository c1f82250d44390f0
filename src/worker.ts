import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Layer, Option } from "effect"
import * as Collector from "./Collector/Collector.ts"
import * as Jobs from "./Collector/Jobs.ts"
import * as PlatformsLive from "./Collector/PlatformsLive.ts"
import { Settings } from "./Config.ts"
import * as Database from "./Database/Database.ts"
import * as Migrations from "./Database/Migrations.ts"
import { LoggingLive } from "./Logging.ts"
import * as Repositories from "./Repositories.ts"

/**
 * A collector process without the API (`npm run worker`): run any number of them beside one
 * `WORKER=off npm start` to ask more platforms at once. On the embedded database it shares the running
 * server's database, as the CLI does.
 */
Collector.layer.pipe(
  Layer.provide(Jobs.layerSql),
  Layer.provide(PlatformsLive.layer),
  Layer.provide(Repositories.layerSql),
  Layer.provide(Migrations.layer),
  Layer.provideMerge(Database.layer({ shareRunning: true })),
  Layer.provide(LoggingLive),
  Layer.provideMerge(Settings.layer),
  Layer.launch,
  Effect.tapErrorCause((cause) =>
    Effect.logFatal("the worker could not start").pipe(
      Effect.annotateLogs("reason", Option.match(Cause.failureOption(cause), {
        onNone: () => Cause.pretty(cause),
        onSome: (error) => error instanceof Error ? error.message : String(error)
      }))
    )
  ),
  NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
)
