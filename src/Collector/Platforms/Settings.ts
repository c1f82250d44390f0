import { Config, ConfigError, Duration, Either, Option, Redacted } from "effect"
import { Settings } from "../../Config.ts"
import { type Platform, platforms } from "../../Domain/Platform.ts"
import { askBudgetMs } from "../Platform.ts"
import type { ProviderSettings } from "./Http.ts"
import type { ResiliencePolicy } from "./Resilience.ts"
import { type SerpPlatform, serpPlatforms, type SerpSettings } from "./Serp.ts"

/** How the platforms are reached and how hard they are pushed (docs/platforms.md, "Settings"). */
export interface PlatformsSettings {
  readonly openai: Option.Option<ProviderSettings>
  readonly perplexity: Option.Option<ProviderSettings>
  readonly gemini: Option.Option<ProviderSettings>
  readonly anthropic: Option.Option<ProviderSettings>
  readonly xai: Option.Option<ProviderSettings>
  /** The SERP provider, and which of its three platforms are on. */
  readonly serp: Option.Option<SerpSettings & { readonly platforms: ReadonlyArray<SerpPlatform> }>
  /** For every platform, unless `overrides` says otherwise. */
  /** For every platform, unless `overrides` says otherwise; `budget` is the same for all. */
  readonly resilience: ResiliencePolicy
  readonly overrides: Partial<Record<Platform, Partial<Omit<ResiliencePolicy, "budget">>>>
}

/** The worker's default lease (COLLECTOR_LEASE_SECONDS), of which an ask has half. */
const DEFAULT_LEASE_SECONDS = Settings.make().collectorLeaseSeconds

export const defaultResilience: ResiliencePolicy = {
  timeout: Duration.seconds(120),
  maxAttempts: 4,
  concurrency: 4,
  requestsPerMinute: 60,
  backoffBase: Duration.seconds(2),
  backoffMax: Duration.seconds(60),
  maxRetryAfter: Duration.seconds(300),
  budget: Duration.millis(askBudgetMs(DEFAULT_LEASE_SECONDS * 1000))
}

/**
 * The default model of each provider, current in its documentation as read on 2026-11-21
 * (docs/platforms.md, "Models"), and where it is reached.
 */
export const defaults = {
  openai: { model: "gpt-6.1-terra", baseUrl: "https://api.openai.com" },
  perplexity: { model: "perplexity/sonar", baseUrl: "https://api.perplexity.ai" },
  gemini: { model: "gemini-3.8-flash", baseUrl: "https://generativelanguage.googleapis.com" },
  anthropic: { model: "claude-sonnet-5-5", baseUrl: "https://api.anthropic.com" },
  xai: { model: "grok-4.7", baseUrl: "https://api.x.ai" },
  serp: { baseUrl: "https://serpapi.com" }
} as const

export const policyFor = (settings: PlatformsSettings, platform: Platform): ResiliencePolicy => ({
  ...settings.resilience,
  ...settings.overrides[platform]
})

/** A key that is absent or blank means "not configured". */
const key = (name: string) =>
  Config.option(Config.redacted(name)).pipe(Config.map(Option.filter((value) => Redacted.value(value).trim() !== "")))

const provider = (
  prefix: string,
  fallback: { readonly model: string; readonly baseUrl: string }
): Config.Config<Option.Option<ProviderSettings>> =>
  Config.all({
    apiKey: key(`${prefix}_API_KEY`),
    model: Config.string(`${prefix}_MODEL`).pipe(Config.withDefault(fallback.model)),
    baseUrl: Config.string(`${prefix}_BASE_URL`).pipe(Config.withDefault(fallback.baseUrl))
  }).pipe(Config.map(({ apiKey, ...rest }) => Option.map(apiKey, (apiKey) => ({ apiKey, ...rest }))))

const serpPlatformList = Config.string("SERP_PLATFORMS").pipe(
  Config.withDefault(serpPlatforms.join(",")),
  Config.mapOrFail((list) => {
    const names = list.split(",").map((name) => name.trim().toLowerCase()).filter((name) => name !== "")
    const unknown = names.filter((name) => !(serpPlatforms as ReadonlyArray<string>).includes(name))
    return unknown.length > 0
      ? Either.left(ConfigError.InvalidData(["SERP_PLATFORMS"], `Expected some of ${serpPlatforms.join(", ")}, got "${unknown.join(", ")}"`))
      : Either.right([...new Set(names)] as ReadonlyArray<SerpPlatform>)
  })
)

