import {
  HttpApi,
  HttpApiBuilder,
  type HttpApiEndpoint,
  type HttpApiGroup,
  HttpApiSchema,
  HttpServerResponse
} from "@effect/platform"
import { Chunk, Effect, Either, type Layer, type Schema, type Scope } from "effect"
import * as Compiled from "../Schema/Compiled.ts"
import * as ErrorSchemas from "./ErrorSchemas.ts"
import { ProjectLookup } from "./Ports.ts"
import { projectFirst } from "./ProjectGone.ts"

/** The API's identifier: a group's handlers are the service `ApiGroup<"brand-visibility", name>`. */
export const apiId = "brand-visibility"

/**
 * What every group of the API shares, added once the groups are: the errors any endpoint may answer
 * (ErrorResponse.ts; the others are declared where they arise) and the `/api/v1` prefix.
 */
export const shared = <Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(api: HttpApi.HttpApi<typeof apiId, Groups, E, R>) =>
  api.addError(ErrorSchemas.ServerError).addError(ErrorSchemas.ServiceUnavailable).prefix("/api/v1")

/** The API as one group sees it: the group alone with what every group shares (its handlers need no more). */
const alone = <Group extends HttpApiGroup.HttpApiGroup.Any>(group: Group) => shared(HttpApi.make(apiId).add(group))

/** The errors every endpoint may answer, which every handler may fail with. */
type SharedError = Schema.Schema.Type<typeof ErrorSchemas.ServerError> | Schema.Schema.Type<typeof ErrorSchemas.ServiceUnavailable>

/**
 * `HttpApiBuilder.group` for one group of the API, built against that group (not the whole `Api`, which
 * is a fold over the areas that hold these handlers: src/Areas.ts). Its endpoints and routes are the
 * ones the whole API has: same identifier, same shared errors, same prefix.
 *
 * The endpoints' answers are encoded by their success schema compiled to a plain function
 * (Schema/Compiled.ts) instead of Schema's general parser, which `@effect/platform` runs on every
 * answer: encoding a page of 25 prompts cost a request more CPU than its SQL.
 *
 * The answer is the one `@effect/platform` would send, byte for byte: the same status, content type
 * and JSON (test/unit/compiled-schema.test.ts). An endpoint whose success schema is a union, empty, not
 * JSON or not compilable, and any value the compiled encoder does not vouch for, are left to
 * `@effect/platform`, errors included.
 *
 * Every handler's 422 and resource 404 are also checked against its project (ProjectGone.ts), hence
 * the project lookup the group needs.
 */
export const group = <Group extends HttpApiGroup.HttpApiGroup.Any, Return>(
  group: Group,
  build: (
    handlers: HttpApiBuilder.Handlers.FromGroup<SharedError, never, Group>
  ) => HttpApiBuilder.Handlers.ValidateReturn<Return>
): Layer.Layer<
  HttpApiGroup.ApiGroup<typeof apiId, HttpApiGroup.HttpApiGroup.Name<Group>>,
  HttpApiBuilder.Handlers.Error<Return>,
  | Exclude<HttpApiBuilder.Handlers.Context<Return> | HttpApiGroup.HttpApiGroup.Middleware<Group>, Scope.Scope>
  | ProjectLookup
> =>
  (HttpApiBuilder.group as any)(alone(group), group.identifier, (handlers: any) =>
    Effect.gen(function*() {
      const built = build(handlers) as any
      const finished = Effect.isEffect(built) ? yield* (built as Effect.Effect<any, any, any>) : built
      return withCompiledAnswers(finished, projectFirst(yield* ProjectLookup))
    }))

interface HandlerItem {
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
  readonly handler: (request: any) => Effect.Effect<unknown, unknown, unknown>
  readonly withFullRequest: boolean
}

// The handlers of a group are a value of @effect/platform's own prototype: copied with the list of its
// handlers replaced, as its `handle` does.
const withCompiledAnswers = <H extends { readonly handlers: Chunk.Chunk<HandlerItem> }>(
  handlers: H,
  projectChecked: (handler: Effect.Effect<unknown, unknown, unknown>) => Effect.Effect<unknown, unknown, unknown>
): H =>
  Object.assign(Object.create(Object.getPrototypeOf(handlers)), handlers, {
    handlers: Chunk.map(handlers.handlers, (item) => {
      const answer = answerOf(item.endpoint)
      return {
        ...item,
        handler: answer === undefined
          ? (request: unknown) => projectChecked(item.handler(request))
          : (request: unknown) =>
            Effect.map(projectChecked(item.handler(request)), (value) => HttpServerResponse.isServerResponse(value) ? value : answer(value))
      }
    })
  })

/** The response of a success value, or the value itself for @effect/platform to encode. */
const answerOf = (endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps): ((value: unknown) => unknown) | undefined => {
  const schema = endpoint.successSchema
  const ast = schema.ast
  if (ast._tag === "Union" || HttpApiSchema.isVoid(ast)) return undefined
  const encoding = HttpApiSchema.getEncoding(ast)
  if (encoding.kind !== "Json" || !Compiled.isCompiled(schema, "encode")) return undefined
  const status = HttpApiSchema.getStatusSuccessAST(ast)
  const encode = Compiled.encoder(schema as any)
  return (value) => {
    const encoded = encode(value)
    // A value that does not encode, or not to JSON, goes to @effect/platform, which reports it as it always does.
    if (Either.isLeft(encoded)) return value
    try {
      return HttpServerResponse.unsafeJson(encoded.right, { status, contentType: encoding.contentType })
    } catch {
      return value
    }
  }
}
