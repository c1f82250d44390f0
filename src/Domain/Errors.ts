import { Data, Effect, Option } from "effect"
import type { Ability } from "./Ability.ts"

/**
 * The failures of the API, as typed errors. `Http/ErrorResponse.ts` turns each into its documented
 * status and body (docs/api.md); nothing else decides a status.
 *
 * Each carries the exact `message` of its response body.
 */

export class Unauthenticated extends Data.TaggedError("Unauthenticated")<{}> {
  override get message() {
    return "Unauthenticated."
  }
}

export class Forbidden extends Data.TaggedError("Forbidden")<{ readonly requiredAbility: Ability }> {
  override get message() {
    return "This action is unauthorized."
  }
}

export class MissingProjectHeader extends Data.TaggedError("MissingProjectHeader")<{}> {
  override get message() {
    return "Missing required header Service-Project-Id"
  }
}

export class InvalidProjectHeader extends Data.TaggedError("InvalidProjectHeader")<{}> {
  override get message() {
    return "Invalid header Service-Project-Id"
  }
}

/** A path resource (or the active project) that is absent or belongs to another tenant. */
export class NotFound extends Data.TaggedError("NotFound")<{ readonly resource: string }> {
  override get message() {
    return `${this.resource} not found`
  }
}

/**
 * The row an update or a re-read returns, or the `NotFound` of `resource` when there is none: the
 * resource was deleted by a concurrent request after it was found (404, never a 500).
 */
export const firstOrNotFound = (resource: string) => <A>(rows: ReadonlyArray<A>): Effect.Effect<A, NotFound> =>
  rows[0] === undefined ? Effect.fail(new NotFound({ resource })) : Effect.succeed(rows[0])

/** A lookup's `None` as the `NotFound` of `resource` (e.g. "Monitor"): for `pipe`. */
export const orNotFound = (resource: string) => <A, E, R>(lookup: Effect.Effect<Option.Option<A>, E, R>) =>
  Effect.flatMap(lookup, Option.match({ onNone: () => Effect.fail(new NotFound({ resource })), onSome: Effect.succeed }))

/** Field errors, keyed `name`, `tags.0`, ...: the `errors` object of a 422. */
export type FieldErrors = Readonly<Record<string, ReadonlyArray<string>>>

export class ValidationError extends Data.TaggedError("ValidationError")<{ readonly errors: FieldErrors }> {
  override get message() {
    return "The given data was invalid."
  }
  static readonly field = (field: string, text: string) => new ValidationError({ errors: { [field]: [text] } })
}

/** A request body that is not JSON at all. */
export class MalformedBody extends Data.TaggedError("MalformedBody")<{}> {
  override get message() {
    return "The request body is not valid JSON."
  }
}

/** A JSON body nested deeper than any request of the API needs: refused before it is parsed. */
export class BodyTooDeep extends Data.TaggedError("BodyTooDeep")<{ readonly maxDepth: number }> {
  override get message() {
    return `The request body is nested more than ${this.maxDepth} levels deep.`
  }
}

/** A request body over the size limit: refused without being read whole. */
export class PayloadTooLarge extends Data.TaggedError("PayloadTooLarge")<{ readonly maxBytes: number }> {
  override get message() {
    return `The request body must not be larger than ${this.maxBytes} bytes.`
  }
}

/** A request body sent as anything but JSON (a form, multipart, plain text). */
export class UnsupportedMediaType extends Data.TaggedError("UnsupportedMediaType")<{}> {
  override get message() {
    return "The request body must be JSON, sent with Content-Type: application/json."
  }
}

export class TooManyRequests extends Data.TaggedError("TooManyRequests")<{
  readonly limit: number
  readonly retryAfterSeconds: number
}> {
  override get message() {
    return "Too Many Requests"
  }
}

export class ServiceUnavailable extends Data.TaggedError("ServiceUnavailable")<{ readonly cause?: unknown }> {
  override get message() {
    return "Service Unavailable"
  }
}
