import { Config, ConfigError, Context, Either, Layer, LogLevel, Option, Redacted } from "effect"

/** Every setting of the service, read once from the environment (README: "Settings"). */
export interface AppSettings {
  readonly port: number
  /** A PostgreSQL server; absent means the embedded database under `dataDir`. */
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  readonly dataDir: string
  readonly rateLimitPerMinute: number
  readonly redisUrl: Option.Option<Redacted.Redacted>
  /** Prefix of the rate-limit keys in Redis, so that deployments sharing one Redis stay apart. */
  readonly redisPrefix: string
  readonly logLevel: LogLevel.LogLevel
  /** How long in-flight requests may run on after SIGTERM before connections are cut. */
  readonly shutdownTimeoutSeconds: number
}

/** Log level names, in any case. */
const logLevels: Record<string, LogLevel.LogLevel> = {
  all: LogLevel.All,
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warn: LogLevel.Warning,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  fatal: LogLevel.Fatal,
  none: LogLevel.None,
  off: LogLevel.None
}

export const settingsConfig: Config.Config<AppSettings> = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(3000)),
  databaseUrl: Config.option(Config.redacted("DATABASE_URL")).pipe(
    Config.map(Option.filter((url) => Redacted.value(url).trim() !== ""))
  ),
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./data")),
  rateLimitPerMinute: Config.integer("RATE_LIMIT_PER_MINUTE").pipe(
    Config.withDefault(600),
    Config.validate({ message: "RATE_LIMIT_PER_MINUTE must be at least 1", validation: (n) => n >= 1 })
  ),
  redisUrl: Config.option(Config.redacted("REDIS_URL")).pipe(
    Config.map(Option.filter((url) => Redacted.value(url).trim() !== ""))
  ),
  redisPrefix: Config.string("REDIS_PREFIX").pipe(Config.withDefault("bvm:ratelimit:")),
  logLevel: Config.string("LOG_LEVEL").pipe(
    Config.withDefault("info"),
    Config.mapOrFail((name) => {
      const level = logLevels[name.trim().toLowerCase()]
      return level === undefined
        ? Either.left(ConfigError.InvalidData(["LOG_LEVEL"], `Expected one of ${Object.keys(logLevels).join(", ")}, got "${name}"`))
        : Either.right(level)
    })
  ),
  shutdownTimeoutSeconds: Config.integer("SHUTDOWN_TIMEOUT_SECONDS").pipe(Config.withDefault(10))
})

export class Settings extends Context.Tag("Settings")<Settings, AppSettings>() {
  static readonly layer = Layer.effect(Settings, settingsConfig)
  static readonly make = (overrides: Partial<AppSettings> = {}): AppSettings => ({
    port: 3000,
    databaseUrl: Option.none(),
    dataDir: "./data",
    rateLimitPerMinute: 600,
    redisUrl: Option.none(),
    redisPrefix: "bvm:ratelimit:",
    logLevel: LogLevel.Info,
    shutdownTimeoutSeconds: 10,
    ...overrides
  })
  static readonly layerWith = (overrides: Partial<AppSettings> = {}) => Layer.succeed(Settings, Settings.make(overrides))
}
