import * as WorkerRunner from "@effect/platform/WorkerRunner"
import * as NodeWorkerRunner from "@effect/platform-node/NodeWorkerRunner"
import { Effect, Layer } from "effect"
import { type AnalysisJob, runAnalysisJob } from "./Responses/Analysis.ts"

/**
 * A thread of the analysis pool (src/Responses/Analyzer.ts): runs the jobs it is sent, one at a time, and
 * answers with their results. Nothing else runs here, so a long analysis holds no one else's request.
 */
WorkerRunner.layer((job: AnalysisJob) => Effect.sync(() => runAnalysisJob(job))).pipe(
  Layer.provide(NodeWorkerRunner.layer),
  WorkerRunner.launch,
  Effect.runFork
)
