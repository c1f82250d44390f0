import {
  type HttpApi,
  HttpApiBuilder,
  type HttpApiEndpoint,
  type HttpApiGroup,
  HttpApiSchema,
  HttpServerResponse
} from "@effect/platform"
import { Chunk, Effect, Either, type Layer, type Scope } from "effect"
import * as Compiled from "../Schema/Compiled.ts"
import { ProjectLookup } from "./Ports.ts"
import { projectFirst } from "./ProjectGone.ts"

/**
 * `HttpApiBuilder.group`, whose endpoints' answers are encoded by their success schema compiled to a
 * plain function (Schema/Compiled.ts) instead of Schema's general parser, which `@effect/platform`
 * runs on every answer: encoding a page of 25 prompts cost a request more CPU than its SQL.
 *
 * The answer is the one `@effect/platform` would send, byte for byte: the same status, content type
 * and JSON (test/unit/compiled-schema.test.ts). An endpoint whose success schema is a union, empty, not
 * JSON or not compilable, and any value the compiled encoder does not vouch for, are left to
 * `@effect/platform`, errors included.
 *
 * Every handler's 422 and resource 404 are also checked against its project (ProjectGone.ts), hence
 * the project lookup the group needs.
 */
export const group = <
  ApiId extends string,
  Groups extends HttpApiGroup.HttpApiGroup.Any,
  ApiError,
  ApiR,
  const Name extends HttpApiGroup.HttpApiGroup.Name<Groups>,
  Return
>(
  api: HttpApi.HttpApi<ApiId, Groups, ApiError, ApiR>,
  groupName: Name,
  build: (
    handlers: HttpApiBuilder.Handlers.FromGroup<ApiError, ApiR, HttpApiGroup.HttpApiGroup.WithName<Groups, Name>>
  ) => HttpApiBuilder.Handlers.ValidateReturn<Return>
): Layer.Layer<
  HttpApiGroup.ApiGroup<ApiId, Name>,
  HttpApiBuilder.Handlers.Error<Return>,
  | Exclude<HttpApiBuilder.Handlers.Context<Return> | HttpApiGroup.HttpApiGroup.MiddlewareWithName<Groups, Name>, Scope.Scope>
  | ProjectLookup
> =>
  (HttpApiBuilder.group as any)(api, groupName, (handlers: any) =>
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
