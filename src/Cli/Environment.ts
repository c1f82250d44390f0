import { NodeContext } from "@effect/platform-node"
import { Config, Effect, Layer, Logger, LogLevel } from "effect"
import { Settings } from "../Config.ts"
import * as Database from "../Database/Database.ts"
import * as Migrations from "../Database/Migrations.ts"
import * as Repositories from "../Repositories.ts"

/**
 * Logs as logfmt on stderr: stdout belongs to the command's output. Quiet unless asked: a CLI user wants
 * the result, not the info lines the server logs. `Settings.logLevel` defaults to Info for the server,
 * so LOG_LEVEL is read here with the CLI's own default.
 */
export const LoggingLive = Layer.unwrapEffect(
  // An invalid LOG_LEVEL is reported by `SettingsLive`, once the logger is up to report it.
  Effect.map(Config.logLevel("LOG_LEVEL").pipe(Config.orElse(() => Config.succeed(LogLevel.Warning))), (level) =>
    Layer.merge(
      Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)),
      Logger.minimumLogLevel(level)
    ))
)

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
