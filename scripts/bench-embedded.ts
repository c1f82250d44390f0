/**
 * `npm run bench:embedded [-- --answers 30000 --brands 300 --days 730 --requests 20 --without-statistics --via-cli]`:
 * brand analytics on the embedded database after a realistic import (docs/performance.md, "Analytics
 * beside light requests"; its latest results are copied by hand into docs/performance-runs.md). Not
 * part of the test suite.
 *
 * In a temporary DATA_DIR (removed afterwards): an organization with a project of `--brands` brands, 2
 * monitors (7 platforms), 40 prompts (a third of them tagged), and another organization with a few tags
 * (the other tenant). An NDJSON file of `--answers` generated answers over the last `--days` days (each
 * naming 2 to 5 brands, a few brands far more often than the rest) is stored in bulk by SQL as `cli
 * import` stores answers (analyzed, pending for the merger), and the statistics refreshed as it does at
 * its end; with `--via-cli`, written to an NDJSON file and loaded by `cli import` in a child process, as
 * a user would (slower: every answer is analyzed). Then the server stack runs in this process on that directory, its merger
 * folds the imported answers into the rollups (timed), and, one request at a time over HTTP:
 *
 * - `GET /analytics/brands` for windows of 30 days, 730 days and ten years: p50, p95 and max (target:
 *   the 730-day list at most 300 ms at p95);
 * - the other tenant's `GET /tags`, alone, then while 8 clients ask for the ten-year brand list without
 *   pause: how long a light request of another tenant waits behind analytics.
 *
 * `--without-statistics` clears the planner's statistics of every table before measuring (what a
 * database that was never analyzed looks like to the planner): the plans must not collapse without them.
 */
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Option } from "effect"
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import * as Merger from "../src/Analytics/Merger.ts"
import { ApiKeysRepo } from "../src/ApiKeys/Repo.ts"
import { BrandsRepo } from "../src/Brands/Repo.ts"
import { Settings } from "../src/Config.ts"
import * as Database from "../src/Database/Database.ts"
import * as PlannerStatistics from "../src/Database/PlannerStatistics.ts"
import { generateKey, hashKey, keyPrefix } from "../src/Domain/ApiKey.ts"
import { MonitorsRepo } from "../src/Monitors/Repo.ts"
import { Metrics } from "../src/Observability/Metrics.ts"
import { OrganizationsRepo } from "../src/Organizations/Repo.ts"
import { ProjectsRepo } from "../src/Projects/Repo.ts"
import { PromptsRepo } from "../src/Prompts/Repo.ts"
import * as Repositories from "../src/Repositories.ts"
import { Analyzer } from "../src/Responses/Analyzer.ts"
import { onDatabase, serve } from "../src/Server.ts"
import { commandLine } from "./bench/common.ts"
import { ms, summarize } from "./bench/stats.ts"

const argv = process.argv.slice(2)
const { numberOption } = commandLine(argv)
const ANSWERS = numberOption("answers", 30_000, 1)
const BRAND_COUNT = numberOption("brands", 300, 1)
const DAYS = numberOption("days", 730, 1)
const REQUESTS = numberOption("requests", 20, 1)
const WITHOUT_STATISTICS = argv.includes("--without-statistics")
const VIA_CLI = argv.includes("--via-cli")
/** The p95 target of the 730-day brand list. */
const TARGET_P95_MS = 300
const CONTENDERS = 8
const CONTENTION_MS = 10_000

const root = fileURLToPath(new URL("..", import.meta.url))
const DAY_MS = 86_400_000

/** Deterministic: the same data every run. */
let seed = 7
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}
const pick = <A>(list: ReadonlyArray<A>): A => list[Math.floor(random() * list.length)]!

