import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import {
  Conflict as ConflictError,
  FieldErrors,
  Forbidden as ForbiddenError,
  InvalidProjectHeader as InvalidProjectHeaderError,
  MissingProjectHeader as MissingProjectHeaderError,
  NotFound as NotFoundError,
  TooManyRequests as TooManyRequestsError,
  Unauthenticated as UnauthenticatedError,
  ValidationError as ValidationErrorError
} from "../Domain/Errors.ts"
import { Ability } from "../Domain/Ability.ts"

/**
 * Each error of the API as the body of its response (docs/api.md, "Errors"): what `.addError()`
 * declares. Encoding writes exactly the documented body, with no `_tag`; decoding (the typed client)
 * reads it back into the error. The status comes from the error class.
 *
 * 5xx bodies are made by `ErrorResponse.ts` from defects; their schemas here only document them.
 */

type Fields = Schema.Struct.Fields

const asBody = <E, F extends Fields>(
  error: Schema.Schema<E, any>,
  options: {
    readonly identifier: string
    readonly description: string
    readonly fields: F
    readonly example: Schema.Struct.Type<F>
    readonly encode: (error: E) => Schema.Struct.Type<F>
    readonly decode: (body: Schema.Struct.Type<F>) => E
  }
) =>
  Schema.transform(Schema.Struct(options.fields).annotations({ examples: [options.example] }), Schema.typeSchema(error), {
    strict: false,
    decode: (body) => options.decode(body as Schema.Struct.Type<F>),
    encode: (value) => options.encode(value as E)
  }).annotations({ identifier: options.identifier, description: options.description })

/** A body of one fixed message. */
const messageOnly = <E extends { readonly message: string }>(
  error: Schema.Schema<E, any>,
  make: () => E,
  identifier: string,
  description: string
) =>
  asBody(error, {
    identifier,
    description,
    // Only its own message decodes: the two 400s share a status, and the typed client tells them apart by it.
    fields: { message: Schema.String.pipe(Schema.filter((message) => message === make().message)) },
    example: { message: make().message },
    encode: (value) => ({ message: value.message }),
    decode: make
  })

export const Unauthenticated = messageOnly(
  UnauthenticatedError,
  () => new UnauthenticatedError(),
  "Unauthenticated",
  "No key, or an unknown, revoked or expired one. Sent with `WWW-Authenticate: Bearer`."
)

export const Forbidden = asBody(ForbiddenError, {
  identifier: "Forbidden",
  description: "The key lacks the endpoint's ability, named in `required_ability`.",
  fields: { message: Schema.String, required_ability: Ability },
  example: { message: "This action is unauthorized.", required_ability: "tags:write" },
  encode: (error) => ({ message: error.message, required_ability: error.requiredAbility }),
  decode: (body) => new ForbiddenError({ requiredAbility: body.required_ability })
})

export const MissingProjectHeader = messageOnly(
  MissingProjectHeaderError,
  () => new MissingProjectHeaderError(),
  "MissingProjectHeader",
  "The `Service-Project-Id` header is missing."
)

export const InvalidProjectHeader = messageOnly(
  InvalidProjectHeaderError,
  () => new InvalidProjectHeaderError(),
  "InvalidProjectHeader",
  "The `Service-Project-Id` header is not a positive integer."
)

const NOT_FOUND = / not found$/

export const NotFound = asBody(NotFoundError, {
  identifier: "NotFound",
  description: "The project, or the resource of the path, is absent or outside the key's reach: `<Resource> not found`.",
  fields: { message: Schema.String },
  example: { message: "Tag not found" },
  encode: (error) => ({ message: error.message }),
  decode: (body) => new NotFoundError({ resource: body.message.replace(NOT_FOUND, "") })
})

export const Conflict = asBody(ConflictError, {
  identifier: "Conflict",
  description: "The resource's state refuses the request (a brand suggestion already decided); `message` says why.",
  fields: { message: Schema.String },
  example: { message: "The suggestion is already accepted." },
  encode: (error) => ({ message: error.message }),
  decode: (body) => new ConflictError({ reason: body.message })
})

export const ValidationError = asBody(ValidationErrorError, {
  identifier: "ValidationError",
  description: "The query or body failed validation; `errors` lists the messages of each field.",
  fields: { message: Schema.String, errors: FieldErrors },
  example: { message: "The given data was invalid.", errors: { name: ["The name has already been taken."] } },
  encode: (error) => ({ message: error.message, errors: error.errors }),
  decode: (body) => new ValidationErrorError({ errors: body.errors })
})

export const TooManyRequests = messageOnly(
  TooManyRequestsError,
  () => new TooManyRequestsError(),
  "TooManyRequests",
  "The key's request budget is spent; `Retry-After` says in how many seconds the next request passes."
)

const serverFailure = (status: number, identifier: string, description: string, message: string) =>
  Schema.Struct({
    message: Schema.String.annotations({ examples: [message] }),
    request_id: Schema.String.annotations({ description: "The `X-Request-Id` of the response, also in the server log." })
  }).annotations({ identifier, description, ...HttpApiSchema.annotations({ status }) })

export const ServerError = serverFailure(500, "ServerError", "An unexpected failure; nothing of its cause is shown.", "Server Error")

export const ServiceUnavailable = serverFailure(503, "ServiceUnavailable", "The database cannot be reached.", "Service Unavailable")
