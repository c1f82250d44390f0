import { NodeRuntime } from "@effect/platform-node"
import { Layer, Logger } from "effect"
import * as Stdio from "./Mcp/Stdio.ts"

// stdout carries the protocol: logs go to stderr.
Layer.launch(Stdio.layer.pipe(Layer.provide(Logger.add(Logger.prettyLogger({ stderr: true }))))).pipe(NodeRuntime.runMain)
