import { McpServer } from "@effect/ai"
import { FetchHttpClient, HttpApiBuilder, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { RpcSerialization, RpcServer } from "@effect/rpc"
import { Effect, Layer, Option, Redacted } from "effect"
import { KeyAuthLive } from "../ApiKeys/Http.ts"
import { KeyAuth } from "../Http/Ports.ts"
import * as Client from "../Client/Client.ts"
import * as McpTools from "./McpTools.ts"
import { ToolFailure } from "./Tools.ts"

/**
 * The MCP server over streamable HTTP at `POST /mcp` of the main server. A request without a valid
 * Bearer key is a 401, as on the API. Each HTTP request is one MCP client of the RPC protocol; its key
 * is remembered for the tools it calls, which call the API (on this server, over loopback) with that
 * key: the same abilities, projects and rate limit as any API call of the key.
 */

const PATH = "/mcp"

const unauthenticated = HttpServerResponse.unsafeJson({ message: "Unauthenticated." }, {
  status: 401,
  headers: { "www-authenticate": "Bearer" }
})

const bearer = (value: string | undefined) => value !== undefined && /^Bearer\s+/i.test(value) ? value.replace(/^Bearer\s+/i, "") : undefined

const layerMounted = Layer.unwrapScoped(Effect.gen(function*() {
  const keys = new Map<number, string>()
  const { httpApp, protocol } = yield* RpcServer.makeProtocolWithHttpApp
  const auth = yield* KeyAuth
  const router = yield* HttpApiBuilder.Router
  yield* router.post(
    PATH,
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const key = bearer(request.headers.authorization)
      if (key === undefined) return unauthenticated
      const known = yield* Effect.either(auth.authenticate(Redacted.make(key), Option.none()))
      if (known._tag === "Left") return unauthenticated
      return yield* httpApp
    }).pipe(Effect.scoped)
  )
  // The request's headers come with each of its messages: the key of an MCP client is its request's.
  const remembering = RpcServer.Protocol.of({
    ...protocol,
    run: (f) =>
      protocol.run((clientId, message) => {
        if (message._tag === "Request") {
          const key = bearer(message.headers.find(([name]) => name === "authorization")?.[1])
          if (key !== undefined) keys.set(clientId, key)
        }
        return f(clientId, message)
      }),
    end: (clientId) => Effect.zipRight(Effect.sync(() => keys.delete(clientId)), protocol.end(clientId))
  })

  const server = yield* HttpServer.HttpServer
  const address = server.address
  const baseUrl = address._tag === "TcpAddress"
    ? `http://${address.hostname === "0.0.0.0" || address.hostname === "::" ? "127.0.0.1" : address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}`
    : "http://127.0.0.1"
  const fetchLayer = FetchHttpClient.layer
  const caller = McpTools.ToolCaller.of({
    of: (clientId) => {
      const key = keys.get(clientId)
      if (key === undefined) return Effect.fail(new ToolFailure({ message: "Refused: no key came with this request." }))
      return Effect.map(Effect.provide(Client.make({ baseUrl, apiKey: key }), fetchLayer), (client) => ({ client, projectId: undefined }))
    }
  })
  return McpTools.layer.pipe(
    Layer.provide(McpServer.layer(McpTools.serverInfo)),
    Layer.provide(Layer.succeed(RpcServer.Protocol, remembering)),
    Layer.provide(Layer.succeed(McpTools.ToolCaller, caller))
  )
}))

/** `POST /mcp` on the API's router; needs the key check's repository and the HTTP server (for its own address). */
export const layer = layerMounted.pipe(
  Layer.provide(RpcSerialization.layerJsonRpc()),
  Layer.provide(KeyAuthLive),
  // The API's router (one instance per server: a Layer is built once however often it is provided).
  Layer.provide(HttpApiBuilder.Router.Live)
)
