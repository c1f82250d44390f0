import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Cause, Effect, Exit } from "effect"
import { Api } from "../../src/Api.ts"

/**
 * The typed client of the API, derived from its declaration like any client's: every call is checked
 * by the compiler against the endpoint (path, query, body, headers), and every answer decoded with
 * the endpoint's schema, so a success-path test fails on a body that does not match what the API
 * declares. Tests of the exact bytes on the wire use `TestServer.request` (raw fetch) instead.
 */
const make = (baseUrl: string, key: string) =>
  HttpApiClient.make(Api, {
    baseUrl,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(key))
  })

export type ApiClient = Effect.Effect.Success<ReturnType<typeof make>>

/** Runs calls of the typed client with a key; a declared error rejects the promise with the error itself. */
export const clientFor = (baseUrl: string, key: string) => async <A, E>(use: (client: ApiClient) => Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(Effect.flatMap(make(baseUrl, key), use).pipe(Effect.provide(FetchHttpClient.layer)))
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

/** The `Service-Project-Id` header of a project-scoped call. */
export const inProject = (project: number) => ({ "service-project-id": String(project) })
