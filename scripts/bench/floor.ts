/**
 * The floor under an answer, for `npm run bench`: two servers in the bench's own process that answer
 * every GET with the body the service last gave for the scenario being measured, doing nothing else.
 *
 * - `bare`: `node:http` sending the answer's bytes as they are, with the same content type and
 *   length. No framework, no JSON encoding: the round trip that any HTTP server on this machine and
 *   this client costs at least.
 * - `framework`: the smallest app of the framework the service is built on, `@effect/platform`'s
 *   HttpApi on `@effect/platform-node`, with one endpoint and no middleware, returning the answer as a
 *   value (parsed once, ahead) for the framework to encode as JSON.
 *
 * A request to the service less its statement's time cannot be cheaper than these: what they cost, set
 * against the statement, is the lowest api/sql any server (or any app of this framework) could reach.
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Schema } from "effect"
import * as Http from "node:http"

export interface FloorServers {
  /** What both answer from now on: the service's answer, as its bytes. */
  readonly answerWith: (body: string) => void
  readonly bareUrl: string
  readonly frameworkUrl: string
  readonly close: () => Promise<void>
}

class FloorApi extends HttpApi.make("floor").add(
  HttpApiGroup.make("floor").add(HttpApiEndpoint.get("answer", "/floor").addSuccess(Schema.Unknown))
) {}

export const startFloorServers = async (): Promise<FloorServers> => {
  let bytes = Buffer.from("{}")
  let value: unknown = {}

  const bare = Http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-length": bytes.length })
    response.end(bytes)
  })
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve))
  const bareAddress = bare.address()
  if (bareAddress === null || typeof bareAddress === "string") throw new Error("expected a TCP address")

  const handlers = HttpApiBuilder.group(FloorApi, "floor", (handlers) => handlers.handle("answer", () => Effect.sync(() => value)))
  const app = HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApiBuilder.api(FloorApi).pipe(Layer.provide(handlers))),
    Layer.provideMerge(NodeHttpServer.layer(Http.createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.None))
  )
  const runtime = ManagedRuntime.make(app)
  const address = await runtime.runPromise(HttpServer.addressWith(Effect.succeed))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")

  return {
    answerWith: (body) => {
      bytes = Buffer.from(body)
      value = JSON.parse(body)
    },
    bareUrl: `http://127.0.0.1:${bareAddress.port}/floor`,
    frameworkUrl: `http://127.0.0.1:${address.port}/floor`,
    close: async () => {
      bare.closeAllConnections()
      await new Promise<void>((resolve) => bare.close(() => resolve()))
      await runtime.dispose()
    }
  }
}
