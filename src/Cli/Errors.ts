import { ValidationError as CliValidationError } from "@effect/cli"
import { Cause, ConfigError, Console, Data, Effect, Exit, Option } from "effect"

/**
 * A mistake of the person at the keyboard (unknown organization, bad ability, ...). Its message is
 * meant to be read as is: it is printed alone on stderr and the process exits with 1.
 */
export class UserError extends Data.TaggedError("UserError")<{ readonly message: string }> {}

/**
 * A command that did its work but refused part of its input (`import`'s bad lines): its message is
 * printed like a `UserError`'s, and the process exits with 2, so that a script can tell it from a
 * command that could not run (1).
 */
export class LinesRefused extends Data.TaggedError("LinesRefused")<{ readonly message: string }> {}

/** The exit code of a command that ended with `exit`: 0, 2 after `LinesRefused`, 1 after anything else. */
export const exitCode = (exit: Exit.Exit<unknown, unknown>): number => {
  if (Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)) return 0
  const failure = Cause.failureOption(exit.cause)
  return Option.isSome(failure) && failure.value instanceof LinesRefused ? 2 : 1
}

/** The text of an error and of the errors that caused it, without stack traces. */
const describe = (error: unknown): string => {
  // Its message alone does not name the environment variable; its string form does.
  if (ConfigError.isConfigError(error)) return `invalid settings ${String(error)}`
  if (error instanceof Error || (typeof error === "object" && error !== null && "message" in error)) {
    const { message, cause } = error as { readonly message: unknown; readonly cause?: unknown }
    const text = typeof message === "string" && message !== "" ? message : String(error)
    // SqlError and friends say "Failed to connect" and keep the useful part (ECONNREFUSED, ...) in the cause.
    return cause === undefined || cause === null ? text : `${text}: ${describe(cause)}`
  }
  return String(error)
}

/**
 * Prints a failure as one clean message on stderr and fails again, so that `runMain` (with error reporting
 * off) exits with 1. Parse errors of `@effect/cli` are already printed by it, so they only keep the
 * exit code. The full cause stays available at debug level.
 */
export const report = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.catchAllCause(self, (cause) => {
    if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
    const failure = Cause.failureOption(cause)
    const alreadyPrinted = Option.isSome(failure) && CliValidationError.isValidationError(failure.value)
    // A user error is a sentence of its own; anything else (database down, ...) gets a prefix.
    const message = Option.match(failure, {
      onNone: () => `Unexpected error: ${describe(Cause.squash(cause))}`,
      onSome: (error) => (error instanceof UserError || error instanceof LinesRefused ? error.message : `Error: ${describe(error)}`)
    })
    return Effect.logDebug("command failed", cause).pipe(
      Effect.zipRight(alreadyPrinted ? Effect.void : Console.error(message)),
      Effect.zipRight(Effect.failCause(cause))
    )
  })
