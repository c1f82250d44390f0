import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Option, Redacted, Scope } from "effect"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { CHECK_PROMPT, checkPlatforms } from "../../src/Cli/Collector.ts"
import { defaultResilience, type PlatformsSettings } from "../../src/Collector/Platforms/Settings.ts"
import { fakeServer, type RecordedRequest } from "../collector/platforms/FakeServer.ts"
import { KEY, providerOf } from "../collector/platforms/providers.ts"
import { HttpClientLive } from "../collector/platforms/support.ts"

/**
 * `collector check` against local stand-ins of the providers (their base URLs are settings): in-process
 * for the results, and as a user runs it (the built CLI, a child process) for its output and exit code.
 */

const root = fileURLToPath(new URL("../..", import.meta.url))

const none: PlatformsSettings = {
  openai: Option.none(),
  perplexity: Option.none(),
  gemini: Option.none(),
  anthropic: Option.none(),
  xai: Option.none(),
  serp: Option.none(),
  resilience: defaultResilience,
  overrides: {}
}

const chatgpt = providerOf("chatgpt")
const claude = providerOf("claude")

describe("collector check, in-process", () => {
  it.scopedLive("asks each configured platform once and reports key, model, answer and sources", () =>
    Effect.gen(function*() {
      const openai = yield* fakeServer([{ status: 200, json: chatgpt.grounded.body({ baseUrl: "" }) }])
      const anthropic = yield* fakeServer([claude.unauthorized])
      const serp = yield* fakeServer([{ status: 429, json: { error: "Your account has run out of searches." } }])
      const settings: PlatformsSettings = {
        ...none,
        openai: Option.some({ apiKey: Redacted.make(KEY), model: "gpt-6.1-terra", baseUrl: openai.baseUrl }),
        anthropic: Option.some({ apiKey: Redacted.make(KEY), model: "claude-sonnet-5-5", baseUrl: anthropic.baseUrl }),
        serp: Option.some({ apiKey: Redacted.make(KEY), baseUrl: serp.baseUrl, platforms: ["copilot"] }),
        // The check makes one attempt whatever the settings say.
        resilience: { ...defaultResilience, maxAttempts: 5, backoffBase: Duration.millis(1) }
      }
      const results = yield* checkPlatforms(settings, Option.none())
      expect(results).toEqual([
        {
          platform: "chatgpt",
          key: "works",
          answered: true,
          model: "gpt-6.1-terra-2026-10-26",
          answer_state: "answered",
          citations: 2,
          retrieved: 2,
          search_queries: 1,
          error: null
        },
        {
          platform: "copilot",
          key: "works, quota used up",
          answered: false,
          model: null,
          answer_state: null,
          citations: 0,
          retrieved: 0,
          search_queries: 0,
          error: "quota_exceeded: copilot: HTTP 429: Your account has run out of searches."
        },
        {
          platform: "claude",
          key: "refused",
          answered: false,
          model: null,
          answer_state: null,
          citations: 0,
          retrieved: 0,
          search_queries: 0,
          error: "rejected: claude: HTTP 401: invalid x-api-key [redacted]"
        }
      ])
      expect(openai.requests).toHaveLength(1)
      expect(openai.requests[0]!.body.input).toBe(CHECK_PROMPT)
      expect(anthropic.requests).toHaveLength(1)
      expect(serp.requests).toHaveLength(1)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("--platform checks that one only; one not configured, or none at all, is a clear error", () =>
    Effect.gen(function*() {
      const openai = yield* fakeServer([{ status: 200, json: chatgpt.noSources.body({ baseUrl: "" }) }])
      const settings = { ...none, openai: Option.some({ apiKey: Redacted.make(KEY), model: "m", baseUrl: openai.baseUrl }) }
      expect((yield* checkPlatforms(settings, Option.some("chatgpt"))).map((r) => [r.platform, r.citations])).toEqual([["chatgpt", 0]])
      expect((yield* Effect.flip(checkPlatforms(settings, Option.some("claude")))).message).toBe(
        "Platform claude is not configured: set its key (docs/platforms.md, \"Settings\")."
      )
      expect((yield* Effect.flip(checkPlatforms(none, Option.none()))).message).toMatch(/^No platform is configured/)
    }).pipe(Effect.provide(HttpClientLive)))
})

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** The built CLI, with only the given provider settings in its environment. */
const cli = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<Run> =>
  new Promise((resolve) => {
    const childEnv: NodeJS.ProcessEnv = {}
    for (const [name, value] of Object.entries(process.env)) {
      if (!/_(API_KEY|BASE_URL|MODEL)$|^SERP_|^PLATFORM_|^LOG_LEVEL$/.test(name)) childEnv[name] = value
    }
    Object.assign(childEnv, env)
    execFile(process.execPath, ["dist/server/cli.js", ...args], { cwd: root, env: childEnv }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
  })

describe("collector check, the command", () => {
  it("prints one row per platform (JSON with --json) and exits 1 when one did not answer", async () => {
    const scope = Effect.runSync(Scope.make())
    try {
      const requests: Array<RecordedRequest> = []
      const openai = await Effect.runPromise(Scope.extend(fakeServer([{ status: 200, json: chatgpt.grounded.body({ baseUrl: "" }) }]), scope))
      const anthropic = await Effect.runPromise(Scope.extend(fakeServer([claude.unauthorized]), scope))
      const env = {
        OPENAI_API_KEY: KEY,
        OPENAI_BASE_URL: openai.baseUrl,
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_BASE_URL: anthropic.baseUrl
      }

      const both = await cli(["collector", "check", "--json"], env)
      expect(both.code, both.stderr).toBe(1)
      const rows = JSON.parse(both.stdout)
      expect(rows.map((row: any) => [row.platform, row.key, row.model, row.citations])).toEqual([
        ["chatgpt", "works", "gpt-6.1-terra-2026-10-26", 2],
        ["claude", "refused", null, 0]
      ])
      expect(both.stderr.trim()).toBe("1 of 2 platforms did not answer: claude.")
      expect(both.stdout + both.stderr).not.toContain(KEY)

      const one = await cli(["collector", "check", "--platform", "chatgpt"], env)
      expect(one.code, one.stderr).toBe(0)
      expect(one.stdout).toMatch(/^PLATFORM\s+KEY\s+MODEL\s+ANSWER\s+CITATIONS\s+NOTE\nchatgpt\s+works\s+gpt-6\.1-terra-2026-10-26\s+answered\s+2 cited, 2 more retrieved/)
      requests.push(...openai.requests)
      // Each run asked once: nothing is retried by a check.
      expect(requests).toHaveLength(2)
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }, 60_000)
})
