import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, FiberId, HashMap, Layer, List, Logger, Option } from "effect"
import { Settings } from "./Config.ts"

type Plain = string | number | boolean | null

const isPlain = (value: unknown): value is Plain =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean"

/**
 * Effect's JSON log line (`Logger.jsonLogger`: message, logLevel, timestamp, cause, annotations, spans,
 * fiberId), byte for byte, made directly when the message and annotations are plain values, as the
 * access log's are: the general one walks every value through a replacer (for cycles and redaction),
 * which cost some 3% of a simple GET's time. Anything else (a cause, an object) goes to Effect's own.
 */
export const jsonLogger = Logger.make<unknown, string>((options) => {
  const { annotations, cause, date, fiberId, logLevel, message, spans } = options
  if (!Cause.isEmpty(cause)) return Logger.jsonLogger.log(options)
  const messages: ReadonlyArray<unknown> = Array.isArray(message) ? message : [message]
  if (!messages.every(isPlain)) return Logger.jsonLogger.log(options)
  const annotationsObject: Record<string, Plain> = {}
  for (const [name, value] of HashMap.toEntries(annotations)) {
    if (!isPlain(value)) return Logger.jsonLogger.log(options)
    annotationsObject[name] = value
  }
  const spansObject: Record<string, number> = {}
  const now = date.getTime()
  for (const span of List.toArray(spans)) spansObject[span.label] = now - span.startTime
  return JSON.stringify({
    message: messages.length === 1 ? messages[0] : messages,
    logLevel: logLevel.label,
    timestamp: date.toISOString(),
    annotations: annotationsObject,
    spans: spansObject,
    fiberId: FiberId.threadName(fiberId)
  })
})

/**
 * Each line written to stdout as `console.log` writes it, without its formatting step (a share of
 * every request's CPU). As with `console.log`, a line that cannot be written (stdout closed) is
 * dropped rather than crashing the process.
 */
const toStdout = <M>(self: Logger.Logger<M, string>) => {
  process.stdout.on("error", () => {})
  return Logger.make<M, void>((options) => {
    process.stdout.write(`${self.log(options)}\n`)
  })
}

/** Structured logs: one JSON object per line on stdout, at `LOG_LEVEL` and above. */
export const LoggingLive = Layer.unwrapEffect(Effect.map(Settings, (settings) =>
  Layer.merge(Logger.replace(Logger.defaultLogger, toStdout(jsonLogger)), Logger.minimumLogLevel(settings.logLevel))
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