const serp = Config.all({
  apiKey: key("SERP_API_KEY"),
  baseUrl: Config.string("SERP_BASE_URL").pipe(Config.withDefault(defaults.serp.baseUrl)),
  platforms: serpPlatformList
}).pipe(Config.map(({ apiKey, ...rest }) => Option.map(apiKey, (apiKey) => ({ apiKey, ...rest }))))

const atLeastOne = (name: string) =>
  Config.integer(name).pipe(Config.validate({ message: `${name} must be at least 1`, validation: (n) => n >= 1 }))

const positiveSeconds = (name: string) =>
  Config.number(name).pipe(
    Config.validate({ message: `${name} must be more than 0`, validation: (n) => n > 0 }),
    Config.map(Duration.seconds)
  )

/** The settings a platform may override: `PLATFORM_<NAME>_TIMEOUT_SECONDS` and so on. */
const override = (platform: Platform): Config.Config<Partial<Omit<ResiliencePolicy, "budget">>> => {
  const prefix = `PLATFORM_${platform.toUpperCase()}`
  return Config.all({
    timeout: Config.option(positiveSeconds(`${prefix}_TIMEOUT_SECONDS`)),
    maxAttempts: Config.option(atLeastOne(`${prefix}_MAX_ATTEMPTS`)),
    concurrency: Config.option(atLeastOne(`${prefix}_CONCURRENCY`)),
    requestsPerMinute: Config.option(atLeastOne(`${prefix}_REQUESTS_PER_MINUTE`))
  }).pipe(Config.map((fields) => {
    const present: Record<string, unknown> = {}
    for (const [name, value] of Object.entries(fields) as Array<[string, Option.Option<unknown>]>) {
      if (Option.isSome(value)) present[name] = value.value
    }
    return present as Partial<Omit<ResiliencePolicy, "budget">>
  }))
}

export const platformsConfig: Config.Config<PlatformsSettings> = Config.all({
  openai: provider("OPENAI", defaults.openai),
  perplexity: provider("PERPLEXITY", defaults.perplexity),
  gemini: provider("GEMINI", defaults.gemini),
  anthropic: provider("ANTHROPIC", defaults.anthropic),
  xai: provider("XAI", defaults.xai),
  serp,
  resilience: Config.all({
    timeout: positiveSeconds("PLATFORM_TIMEOUT_SECONDS").pipe(Config.withDefault(defaultResilience.timeout)),
    maxAttempts: atLeastOne("PLATFORM_MAX_ATTEMPTS").pipe(Config.withDefault(defaultResilience.maxAttempts)),
    concurrency: atLeastOne("PLATFORM_CONCURRENCY").pipe(Config.withDefault(defaultResilience.concurrency)),
    requestsPerMinute: atLeastOne("PLATFORM_REQUESTS_PER_MINUTE").pipe(
      Config.withDefault(defaultResilience.requestsPerMinute)
    ),
    backoffBase: positiveSeconds("PLATFORM_BACKOFF_BASE_SECONDS").pipe(
      Config.withDefault(defaultResilience.backoffBase)
    ),
    backoffMax: positiveSeconds("PLATFORM_BACKOFF_MAX_SECONDS").pipe(Config.withDefault(defaultResilience.backoffMax)),
    maxRetryAfter: positiveSeconds("PLATFORM_MAX_RETRY_AFTER_SECONDS").pipe(
      Config.withDefault(defaultResilience.maxRetryAfter)
    ),
    // Half the worker's lease: the same variable and default as the worker's (src/Config.ts).
    budget: Config.integer("COLLECTOR_LEASE_SECONDS").pipe(
      Config.withDefault(DEFAULT_LEASE_SECONDS),
      Config.map((seconds) => Duration.millis(askBudgetMs(seconds * 1000)))
    )
  }),
  overrides: Config.all(Object.fromEntries(platforms.map((platform) => [platform, override(platform)])) as Record<
    Platform,
    Config.Config<Partial<Omit<ResiliencePolicy, "budget">>>
  >)
})
