import { HttpApiSchema } from "@effect/platform"
import { Effect, Option, type ParseResult, Schema } from "effect"
import { Ability } from "./Ability.ts"

/**
 * The failures a client is told about, as schema-backed errors carrying their HTTP status
 * (docs/api.md, "Errors"). Each is declared with `.addError()` on the endpoints (or in the `failure`
 * of the middleware) that can raise it, so a handler that can fail with anything else does not
 * compile. How each looks on the wire is in `Http/ErrorSchemas.ts`.
 *
 * Each carries the exact `message` of its response body.
 */

/** The HTTP status of an error, as the API reads it off its schema. */
const status = <A>(code: number) => HttpApiSchema.annotations<A>({ status: code })

export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {}, status<Unauthenticated>(401)) {
  override readonly message = "Unauthenticated."
}

export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", { requiredAbility: Ability }, status<Forbidden>(403)) {
  override readonly message = "This action is unauthorized."
}

/** A project-scoped endpoint called without `Service-Project-Id`. */
export class MissingProjectHeader extends Schema.TaggedError<MissingProjectHeader>()("MissingProjectHeader", {}, status<MissingProjectHeader>(400)) {
  override readonly message = "Missing required header Service-Project-Id"
}

/** `Service-Project-Id` that is not a positive integer. */
export class InvalidProjectHeader extends Schema.TaggedError<InvalidProjectHeader>()("InvalidProjectHeader", {}, status<InvalidProjectHeader>(400)) {
  override readonly message = "Invalid header Service-Project-Id"
}

/** A path resource (or the active project) that is absent or belongs to another tenant. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", { resource: Schema.String }, status<NotFound>(404)) {
  override get message() {
    return `${this.resource} not found`
  }
}

/**
 * The request is well formed but the resource's state refuses it (a brand suggestion already decided, a
 * project at its brand limit for a request without a body): 409 with the reason as its message.
 */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", { reason: Schema.String }, status<Conflict>(409)) {
  override get message() {
    return this.reason
  }
}

/** Field errors, keyed `name`, `tags.0`, ...: the `errors` object of a 422. */
export const FieldErrors = Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })
export type FieldErrors = typeof FieldErrors.Type

export class ValidationError extends Schema.TaggedError<ValidationError>()("ValidationError", { errors: FieldErrors }, status<ValidationError>(422)) {
  override readonly message = "The given data was invalid."
  static readonly field = (field: string, text: string) => new ValidationError({ errors: { [field]: [text] } })
}

/** The key's request budget is spent; the `Retry-After` and `X-RateLimit-*` headers say for how long. */
export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()("TooManyRequests", {}, status<TooManyRequests>(429)) {
  override readonly message = "Too Many Requests"
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

/**
 * Schema decoding issues as the `errors` object of a 422: `tags.0`, `name`, ...
 *
 * The field schemas (Http/Fields.ts) carry client-facing sentences ("The name field ..."). A union
 * (a nullable field, a set of allowed values) also reports one technical line per member it did not
 * match; those are dropped, and a field left with none gets the generic sentence.
 */
export const fieldErrors = (issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>): FieldErrors => {
  const byField = new Map<string, Array<string>>()
  for (const issue of issues) {
    const field = issue.path.map(String).join(".")
    const key = field === "" ? "body" : field
    const text = field === ""
      ? "The request body must be a JSON object."
      : issue._tag === "Missing"
      ? `The ${label(field)} field is required.`
      : issue.message
    const texts = byField.get(key)
    if (texts !== undefined) texts.push(text)
    // A 422 lists at most MAX_FIELDS fields: a list of a million bad items is not a million messages.
    else if (byField.size < MAX_FIELDS) byField.set(key, [text])
  }
  const errors: Record<string, ReadonlyArray<string>> = {}
  for (const [field, texts] of byField) {
    const sentences = [...new Set(texts.filter((text) => text.startsWith("The ")))]
    // A nullable list with a bad item: the item says what is wrong; the list's "not null" says nothing more.
    if (sentences.length === 0 && [...byField.keys()].some((other) => other.startsWith(`${field}.`))) continue
    errors[field] = sentences.length > 0 ? sentences : [`The selected ${label(field)} is invalid.`]
  }
  return errors
}

const label = (field: string) => field.replaceAll("_", " ")

/** The most fields one 422 lists. */
const MAX_FIELDS = 100
