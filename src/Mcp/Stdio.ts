import { McpServer } from "@effect/ai"
import { FetchHttpClient } from "@effect/platform"
import { NodeSink, NodeStream } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import * as Client from "../Client/Client.ts"
import * as McpTools from "./McpTools.ts"

/**
 * The MCP server over stdio (`npm run mcp`), for assistants that start it as a command: a client of a
 * running service, with the key and project of the environment (`BVM_URL`, `BVM_API_KEY`,
 * `BVM_PROJECT_ID`), so it reaches exactly what that key reaches over HTTP.
 */
const CallerFromConfig = Layer.effect(
  McpTools.ToolCaller,
  Effect.gen(function*() {
    const options = yield* Client.config
    const client = yield* Client.make(options)
    return McpTools.ToolCaller.of({ of: () => Effect.succeed({ client, projectId: options.projectId }) })
  })
).pipe(Layer.provide(FetchHttpClient.layer))

export const layer = McpTools.layer.pipe(
  Layer.provide(McpServer.layerStdio({ ...McpTools.serverInfo, stdin: NodeStream.stdin, stdout: NodeSink.stdout })),
  Layer.provide(CallerFromConfig)
)
