import { NodeContext } from "@effect/platform-node"
import { Config, Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import * as Path from "node:path"
import { Settings, settingsConfig } from "../Config.ts"
import * as Database from "../Database/Database.ts"
import * as Embedded from "../Database/Embedded.ts"
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

/** A PostgreSQL URL as it may be shown: user, host, port and database, never a password. */
export const describeUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    const host = parsed.hostname !== "" ? parsed.hostname : parsed.searchParams.get("host") ?? "localhost"
    const user = parsed.username === "" ? "" : `${decodeURIComponent(parsed.username)}@`
    return `PostgreSQL ${user}${host}:${parsed.port === "" ? "5432" : parsed.port}${parsed.pathname === "" ? "/" : decodeURIComponent(parsed.pathname)}`
  } catch {
    return "PostgreSQL (DATABASE_URL)"
  }
}

/**
 * The database a command writes to, in words: PostgreSQL of DATABASE_URL, or the embedded one in DATA_DIR,
 * through the running server that holds it or opened by the command itself. A key made in `./data` while
 * the server runs on PostgreSQL is refused by that server: the line says which database it is.
 */
export const describeDatabase = Effect.gen(function*() {
  const settings = yield* Settings
  if (Option.isSome(settings.databaseUrl)) return `${describeUrl(Redacted.value(settings.databaseUrl.value))} (DATABASE_URL)`
  const dir = Path.resolve(settings.dataDir)
  const running = yield* Embedded.findRunning(settings.dataDir)
  return Option.isSome(running)
    ? `the embedded database in ${dir}, through the server that holds it`
    : `the embedded database in ${dir}, opened by this command (no running server holds it; a server started with DATABASE_URL does not see it)`
})

/** One line on stderr, before the command runs: the database it writes to (stdout stays its answer). */
const AnnounceDatabase = Layer.effectDiscard(
  Effect.flatMap(describeDatabase, (description) => Effect.sync(() => process.stderr.write(`Database: ${description}\n`)))
)

/** The configured database, named on stderr: for the commands that write (`migrate`). */
export const WritingDatabaseLive = DatabaseLive.pipe(Layer.provide(AnnounceDatabase))

/** The repositories (migrated first) on the configured database, named on stderr: for the commands that write. */
export const WritingRepositoriesLive = RepositoriesLive.pipe(Layer.provide(AnnounceDatabase))

/** `WritingRepositoriesLive` and the SQL client beneath them (a command that also runs statements of its own). */
export const WritingRepositoriesAndSqlLive = Repositories.layerSql.pipe(
  Layer.provide(Migrations.layer),
  Layer.provideMerge(DatabaseLive),
  Layer.provide(AnnounceDatabase)
)
