import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { BaseLive } from "./Cli/Environment.ts"
import { report } from "./Cli/Errors.ts"
import { run } from "./Cli/Root.ts"

// Failures are printed by `report` as one clean line; runMain only turns them into exit code 1.
run(process.argv).pipe(
  report,
  Effect.provide(BaseLive),
  NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
)
