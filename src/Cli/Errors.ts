import { ValidationError as CliValidationError } from "@effect/cli"
import { Cause, Console, Data, Effect, Option } from "effect"

/**
 * A mistake of the person at the keyboard (unknown organization, bad ability, ...). Its message is
 * meant to be read as is: it is printed alone on stderr and the process exits with 1.
 */
export class UserError extends Data.TaggedError("UserError")<{ readonly message: string }> {}

/** The text of an error and of the errors that caused it, without stack traces. */
const describe = (error: unknown): string => {
  if (error instanceof UserError) return error.message
  if (error instanceof Error || (typeof error === "object" && error !== null && "message" in error)) {
    const { message, cause } = error as { readonly message: unknown; readonly cause?: unknown }
    const text = typeof message === "string" && message !== "" ? message : String(error)
    // SqlError and friends say "Failed to connect" and keep the useful part (ECONNREFUSED, ...) in the cause.
    return cause === undefined || cause === null ? text : `${text}: ${describe(cause)}`
  }
  return String(error)
}

/**
 * Prints a failure as one clean line on stderr and fails again, so that `runMain` (with error reporting
 * off) exits with 1. Parse errors of `@effect/cli` are already printed by it, with the help, so they
 * only keep the exit code. The full cause stays available at debug level.
 */
export const report = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.catchAllCause(self, (cause) => {
    if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
    const failure = Cause.failureOption(cause)
    const alreadyPrinted = Option.isSome(failure) && CliValidationError.isValidationError(failure.value)
    const message = Option.match(failure, {
      onNone: () => `Unexpected error: ${describe(Cause.squash(cause))}`,
      onSome: describe
    })
    return Effect.logDebug("command failed", cause).pipe(
      Effect.zipRight(alreadyPrinted ? Effect.void : Console.error(`Error: ${message}`)),
      Effect.zipRight(Effect.failCause(cause))
    )
  })
