import { Config, ConfigError, Context, Either, Layer, LogLevel, Option, Redacted } from "effect"

/** Every setting of the service, read once from the environment (README: "Settings"). */
export interface AppSettings {
  readonly port: number
  /** A PostgreSQL server; absent means the embedded database under `dataDir`. */
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  readonly dataDir: string
  /** How long a database statement may run (and an answer be awaited) before the request gets a 503. */
  readonly databaseStatementTimeoutSeconds: number
  readonly rateLimitPerMinute: number
  readonly redisUrl: Option.Option<Redacted.Redacted>
  /** Prefix of the rate-limit keys in Redis, so that deployments sharing one Redis stay apart. */
  readonly redisPrefix: string
  readonly logLevel: LogLevel.LogLevel
  /** How long in-flight requests may run on after SIGTERM before connections are cut. */
  readonly shutdownTimeoutSeconds: number
  /** How long a whole request (headers and body) may take to arrive before it is answered 408. */
  readonly requestTimeoutSeconds: number
  /**
   * How long an API process on PostgreSQL may trust a key it has read (ApiKeys/KeyCache.ts); 0: it reads
   * the key on every request (behind a pooler in transaction mode, which cannot LISTEN).
   */
  readonly keyCacheSeconds: number
  /** Whether the server process also runs the collector (scheduler and worker); `WORKER=off` turns it off. */
  readonly worker: boolean
  /** Seconds between two scheduler ticks. */
  readonly collectorTickSeconds: number
  /** Seconds a worker's claim holds a job before another worker may take it over. */
  readonly collectorLeaseSeconds: number
  /** Attempts a job may have before it is failed for good. */
  readonly collectorMaxAttempts: number
  /** Jobs one worker process asks at the same time. */
  readonly collectorConcurrency: number
  /** How many days back a slot without a run is recorded as missed. */
  readonly collectorMissedDays: number
  /** Whether `GET /metrics` serves the Prometheus metrics (`METRICS=on`); off, it does not exist. */
  readonly metrics: boolean
  /** When set, `/metrics` answers only `Authorization: Bearer <METRICS_TOKEN>`. */
  readonly metricsToken: Option.Option<Redacted.Redacted>
  /** `WEBHOOK_ALLOW_PRIVATE=true`: webhooks may target private and loopback addresses, and `http://` (docs/webhooks.md). */
  readonly webhookAllowPrivate: boolean
  /** When set, webhook secrets are stored sealed under it (Webhooks/SecretBox.ts). */
  readonly webhookSecretsKey: Option.Option<Redacted.Redacted>
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

/** An integer setting with a default and a lower bound. */
const atLeast = (name: string, fallback: number, min: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: `${name} must be at least ${min}`, validation: (n) => n >= min })
  )

/** A switch: on, true, 1, yes or off, false, 0, no, in any case. */
const onOff = (name: string, fallback: "on" | "off") =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.mapOrFail((value) => {
      const normalized = value.trim().toLowerCase()
      if (["on", "true", "1", "yes"].includes(normalized)) return Either.right(true)
      if (["off", "false", "0", "no"].includes(normalized)) return Either.right(false)
      return Either.left(ConfigError.InvalidData([name], `Expected on or off, got "${value}"`))
    })
  )

export const settingsConfig: Config.Config<AppSettings> = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(3000)),
  databaseUrl: Config.option(Config.redacted("DATABASE_URL")).pipe(
    Config.map(Option.filter((url) => Redacted.value(url).trim() !== ""))
  ),
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./data")),
  databaseStatementTimeoutSeconds: atLeast("DATABASE_STATEMENT_TIMEOUT_SECONDS", 30, 1),
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
  shutdownTimeoutSeconds: Config.integer("SHUTDOWN_TIMEOUT_SECONDS").pipe(Config.withDefault(10)),
  requestTimeoutSeconds: atLeast("REQUEST_TIMEOUT_SECONDS", 60, 1),
  keyCacheSeconds: Config.integer("KEY_CACHE_SECONDS").pipe(
    Config.withDefault(10),
    Config.validate({ message: "KEY_CACHE_SECONDS must be between 0 and 300", validation: (n) => n >= 0 && n <= 300 })
  ),
  worker: onOff("WORKER", "on"),
  collectorTickSeconds: atLeast("COLLECTOR_TICK_SECONDS", 30, 1),
  collectorLeaseSeconds: atLeast("COLLECTOR_LEASE_SECONDS", 300, 10),
  collectorMaxAttempts: atLeast("COLLECTOR_MAX_ATTEMPTS", 3, 1),
  collectorConcurrency: atLeast("COLLECTOR_CONCURRENCY", 4, 1),
  collectorMissedDays: atLeast("COLLECTOR_MISSED_DAYS", 7, 0),
  metrics: onOff("METRICS", "off"),
  metricsToken: Config.option(Config.redacted("METRICS_TOKEN")).pipe(
    Config.map(Option.filter((token) => Redacted.value(token).trim() !== ""))
  ),
  webhookAllowPrivate: onOff("WEBHOOK_ALLOW_PRIVATE", "off"),
  webhookSecretsKey: Config.option(Config.redacted("WEBHOOK_SECRETS_KEY")).pipe(
    Config.map(Option.filter((key) => Redacted.value(key).trim() !== ""))
  )
})

export class Settings extends Context.Tag("Settings")<Settings, AppSettings>() {
  static readonly layer = Layer.effect(Settings, settingsConfig)
  static readonly make = (overrides: Partial<AppSettings> = {}): AppSettings => ({
    port: 3000,
    databaseUrl: Option.none(),
    dataDir: "./data",
    databaseStatementTimeoutSeconds: 30,
    rateLimitPerMinute: 600,
    redisUrl: Option.none(),
    redisPrefix: "bvm:ratelimit:",
    logLevel: LogLevel.Info,
    shutdownTimeoutSeconds: 10,
    requestTimeoutSeconds: 60,
    keyCacheSeconds: 10,
    worker: true,
    collectorTickSeconds: 30,
    collectorLeaseSeconds: 300,
    collectorMaxAttempts: 3,
    collectorConcurrency: 4,
    collectorMissedDays: 7,
    metrics: false,
    metricsToken: Option.none(),
    webhookAllowPrivate: false,
    webhookSecretsKey: Option.none(),
    ...overrides
  })
  static readonly layerWith = (overrides: Partial<AppSettings> = {}) => Layer.succeed(Settings, Settings.make(overrides))
}
