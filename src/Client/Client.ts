import {
  FetchHttpClient,
  type HttpApi,
  HttpApiClient,
  type HttpApiEndpoint,
  type HttpApiGroup,
  HttpClient,
  type HttpClientError,
  HttpClientRequest
} from "@effect/platform"
import { Config, type ConfigError, Context, Effect, Layer, Option, type ParseResult, type Redacted } from "effect"
import type { Simplify } from "effect/Types"
import { Api } from "../Api.ts"

/**
 * The typed client of the service, derived from the same declaration as the server (src/Api.ts):
 * every call is checked by the compiler against its endpoint, every answer decoded by its schema, and
 * every documented error arrives as a typed failure (`Unauthenticated`, `Forbidden`, `NotFound`,
 * `ValidationError`, `TooManyRequests`, `MissingProjectHeader`, `InvalidProjectHeader`; a 500 or 503 as
 * its `{ message, request_id }` body).
 *
 * The client is configured once with the base URL, the key and, optionally, a project: calls of
 * project-scoped endpoints then need no `Service-Project-Id` header (one given in a call wins).
 */
export interface ClientOptions {
  /** Where the service listens: `http://localhost:3000` (the API is under `/api/v1` of it). */
  readonly baseUrl: string | URL
  readonly apiKey: string | Redacted.Redacted<string>
  /** The project of project-scoped calls, unless a call names another with its `headers`. */
  readonly projectId?: number | undefined
}

type ProjectHeaderName = "service-project-id"

/** A request whose headers are only the project header: the header becomes optional, given by the configuration. */
type WithProjectDefault<Request> = Request extends { readonly headers: infer H }
  ? ProjectHeaderName extends keyof H ? Simplify<Omit<Request, "headers"> & { readonly headers?: H | undefined }> : Request
  : Request

/** Whether a call may leave out its request: it has none, or every field of it is optional. */
type Omittable<Request> = void extends Request ? true : {} extends Request ? true : false

/** The request of an endpoint, as the client takes it. */
export type RequestOf<Endpoint> = [Endpoint] extends [
  HttpApiEndpoint.HttpApiEndpoint<
    infer _Name,
    infer _Method,
    infer _Path,
    infer _UrlParams,
    infer _Payload,
    infer _Headers,
    infer _Success,
    infer _Error,
    infer _R,
    infer _RE
  >
] ? WithProjectDefault<Simplify<HttpApiEndpoint.HttpApiEndpoint.ClientRequest<_Path, _UrlParams, _Payload, _Headers, false>>>
  : never

type Method<Endpoint, E, GroupError> = [Endpoint] extends [
  HttpApiEndpoint.HttpApiEndpoint<
    infer _Name,
    infer _Method,
    infer _Path,
    infer _UrlParams,
    infer _Payload,
    infer _Headers,
    infer _Success,
    infer _Error,
    infer _R,
    infer _RE
  >
] ? Omittable<RequestOf<Endpoint>> extends true ? (request?: RequestOf<Endpoint>) => Effect.Effect<_Success, Failure<_Error | GroupError | E>>
  : (request: RequestOf<Endpoint>) => Effect.Effect<_Success, Failure<_Error | GroupError | E>>
  : never

/** What a call fails with: an error the endpoint documents, or the transport's or decoding's. */
export type Failure<Documented> = Documented | HttpClientError.HttpClientError | ParseResult.ParseError

type Group<Groups extends HttpApiGroup.HttpApiGroup.Any, Name extends string, E> = [HttpApiGroup.HttpApiGroup.WithName<Groups, Name>] extends
  [HttpApiGroup.HttpApiGroup<infer _Name, infer _Endpoints, infer _GroupError, infer _GroupErrorR>]
  ? { readonly [Endpoint in _Endpoints as HttpApiEndpoint.HttpApiEndpoint.Name<Endpoint>]: Method<Endpoint, E, _GroupError> }
  : never

