import { Layer } from "effect"
import * as Merger from "./Analytics/Merger.ts"
import * as Collector from "./Collector/Collector.ts"
import { Settings } from "./Config.ts"
import * as Database from "./Database/Database.ts"
import * as Migrations from "./Database/Migrations.ts"
import { LoggingLive, runProcess } from "./Logging.ts"
import * as Tracing from "./Observability/Tracing.ts"
import * as Repositories from "./Repositories.ts"
import { Analyzer } from "./Responses/Analyzer.ts"

/**
 * A collector process without the API (`npm run worker`): run any number of them beside one
 * `WORKER=off npm start` to ask more platforms at once. On the embedded database it shares the running
 * server's database, as the CLI does.
 */
Layer.merge(Collector.layerLive, Merger.background).pipe(
  Layer.provide(Analyzer.threads()),
  Layer.provide(Tracing.layer),
  Layer.provide(Repositories.layerSql),
  Layer.provide(Migrations.layer),
  Layer.provideMerge(Database.layer({ shareRunning: true })),
  Layer.provide(LoggingLive),
  Layer.provideMerge(Settings.layer),
  Layer.launch,
  runProcess("the worker could not start")
)
