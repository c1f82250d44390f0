import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * The error bodies of docs/api.md, as schemas for the OpenAPI document and the typed client.
 * The responses themselves are made in one place, `ErrorResponse.ts`.
 */

export const ErrorBody = Schema.Struct({ message: Schema.String }).annotations({ identifier: "Error" })

const withStatus = (status: number, identifier: string, description: string, message: string) =>
  Schema.Struct({ message: Schema.String.annotations({ examples: [message] }) }).annotations({
    identifier,
    description,
    ...HttpApiSchema.annotations({ status })
  })

export const BadRequest = withStatus(
  400,
  "MissingProjectHeader",
  "The `Service-Project-Id` header is missing or not a positive integer.",
  "Missing required header Service-Project-Id"
)

export const Unauthenticated = withStatus(401, "Unauthenticated", "No key, or an unknown, revoked or expired one.", "Unauthenticated.")

export const Forbidden = Schema.Struct({
  message: Schema.String.annotations({ examples: ["This action is unauthorized."] }),
  required_ability: Schema.String.annotations({ examples: ["tags:write"] })
}).annotations({
  identifier: "Forbidden",
  description: "The key lacks the endpoint's ability.",
  ...HttpApiSchema.annotations({ status: 403 })
})

export const NotFound = withStatus(
  404,
  "NotFound",
  "The project, or the resource of the path, is absent or outside the key's reach.",
  "Tag not found"
)

export const Unprocessable = Schema.Struct({
  message: Schema.String.annotations({ examples: ["The given data was invalid."] }),
  errors: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) }).annotations({
    examples: [{ name: ["The name has already been taken."] }]
  })
}).annotations({
  identifier: "ValidationError",
  description: "The query or body failed validation; `errors` lists the messages of each field.",
  ...HttpApiSchema.annotations({ status: 422 })
})

export const TooManyRequests = withStatus(429, "TooManyRequests", "The key's per-minute budget is spent; see `Retry-After`.", "Too Many Requests")

export const ServerError = Schema.Struct({
  message: Schema.String.annotations({ examples: ["Server Error"] }),
  request_id: Schema.String
}).annotations({
  identifier: "ServerError",
  description: "An unexpected failure. `request_id` matches the `X-Request-Id` header and the server log.",
  ...HttpApiSchema.annotations({ status: 500 })
})

export const ServiceUnavailable = Schema.Struct({
  message: Schema.String.annotations({ examples: ["Service Unavailable"] }),
  request_id: Schema.String
}).annotations({
  identifier: "ServiceUnavailable",
  description: "The database cannot be reached.",
  ...HttpApiSchema.annotations({ status: 503 })
})