type PromiseGroup<Groups extends HttpApiGroup.HttpApiGroup.Any, Name extends string> = [HttpApiGroup.HttpApiGroup.WithName<Groups, Name>] extends
  [HttpApiGroup.HttpApiGroup<infer _Name, infer _Endpoints, infer _GroupError, infer _GroupErrorR>] ? {
    readonly [Endpoint in _Endpoints as HttpApiEndpoint.HttpApiEndpoint.Name<Endpoint>]: Omittable<RequestOf<Endpoint>> extends true
      ? (request?: RequestOf<Endpoint>) => Promise<HttpApiEndpoint.HttpApiEndpoint.Success<Endpoint>>
      : (request: RequestOf<Endpoint>) => Promise<HttpApiEndpoint.HttpApiEndpoint.Success<Endpoint>>
  }
  : never

type ApiGroups = typeof Api extends HttpApi.HttpApi<infer _Id, infer Groups, infer _E, infer _R> ? Groups : never
type ApiError = typeof Api extends HttpApi.HttpApi<infer _Id, infer _Groups, infer E, infer _R> ? E : never

/** The client: one object per area (`projects`, `prompts`, `analytics`...), one method per endpoint. */
export type Client = Simplify<
  { readonly [G in ApiGroups as HttpApiGroup.HttpApiGroup.Name<G>]: Group<ApiGroups, HttpApiGroup.HttpApiGroup.Name<G>, ApiError> }
>

/**
 * The client for programs without Effect: the same methods, each answering a Promise. A documented
 * error rejects it with the error itself (`error._tag` is `"NotFound"`, `"ValidationError"`...,
 * `error.errors` the fields of a 422); a transport failure with the platform's error.
 */
export type PromiseClient = Simplify<
  { readonly [G in ApiGroups as HttpApiGroup.HttpApiGroup.Name<G>]: PromiseGroup<ApiGroups, HttpApiGroup.HttpApiGroup.Name<G>> }
>

/** The client of the service, as an Effect service. */
export class BrandVisibilityClient extends Context.Tag("BrandVisibilityClient")<BrandVisibilityClient, Client>() {}

/** The client on the given `HttpClient` (the platform's fetch client in `layer`). */
export const make = (options: ClientOptions): Effect.Effect<Client, never, HttpClient.HttpClient> =>
  Effect.map(
    HttpApiClient.make(Api, {
      baseUrl: options.baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(options.apiKey))
    }),
    (client) => withProject(client, options.projectId)
  )

/** The project-scoped methods of `client`, given the project header unless a call gives its own. */
const withProject = (client: Record<string, Record<string, (request: any) => unknown>>, projectId: number | undefined): Client => {
  const header = projectId === undefined ? {} : { "service-project-id": String(projectId) }
  const scoped: Record<string, Record<string, (request: any) => unknown>> = {}
  for (const group of Object.values(Api.groups)) {
    const methods = client[group.identifier]
    if (methods === undefined) continue
    const wrapped: Record<string, (request: any) => unknown> = { ...methods }
    for (const endpoint of Object.values(group.endpoints)) {
      const headers = endpoint.headersSchema
      if (Option.isNone(headers) || !("service-project-id" in (headers.value as any).fields)) continue
      const method = methods[endpoint.name]!
      wrapped[endpoint.name] = (request: any) => method({ ...request, headers: { ...header, ...request?.headers } })
    }
    scoped[group.identifier] = wrapped
  }
  return scoped as unknown as Client
}

/** The client as a Layer, over the platform's fetch. */
export const layer = (options: ClientOptions): Layer.Layer<BrandVisibilityClient> =>
  Layer.effect(BrandVisibilityClient, make(options)).pipe(Layer.provide(FetchHttpClient.layer))

/**
 * The client configured from the environment (or any `ConfigProvider`):
 * `BVM_URL` (default `http://localhost:3000`), `BVM_API_KEY`, and `BVM_PROJECT_ID` (optional).
 */
export const config: Config.Config<ClientOptions> = Config.all({
  baseUrl: Config.string("BVM_URL").pipe(Config.withDefault("http://localhost:3000")),
  apiKey: Config.redacted("BVM_API_KEY"),
  projectId: Config.option(Config.integer("BVM_PROJECT_ID")).pipe(Config.map(Option.getOrUndefined))
})

export const layerConfig: Layer.Layer<BrandVisibilityClient, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(config, layer)
)
