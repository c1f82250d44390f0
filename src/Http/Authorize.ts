import {
  type HttpApiEndpoint,
  HttpApiMiddleware,
  HttpApiSecurity,
  HttpApp,
  type HttpMethod,
  HttpServerRequest,
  HttpServerResponse,
  OpenApi
} from "@effect/platform"
import { type Context, Effect, Layer, Option, Schema } from "effect"
import { abilities, type Ability, grants } from "../Domain/Ability.ts"
import { KEY_PATTERN } from "../Domain/ApiKey.ts"
import { Forbidden, TooManyRequests, Unauthenticated } from "../Domain/Errors.ts"
import { RequestQuota } from "./RequestQuota.ts"
import * as ErrorSchemas from "./ErrorSchemas.ts"
import { KeyAuth } from "./Ports.ts"
import { Caller, type NamedProject, readProjectHeader } from "./RequestContext.ts"

export { CurrentKey } from "./RequestContext.ts"

const bearer = HttpApiSecurity.bearer.pipe(
  HttpApiSecurity.annotate(OpenApi.Description, "An API key: `Authorization: Bearer bvm_...`. Keys are issued by `npm run cli -- keys create`.")
)

const failure = Schema.Union(ErrorSchemas.Unauthenticated, ErrorSchemas.TooManyRequests, ErrorSchemas.Forbidden)

/**
 * The guard of an endpoint: authenticates the key (401), spends one request of its quota (429), then
 * checks the endpoint's ability (403), in that order. It provides the `Caller`: the key and the project
 * the request's `Service-Project-Id` names, read once and looked up with the key.
 *
 * One middleware per ability, declared on each endpoint, so an endpoint's declaration says what it
 * needs. Endpoint middleware runs before group middleware, which is what puts these checks ahead of
 * the project header and of request decoding (docs/api.md, order of checks).
 */
export class Authorize extends HttpApiMiddleware.Tag<Authorize>()("Authorize", {
  security: { bearer },
  provides: Caller,
  failure
}) {}

type AuthorizeTag = typeof Authorize

const tags = new Map<Ability | "authenticated", AuthorizeTag>()

const tagFor = (requirement: Ability | "authenticated"): AuthorizeTag => {
  let tag = tags.get(requirement)
  if (tag === undefined) {
    // Same shape as `Authorize`, its own key: one service per requirement.
    tag = HttpApiMiddleware.Tag<Authorize>()(`Authorize/${requirement}` as "Authorize", {
      security: { bearer },
      provides: Caller,
      failure
    })
    tags.set(requirement, tag)
  }
  return tag
}

/** The middleware of an endpoint that needs `ability`. */
export const requires = (ability: Ability): AuthorizeTag => tagFor(ability)

type AuthorizeFailure = HttpApiMiddleware.HttpApiMiddleware.Error<Authorize>

/**
 * An endpoint's guard and documentation in one step: the key must hold `ability`, and the OpenAPI
 * document gets the endpoint's summary and its description, which ends by naming the ability.
 */
export const guarded = (ability: Ability, summary: string, description: string) =>
<Name extends string, Method extends HttpMethod.HttpMethod, Path, UrlParams, Payload, Headers, Success, Error, R, RE>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>
): HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error | AuthorizeFailure, R | Authorize, RE> =>
  endpoint.middleware(requires(ability))
    .annotate(OpenApi.Summary, summary)
    .annotate(OpenApi.Description, `${description} Ability \`${ability}\`.`)

/** The middleware of an endpoint that needs a valid key and no ability (`GET /me`). */
export const authenticated: AuthorizeTag = tagFor("authenticated")

