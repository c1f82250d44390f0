import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Layer, Logger, Option } from "effect"
import { Settings } from "./Config.ts"

/** Structured logs: one JSON object per line on stdout, at `LOG_LEVEL` and above. */
export const LoggingLive = Layer.unwrapEffect(Effect.map(Settings, (settings) =>
  Layer.merge(Logger.json, Logger.minimumLogLevel(settings.logLevel))
))

/**
 * Runs a process's program (`npm start`, `npm run worker`) until it ends or is interrupted by SIGTERM or
 * SIGINT. A failure to start (a bad setting, a busy data directory, an unreachable database) is one clear
 * log line, with the cause's detail only where there is no plain message.
 */
export const runProcess = (startFailure: string) => <E>(program: Effect.Effect<never, E>) =>
  program.pipe(
    Effect.tapErrorCause((cause) =>
      Effect.logFatal(startFailure).pipe(
        Effect.annotateLogs("reason", Option.match(Cause.failureOption(cause), {
          onNone: () => Cause.pretty(cause),
          onSome: reasonOf
        }))
      )
    ),
    NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
  )

/**
 * A failure as one sentence: its message, or its cause's when it has none (the HTTP server's
 * `ServeError` carries the listen error as its cause), with the fix for a port already taken.
 */
export const reasonOf = (error: unknown): string => {
  const cause = typeof error === "object" && error !== null ? (error as { readonly cause?: unknown }).cause : undefined
  if ((cause as NodeJS.ErrnoException | undefined)?.code === "EADDRINUSE") {
    const port = (cause as { readonly port?: unknown }).port
    return `${port === undefined ? "the port" : `port ${port}`} is already in use: stop the process holding it, or set PORT to another port`
  }
  const message = error instanceof Error ? error.message : String(error)
  if (message !== "") return message
  return cause instanceof Error && cause.message !== "" ? cause.message : String(cause ?? error)
}
