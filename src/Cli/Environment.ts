import { NodeContext } from "@effect/platform-node"
import { Config, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { Settings, settingsConfig } from "../Config.ts"
import * as Database from "../Database/Database.ts"
import * as Migrations from "../Database/Migrations.ts"
import * as Repositories from "../Repositories.ts"

/**
 * Quiet unless asked: a CLI user wants the result, not the info lines the server logs. `Settings` defaults
 * LOG_LEVEL to info for the server, so the CLI looks for the variable itself and, when it is set, parses
 * it as the server does. An invalid value falls back here; `Settings.layer` then reports it.
 */
const logLevel = Effect.gen(function*() {
  const given = yield* Config.option(Config.string("LOG_LEVEL"))
  if (Option.isNone(given)) return LogLevel.Warning
  return yield* Effect.map(settingsConfig, (settings) => settings.logLevel)
}).pipe(Effect.orElseSucceed(() => LogLevel.Warning))

/** Logs as logfmt on stderr: stdout belongs to the command's output. */
export const LoggingLive = Layer.unwrapEffect(Effect.map(logLevel, (level) =>
  Layer.merge(
    Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)),
    Logger.minimumLogLevel(level)
  )))

/** What every command may use: settings from the environment and the Node platform. */
export const BaseLive = Layer.merge(Settings.layer, NodeContext.layer)

/**
 * The configured database. With the embedded database, a running server already holding DATA_DIR is
 * shared through its socket (PGlite's directory must never be opened by two processes).
 */
export const DatabaseLive = Database.layer({ shareRunning: true })

/**
 * The repositories on a database whose pending migrations have been applied first, so that any command
 * works on a fresh machine. (`migrate` uses `DatabaseLive` alone, to run and report them itself.)
 */
export const RepositoriesLive = Repositories.layerSql.pipe(
  Layer.provide(Migrations.layer),
  Layer.provide(DatabaseLive)
)
