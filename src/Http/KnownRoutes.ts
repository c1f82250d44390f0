import { HttpApi, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Option } from "effect"

/**
 * The methods the API serves on each path, read off its declaration: a request with another method on
 * a known path is answered 405 with `Allow`, rather than 404 as if the path did not exist. A path is
 * known when it matches a declared one exactly, as the router matches (src/Server.ts): same case, no
 * doubled or trailing slash.
 */
export const makeKnownRoutes = (api: HttpApi.HttpApi.Any) => {
  const routes: Array<{ readonly method: string; readonly path: string; readonly pattern: RegExp }> = []
  HttpApi.reflect(api as HttpApi.HttpApi<string, any, any, any>, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const source = endpoint.path.split("/").map((segment) => segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("/")
      routes.push({ method: endpoint.method, path: endpoint.path, pattern: new RegExp(`^${source}$`) })
    }
  })
  return {
    /** The methods served on a path (without its query), in declaration order; empty for an unknown path. */
    methodsOf: (path: string): ReadonlyArray<string> => [...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))],
    /** The declared path a path matches (`/api/v1/tags/:tag`), if any. */
    declaredPath: (path: string): string | undefined => routes.find((route) => route.pattern.test(path))?.path
  }
}

const isRouteNotFound = (cause: Cause.Cause<unknown>): boolean =>
  Option.exists(Cause.failureOption(cause), (error) =>
    typeof error === "object" && error !== null && (error as { readonly _tag?: unknown })._tag === "RouteNotFound")

/**
 * The 405 of a request that found no route although its path is known, or nothing (the 404 stays).
 */
export const methodNotAllowed = (known: ReturnType<typeof makeKnownRoutes>, cause: Cause.Cause<unknown>) =>
  Effect.gen(function*() {
    if (!isRouteNotFound(cause)) return Option.none()
    const request = yield* HttpServerRequest.HttpServerRequest
    const methods = known.methodsOf(request.url.split("?")[0]!)
    if (methods.length === 0) return Option.none()
    return Option.some(HttpServerResponse.unsafeJson({ message: "Method Not Allowed" }, {
      status: 405,
      headers: { allow: methods.join(", ") }
    }))
  })