/** Single-word brand names, distinct: three syllables of ten. */
const SYLLABLES = ["ka", "lo", "mi", "ru", "ze", "pa", "ti", "no", "se", "vu"]
const brandName = (i: number) => {
  const word = [Math.floor(i / 100) % 10, Math.floor(i / 10) % 10, i % 10].map((d) => SYLLABLES[d]).join("") + (i >= 1000 ? `${Math.floor(i / 1000)}` : "")
  return word[0]!.toUpperCase() + word.slice(1) + "x"
}
const PLATFORMS = { US: ["chatgpt", "perplexity", "gemini", "claude"], GB: ["chatgpt", "copilot", "grok"] } as const
const PRAISE = ["is a solid choice", "is the easiest to start with", "is expensive", "has great support", "lacks integrations"]
const FILLER = "Pricing varies with the number of seats, and most vendors offer a free trial of two weeks."

const cli = (env: NodeJS.ProcessEnv, args: ReadonlyArray<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], { cwd: root, env, maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
  })

const main = async () => {
  const work = Fs.mkdtempSync(Path.join(Os.tmpdir(), "bvm-bench-embedded-"))
  const dataDir = Path.join(work, "data")
  const settings = Settings.layerWith({ dataDir, databaseUrl: Option.none(), rateLimitPerMinute: 1_000_000_000 })
  try {
    // 1. The two tenants, through the repositories.
    const setup = ManagedRuntime.make(
      Repositories.layerSql.pipe(Layer.provideMerge(onDatabase(Database.layer({ shareRunning: false }))), Layer.provide(settings))
    )
    const fixture = await setup.runPromise(Effect.gen(function*() {
      const key = (organizationId: number) =>
        Effect.gen(function*() {
          const value = generateKey()
          yield* (yield* ApiKeysRepo).create({
            organization_id: organizationId,
            name: "bench",
            key_hash: hashKey(value),
            prefix: keyPrefix(value),
            abilities: ["*"],
            project_ids: null,
            expires_at: null
          })
          return value
        })
      const organization = yield* (yield* OrganizationsRepo).create("Analytics tenant")
      const project = yield* (yield* ProjectsRepo).create(organization.id, { name: "Big", domain: null })
      const monitors = yield* Effect.forEach(Object.entries(PLATFORMS), ([country, platforms]) =>
        Effect.flatMap(MonitorsRepo, (repo) =>
          repo.create(project.id, { name: country, country, platforms: [...platforms], schedule: "daily", active: true })))
      const sql = yield* SqlClient.SqlClient
      const tags = yield* Effect.forEach(["pricing", "comparison", "alternatives"], (name) =>
        sql<{ id: number }>`INSERT INTO tags (project_id, name, color) VALUES (${project.id}, ${name}, '#6b7280')
          ON CONFLICT (project_id, lower(name)) DO UPDATE SET name = excluded.name RETURNING id`.pipe(Effect.map((rows) => rows[0]!.id)))
      const prompts = yield* Effect.forEach(Array.from({ length: 40 }, (_, i) => i), (i) =>
        Effect.flatMap(PromptsRepo, (repo) =>
          repo.create(project.id, { monitor_id: monitors[i % 2]!.id, text: `Question ${i}?`, tag_ids: i % 3 === 0 ? [tags[i % 9 === 0 ? 0 : 1]!] : [] })))
      const brands = yield* Effect.forEach(Array.from({ length: BRAND_COUNT }, (_, i) => i), (i) =>
        Effect.flatMap(BrandsRepo, (repo) =>
          repo.create(project.id, { name: brandName(i), aliases: [], domains: [], classification: "competitor", segment_ids: [] })))
      const other = yield* (yield* OrganizationsRepo).create("Light tenant")
      const otherProject = yield* (yield* ProjectsRepo).create(other.id, { name: "Small", domain: null })
      yield* Effect.forEach(["a", "b", "c", "d", "e"], (name) =>
        sql`INSERT INTO tags (project_id, name, color) VALUES (${otherProject.id}, ${name}, '#6b7280') ON CONFLICT DO NOTHING`)
      return {
        project: project.id,
        brands: brands.map((brand) => brand.id),
        prompts: prompts.map((p) => ({ id: p.id, country: p.monitor_id === monitors[0]!.id ? "US" as const : "GB" as const })),
        key: yield* key(organization.id),
        otherProject: otherProject.id,
        otherKey: yield* key(other.id)
      }
    }))
    await setup.dispose()

    // 2. The answers: by `cli import` as a user runs it (--via-cli), or stored in bulk by SQL as an import
    // stores them (analyzed, pending for the merger), then the statistics refreshed as the import does.
    const now = Date.now()
    const importStarted = performance.now()
    if (VIA_CLI) {
      const file = Path.join(work, "answers.ndjson")
      const out = Fs.createWriteStream(file)
      for (let i = 0; i < ANSWERS; i++) {
        const prompt = pick(fixture.prompts)
        // A few brands named far more often than the rest (the square skews towards low indexes).
        const named = new Set(Array.from({ length: 2 + Math.floor(random() * 4) }, () => Math.floor(random() ** 2 * BRAND_COUNT)))
        const text = [...named].map((b) => `${brandName(b)} ${pick(PRAISE)}.`).join(" ") + ` ${FILLER}`
        out.write(
          JSON.stringify({
            prompt_id: prompt.id,
            platform: pick(PLATFORMS[prompt.country]),
            text,
            citations: [],
            collected_at: new Date(now - 60_000 - Math.floor(random() * DAYS * DAY_MS)).toISOString()
          }) + "\n"
        )
      }
      await new Promise((resolve) => out.end(resolve))
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir }
      delete env.DATABASE_URL
      delete env.LOG_LEVEL
      const imported = await cli(env, ["import", file, "--project", String(fixture.project), "--batch-size", "1000", "--json"])
      if (imported.code !== 0) throw new Error(`import failed: ${imported.stderr}`)
    } else {
      const bulk = ManagedRuntime.make(onDatabase(Database.layer({ shareRunning: false })).pipe(Layer.provide(settings)))
      await bulk.runPromise(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        // Answers spread evenly over the prompts and uniformly over the days, on their monitor's platforms,
        // each naming 2 to 5 brands, a few far more often than the rest (the square skews towards the
        // first); 500 answers a statement.
        const arrayOf = (ids: ReadonlyArray<number>) => sql.literal(`'{${ids.join(",")}}'`)
        const promptIds = arrayOf(fixture.prompts.map((prompt) => prompt.id))
        const brandIds = arrayOf(fixture.brands)
        for (let from = 0; from < ANSWERS; from += 500) {
          yield* sql`
            WITH inserted AS (
              INSERT INTO responses (project_id, monitor_id, prompt_id, platform, country, text, status, collected_at, analyzed_at)
              SELECT p.project_id, p.monitor_id, p.id, m.platforms[1 + floor(random() * array_length(m.platforms, 1))::int], m.country,
                'An answer naming a few brands.', 'analyzed',
                now() - interval '1 minute' - random() * ${DAYS}::int * interval '1 day', now()
              FROM generate_series(${from + 1}::int, ${Math.min(ANSWERS, from + 500)}::int) g
              JOIN prompts p ON p.id = (${promptIds}::bigint[])[1 + g % ${fixture.prompts.length}::int]
              JOIN monitors m ON m.id = p.monitor_id
              RETURNING id, project_id
            )
            INSERT INTO brand_mentions (project_id, response_id, brand_id, position, sentiment_score)
            SELECT r.project_id, r.id, x.brand_id, row_number() OVER (PARTITION BY r.id ORDER BY x.brand_id), floor(random() * 101)::int
            FROM inserted r
            CROSS JOIN LATERAL (
              SELECT DISTINCT (${brandIds}::bigint[])[1 + floor(random() ^ 2 * ${fixture.brands.length}::int)::int] AS brand_id
              FROM generate_series(1, 2 + (r.id % 4)::int) k WHERE r.id > 0
            ) x`
        }
        yield* PlannerStatistics.analyzeAll
      }))
      await bulk.dispose()
    }
    console.log(`answers: ${ANSWERS}, ${BRAND_COUNT} brands, over ${DAYS} days, stored ${VIA_CLI ? "by cli import" : "in bulk by SQL"} in ${((performance.now() - importStarted) / 1000).toFixed(1)} s`)

    // 3. The server on that directory; the merger folds the answers in.
    const runtime = ManagedRuntime.make(
      serve({ port: 0, host: "127.0.0.1" }).pipe(
        Layer.provideMerge(Merger.layerSql),
        Layer.provide(Metrics.layer),
        Layer.provide(Analyzer.threads()),
        Layer.provideMerge(onDatabase(Database.layer({ shareRunning: false }))),
        Layer.provideMerge(settings),
        Layer.provide(Logger.minimumLogLevel(LogLevel.None))
      )
    )
    const address = await runtime.runPromise(HttpServer.addressWith(Effect.succeed))
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    const base = `http://127.0.0.1:${address.port}/api/v1`
    const mergeStarted = performance.now()
    const merged = await runtime.runPromise(Effect.flatMap(Merger.Merger, (merger) => merger.mergeProject(fixture.project)))
    console.log(`merge: ${merged} answers in ${((performance.now() - mergeStarted) / 1000).toFixed(1)} s`)
    const statistics = () =>
      runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ analyzed: number; tables: number; attributes: number }>`
          SELECT count(*) FILTER (WHERE c.reltuples >= 0)::int AS analyzed, count(*)::int AS tables,
            (SELECT count(*)::int FROM pg_stats WHERE schemaname = current_schema()) AS attributes
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'`))
    if (WITHOUT_STATISTICS) {
      await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql`SELECT pg_clear_relation_stats(n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i')`.pipe(Effect.zipRight(sql`DELETE FROM pg_statistic WHERE starelid IN (
            SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema())`))))
    }
    const [stats] = await statistics()
    console.log(`planner statistics: ${stats!.analyzed} of ${stats!.tables} tables analyzed, ${stats!.attributes} column statistics` +
      (WITHOUT_STATISTICS ? " (cleared by --without-statistics)" : ""))

    const get = async (path: string, key: string, project: number) => {
      const started = performance.now()
      const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}`, "service-project-id": String(project) } })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
      return performance.now() - started
    }
    const day = (offset: number) => new Date(now + offset * DAY_MS).toISOString().slice(0, 10)
    const brandList = (days: number) => `/analytics/brands?start_date=${day(-(days - 1))}&end_date=${day(0)}`
    const rows: Array<string> = []
    for (const days of [30, 730, 3650]) {
      await get(brandList(days), fixture.key, fixture.project)
      const samples: Array<number> = []
      for (let i = 0; i < REQUESTS; i++) samples.push(await get(brandList(days), fixture.key, fixture.project))
      const s = summarize(samples)
      const verdict = days === 730 ? (s.p95 <= TARGET_P95_MS ? ` (target ≤ ${TARGET_P95_MS} ms: met)` : ` (target ≤ ${TARGET_P95_MS} ms: MISSED)`) : ""
      rows.push(`| GET /analytics/brands, ${days} days | ${s.n} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.max)}${verdict} |`)
    }
    const tags = () => get("/tags", fixture.otherKey, fixture.otherProject)
    const alone: Array<number> = []
    for (let i = 0; i < REQUESTS; i++) alone.push(await tags())
    const a = summarize(alone)
    rows.push(`| other tenant's GET /tags, alone | ${a.n} | ${ms(a.p50)} | ${ms(a.p95)} | ${ms(a.max)} |`)
    let running = true
    let heavy = 0
    const contenders = Array.from({ length: CONTENDERS }, async () => {
      while (running) {
        await get(brandList(3650), fixture.key, fixture.project)
        heavy += 1
      }
    })
    const contended: Array<number> = []
    const until = performance.now() + CONTENTION_MS
    while (performance.now() < until) contended.push(await tags())
    running = false
    await Promise.all(contenders)
    const c = summarize(contended)
    rows.push(
      `| other tenant's GET /tags, while ${CONTENDERS} clients ask for the ten-year brand list (${heavy} answered in ${CONTENTION_MS / 1000} s) | ${c.n} | ${ms(c.p50)} | ${ms(c.p95)} | ${ms(c.max)} |`
    )
    console.log(`\n| request | n | p50 | p95 | max |\n|---|---:|---:|---:|---:|\n${rows.join("\n")}`)
    await runtime.dispose()
  } finally {
    Fs.rmSync(work, { recursive: true, force: true })
  }
}

await main()
