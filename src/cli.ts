import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { BaseLive, LoggingLive } from "./Cli/Environment.ts"
import { exitCode, report } from "./Cli/Errors.ts"
import { run } from "./Cli/Root.ts"

// `report` prints any failure (bad settings included) as a clean message; runMain only turns it into
// its exit code (`exitCode`: 1, or 2 when a command refused part of its input). The stderr logger is
// outermost so that nothing ever logs to stdout.
run(process.argv).pipe(
  Effect.provide(BaseLive),
  report,
  Effect.provide(LoggingLive),
  NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true, teardown: (exit, onExit) => onExit(exitCode(exit)) })
)