const implementation = (requirement: Ability | "authenticated") =>
  Effect.gen(function*() {
    const auth = yield* KeyAuth
    const quota = yield* RequestQuota
    return {
      bearer: (token) =>
        Effect.gen(function*() {
          // The platform strips any 7-character scheme; only `Bearer` (in any case) carries a key.
          const request = yield* HttpServerRequest.HttpServerRequest
          const refusal = refusalOf(request.headers.authorization)
          if (refusal !== undefined) return yield* unauthenticated(refusal)
          // The project the request names, if any, is looked up with the key, for ProjectContext.
          const header = readProjectHeader(request.headers["service-project-id"])
          const found = yield* auth.authenticate(token, header._tag === "Id" ? Option.some(header.id) : Option.none()).pipe(
            Effect.catchTag("Unauthenticated", () => unauthenticated(UNUSABLE_KEY))
          )
          const key = found.key
          // The request's span names its key (by prefix, never the key) and the project it names.
          yield* Effect.annotateCurrentSpan({ "key.prefix": key.prefix, ...(header._tag === "Id" ? { "project.id": header.id } : {}) })
          const project: NamedProject = header._tag !== "Id"
            ? header
            : Option.match(found.project, {
              onNone: () => ({ _tag: "NotFound" }),
              onSome: (project) => ({ _tag: "Found", project })
            })
          const remaining = yield* quota.consume(key.id).pipe(
            Effect.catchTag("QuotaExceeded", (exceeded) =>
              rateLimitHeaders(exceeded.limit, 0, { "retry-after": String(exceeded.retryAfterSeconds) }).pipe(
                Effect.zipRight(Effect.fail(new TooManyRequests()))
              ))
          )
          yield* rateLimitHeaders(remaining.limit, remaining.remaining)
          if (requirement !== "authenticated" && !grants(key.abilities, requirement)) {
            return yield* new Forbidden({ requiredAbility: requirement })
          }
          return { key, project }
        })
    } satisfies Context.Tag.Service<AuthorizeTag>
  })

/** Headers for the response to this request, whatever its status. */
const responseHeaders = (headers: Record<string, string>) =>
  HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))

/** `X-RateLimit-*` on every response to an authenticated request, whatever its status. */
const rateLimitHeaders = (limit: number, remaining: number, more: Record<string, string> = {}) =>
  responseHeaders({ "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": String(remaining), ...more })

/**
 * What a 401's `WWW-Authenticate` says (RFC 6750, section 3); the body is always `Unauthenticated.`. No
 * credentials: the scheme alone. A header that is not `Bearer <key>`: `invalid_request`, with what was
 * expected. A key that is not of the keys' form: `invalid_token`, saying so. A well-formed key that is
 * unknown, revoked or expired: `invalid_token`, with one description for the three, so that a client
 * learns nothing of which keys exist (docs/api.md, "Authentication and limits").
 */
export type Refusal =
  | "no credentials"
  | { readonly error: "invalid_request" | "invalid_token"; readonly description: string }

export const challenge = (refusal: Refusal): string =>
  refusal === "no credentials" ? "Bearer" : `Bearer error="${refusal.error}", error_description="${refusal.description}"`

const EXPECTED = "Authorization: Bearer bvm_..."
const UNUSABLE_KEY: Refusal = { error: "invalid_token", description: "The key is unknown, revoked or expired." }

/** Why an Authorization header carries no key to look up; undefined when it is `Bearer` and a key of the keys' form. */
export const refusalOf = (authorization: string | undefined): Refusal | undefined => {
  if (authorization === undefined || authorization.trim() === "") return "no credentials"
  const bearer = /^bearer (.*)$/is.exec(authorization)
  const value = authorization.trim()
  if (bearer === null && !/^bearer$/i.test(value)) {
    return {
      error: "invalid_request",
      description: value.startsWith("bvm_")
        ? `The Bearer scheme is missing: send ${EXPECTED}`
        : `Only the Bearer scheme is accepted: ${EXPECTED}`
    }
  }
  const token = bearer === null ? "" : bearer[1]!.trim()
  if (token === "") return { error: "invalid_request", description: `Expected a key after Bearer: ${EXPECTED}` }
  if (!KEY_PATTERN.test(token)) return { error: "invalid_token", description: "A key is bvm_ followed by 40 letters and digits." }
  return undefined
}

/** A 401: the body says `Unauthenticated.`, the header which scheme to use and, when it helps, what was wrong. */
const unauthenticated = (refusal: Refusal) =>
  responseHeaders({ "www-authenticate": challenge(refusal) }).pipe(Effect.zipRight(Effect.fail(new Unauthenticated())))

/** The 401 of a key that was valid when the request began and is gone now (its organization deleted meanwhile). */
export const keyGone = unauthenticated(UNUSABLE_KEY)

export const layer = (["authenticated", ...abilities] as const)
  .map((requirement) => Layer.effect(tagFor(requirement), implementation(requirement)))
  .reduce((all, one) => Layer.merge(all, one))
