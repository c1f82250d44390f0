import { Command, Options } from "@effect/cli"
import type { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Clock, Duration, Effect, Option } from "effect"
import type { Answer, PlatformFailure } from "../Collector/Platform.ts"
import { makePlatforms } from "../Collector/Platforms/Live.ts"
import { platformsConfig, type PlatformsSettings } from "../Collector/Platforms/Settings.ts"
import { type Platform, platforms } from "../Domain/Platform.ts"
import { UserError } from "./Errors.ts"
import * as Output from "./Output.ts"

/**
 * `collector check [--platform P]`: one real, cheap question to each configured platform (or to one),
 * to see at once whether its key works, which model answered and whether sources came back. It makes
 * network calls only when run; nothing is stored. Exits 1 when a platform did not answer.
 */

/** A short question that needs the web, so that an answer cites sources. */
export const CHECK_PROMPT = "Which CRM software do small agencies use most? Name one, in one sentence, with its website."

/** One attempt, within a minute: a check is not a collection. */
const CHECK_TIMEOUT = Duration.seconds(60)

export interface CheckResult {
  readonly platform: Platform
  /** `works` (it answered), `refused` (401/403: the key), `works, quota used up`, or `unknown` (another failure). */
  readonly key: "works" | "refused" | "works, quota used up" | "unknown"
  readonly answered: boolean
  readonly model: string | null
  readonly answer_state: Answer["state"] | null
  readonly citations: number
  readonly retrieved: number
  readonly search_queries: number
  /** Why it did not answer. */
  readonly error: string | null
}

const keyOf = (failure: PlatformFailure): CheckResult["key"] =>
  failure.kind === "quota_exceeded"
    ? "works, quota used up"
    : failure.kind === "rejected" && /HTTP 40[13]\b/.test(failure.message)
    ? "refused"
    : "unknown"

/** The check of the settings' platforms (all configured ones, or `only`), one question each, in turn. */
export const checkPlatforms = (
  settings: PlatformsSettings,
  only: Option.Option<Platform>
): Effect.Effect<ReadonlyArray<CheckResult>, UserError, HttpClient.HttpClient> =>
  Effect.scoped(Effect.gen(function*() {
    const service = yield* makePlatforms({
      ...settings,
      resilience: { ...settings.resilience, maxAttempts: 1, timeout: CHECK_TIMEOUT, budget: CHECK_TIMEOUT },
      overrides: {}
    })
    const configured = platforms.filter((platform) => Option.isSome(service.client(platform)))
    if (Option.isSome(only) && !configured.includes(only.value)) {
      return yield* new UserError({ message: `Platform ${only.value} is not configured: set its key (docs/platforms.md, "Settings").` })
    }
    const targets = Option.match(only, { onNone: () => configured, onSome: (platform) => [platform] })
    if (targets.length === 0) {
      return yield* new UserError({ message: "No platform is configured: set a provider's key (docs/platforms.md, \"Settings\")." })
    }
    const day = new Date(yield* Clock.currentTimeMillis).toISOString().slice(0, 10)
    return yield* Effect.forEach(targets, (platform) =>
      Option.getOrThrow(service.client(platform)).ask({ platform, prompt: CHECK_PROMPT, promptId: 0, country: "US", day, brands: [] }).pipe(
        Effect.match({
          onSuccess: (answer): CheckResult => ({
            platform,
            key: "works",
            answered: true,
            model: answer.model,
            answer_state: answer.state,
            citations: answer.citations.length,
            retrieved: answer.retrieved.length,
            search_queries: answer.searchQueries.length,
            error: null
          }),
          onFailure: (failure): CheckResult => ({
            platform,
            key: keyOf(failure),
            answered: false,
            model: null,
            answer_state: null,
            citations: 0,
            retrieved: 0,
            search_queries: 0,
            error: `${failure.kind}: ${failure.message}`
          })
        })
      ))
  }))

const plain = (results: ReadonlyArray<CheckResult>): string =>
  Output.table(
    ["PLATFORM", "KEY", "MODEL", "ANSWER", "CITATIONS", "NOTE"],
    results.map((result) => [
      result.platform,
      result.key,
      result.model ?? "-",
      result.answer_state ?? "none",
      result.answered ? `${result.citations} cited, ${result.retrieved} more retrieved` : "-",
      result.error ?? (result.answered && result.citations === 0 ? "no citations came back" : "")
    ])
  )

const check = Command.make("check", {
  platform: Options.choice("platform", platforms).pipe(
    Options.withDescription("Check this platform only."),
    Options.optional
  ),
  json: Output.json
}, (input) =>
  Effect.gen(function*() {
    const settings = yield* platformsConfig
    const results = yield* checkPlatforms(settings, input.platform).pipe(Effect.provide(NodeHttpClient.layerUndici))
    yield* Output.print(input.json, results, plain)
    const failed = results.filter((result) => !result.answered)
    if (failed.length > 0) {
      return yield* new UserError({ message: `${failed.length} of ${results.length} platforms did not answer: ${failed.map((r) => r.platform).join(", ")}.` })
    }
  })).pipe(
    Command.withDescription(
      "Ask each configured platform (or --platform's) one short question, for real, and print whether its key works, " +
        "the model that answered and whether citations came back. Nothing is stored; exits 1 when one did not answer. " +
        "With --json, an array of {platform, key, answered, model, answer_state, citations, retrieved, search_queries, error}."
    )
  )

/** `collector`: the collector's own commands. */
export const collector = Command.make("collector").pipe(
  Command.withDescription("Check the AI platforms the collector asks."),
  Command.withSubcommands([check])
)
