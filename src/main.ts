import { NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import { Settings } from "./Config.ts"
import { LoggingLive } from "./Logging.ts"
import { DatabaseLive, HttpServerLive } from "./Server.ts"

// SIGTERM and SIGINT interrupt the main fiber: the server stops accepting connections, lets in-flight
// requests finish, then the database closes.
HttpServerLive.pipe(
  Layer.provide(DatabaseLive),
  Layer.provide(LoggingLive),
  Layer.provide(Settings.layer),
  Layer.launch,
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
