import { McpSchema, McpServer } from "@effect/ai"
import { Cause, Context, Effect, JSONSchema, Layer, Option, ParseResult, Schema } from "effect"
import type { Client } from "../Client/Client.ts"
import { Forbidden, NotFound, TooManyRequests, Unauthenticated, ValidationError } from "../Domain/Errors.ts"
import { table } from "./Table.ts"
import { type ToolContext, ToolFailure, tools } from "./Tools.ts"

/**
 * Who calls a tool: the API client with the caller's key (over stdio, the configured one; over HTTP,
 * the Bearer key of the MCP request), and the project configured for it, if any.
 */
export class ToolCaller extends Context.Tag("Mcp/ToolCaller")<ToolCaller, {
  readonly of: (mcpClientId: number) => Effect.Effect<{ readonly client: Client; readonly projectId: number | undefined }, ToolFailure>
}>() {}

export const serverInfo = { name: "brand-visibility-monitor", version: "1.0.0" }

/** The project of a call: the one named, else the configured one, else the only one the key reaches. */
const projectOf = (client: Client, configured: number | undefined) => (named: number | undefined) =>
  named !== undefined
    ? Effect.succeed(named)
    : configured !== undefined
    ? Effect.succeed(configured)
    : Effect.flatMap(client.me.me(), ({ data }) =>
      data.projects.length === 1
        ? Effect.succeed(data.projects[0]!.id)
        : Effect.fail(
          new ToolFailure({
            message: data.projects.length === 0
              ? "This key reaches no project."
              : "This key reaches several projects: pass project_id, one of:\n" + table(["id", "name"], data.projects.map((p) => [p.id, p.name]))
          })
        ))

/** What the assistant is told of a failure: the API's message, in words it can act on. */
const describeFailure = (error: unknown): string => {
  if (error instanceof ToolFailure) return error.message
  if (error instanceof Forbidden) return `Refused: this key lacks the ability "${error.requiredAbility}".`
  if (error instanceof Unauthenticated) return "Refused: the key is unknown, revoked or expired."
  if (error instanceof TooManyRequests) return "Refused: the key's request budget is spent; try again in a minute."
  if (error instanceof NotFound) return `${error.message} (or outside this key's reach).`
  if (error instanceof ValidationError) {
    return "The service refused the arguments:\n" +
      Object.entries(error.errors).map(([field, messages]) => `- ${field}: ${messages.join(" ")}`).join("\n")
  }
  if (ParseResult.isParseError(error)) return `Invalid arguments:\n${ParseResult.TreeFormatter.formatErrorSync(error)}`
  if (typeof error === "object" && error !== null && "message" in error && "request_id" in error) {
    return `The service failed (${String(error.message)}, request id ${String(error.request_id)}).`
  }
  return "The service could not be reached or answered unexpectedly."
}

const toolError = (message: string) =>
  new McpSchema.CallToolResult({ isError: true, content: [{ type: "text", text: message }] })

/** The input schema as JSON Schema, as MCP clients read it (no `$schema` line). */
const inputJsonSchema = (schema: Schema.Schema<any, any>) => {
  const { $schema: _, ...rest } = JSONSchema.make(schema) as unknown as Record<string, unknown>
  // A tool without arguments: MCP wants an object schema, where Schema writes "any object or array".
  return rest.type === "object" ? rest : { type: "object", properties: {}, required: [], additionalProperties: false }
}

/** Registers every tool with the MCP server. */
export const layer = Layer.effectDiscard(Effect.gen(function*() {
  const server = yield* McpServer.McpServer
  const callers = yield* ToolCaller
  for (const definition of tools) {
    const decode = Schema.decodeUnknown(definition.input, { errors: "all", onExcessProperty: "error" })
    yield* server.addTool({
      tool: new McpSchema.Tool({
        name: definition.name,
        description: definition.description,
        inputSchema: inputJsonSchema(definition.input),
        annotations: new McpSchema.ToolAnnotations({
          title: definition.title,
          readOnlyHint: definition.writes === undefined,
          destructiveHint: false,
          idempotentHint: definition.writes?.idempotent ?? true,
          openWorldHint: false
        })
      }),
      handle: (payload) =>
        Effect.gen(function*() {
          const input = yield* decode(payload ?? {})
          const { clientId } = yield* McpSchema.McpServerClient
          const { client, projectId } = yield* callers.of(clientId)
          const context: ToolContext = { client, project: projectOf(client, projectId) }
          return yield* definition.run(input, context)
        }).pipe(
          Effect.matchCause({
            onFailure: (cause) =>
              toolError(Option.match(Cause.failureOption(cause), {
                onSome: describeFailure,
                onNone: () => "The tool failed unexpectedly."
              })),
            onSuccess: (result) =>
              new McpSchema.CallToolResult({
                isError: false,
                content: [{ type: "text", text: result.text }],
                structuredContent: result.structured
              })
          })
        )
    })
  }
}))
