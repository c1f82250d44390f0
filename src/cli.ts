import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { BaseLive, LoggingLive } from "./Cli/Environment.ts"
import { report } from "./Cli/Errors.ts"
import { run } from "./Cli/Root.ts"

// `report` prints any failure (bad settings included) as a clean message; runMain only turns it into
// exit code 1. The stderr logger is outermost so that nothing ever logs to stdout.
run(process.argv).pipe(
  Effect.provide(BaseLive),
  report,
  Effect.provide(LoggingLive),
  NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
)
