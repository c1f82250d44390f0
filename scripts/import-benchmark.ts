/**
 * Throughput of `import` and `reanalyze` (docs/performance.md). Not part of the test suite.
 *
 *   node --import tsx scripts/import-benchmark.ts [--lines 20000] [--batch-size 500]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx scripts/import-benchmark.ts
 *
 * Without DATABASE_URL: a temporary DATA_DIR (the embedded database), removed afterwards. With it: a
 * scratch database created on that server (the user needs CREATEDB) and dropped afterwards.
 *
 * It sets up an organization, a project, a monitor (3 platforms), 20 prompts carrying one to three tags
 * each (branded or non-branded, pricing on every second, comparison on every third: the analytics keep
 * rollups per tag and pair of tags) and 10 brands in-process, closes the database, writes an NDJSON file
 * of generated responses (each ~600 characters mentioning 2-3 brands, with 5 citations), then runs the
 * CLI as a user would (a child process that opens the database itself): `import --json`, then
 * `reanalyze --json`. It prints what the commands measured (their own `seconds`, process start-up
 * excluded) and the wall time of each child process, then checks every analytics rollup of the project
 * against a recount from the raw rows, before and after merging the pending answers into them (timed).
 */
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import pg from "pg"
import * as Merger from "../src/Analytics/Merger.ts"
import { BrandsRepo } from "../src/Brands/Repo.ts"
import { Settings } from "../src/Config.ts"
import * as Database from "../src/Database/Database.ts"
import * as Migrations from "../src/Database/Migrations.ts"
import { MonitorsRepo } from "../src/Monitors/Repo.ts"
import { OrganizationsRepo } from "../src/Organizations/Repo.ts"
import { ProjectsRepo } from "../src/Projects/Repo.ts"
import { PromptsRepo } from "../src/Prompts/Repo.ts"
import * as Repositories from "../src/Repositories.ts"
import { rollupMismatches } from "../test/support/Rollups.ts"
import { BRANDS } from "./bench/http/project.ts"

const root = fileURLToPath(new URL("..", import.meta.url))
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(process.argv[i + 1])
}
const LINES = arg("lines", 20_000)
const BATCH_SIZE = arg("batch-size", 500)

/** Deterministic: the same file every run. */
let seed = 42
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}
const pick = <A>(list: ReadonlyArray<A>): A => list[Math.floor(random() * list.length)]!

const OTHER_DOMAINS = ["g2.com", "capterra.com", "reddit.com", "en.wikipedia.org", "techradar.com", "forbes.com", "zapier.com"]
const PRAISE = ["is excellent for small teams", "is a solid choice", "is the easiest to start with", "has great support"]
const BLAME = ["is expensive", "can be slow to set up", "has a confusing interface", "lacks integrations"]
const FILLER = "Pricing varies with the number of seats, and most vendors offer a free trial of two weeks. " +
  "Integrations with email, calendars and accounting tools matter more than the feature list. " +
  "Check the reviews on independent sites before committing to an annual plan."
const PLATFORMS = ["chatgpt", "perplexity", "claude"] as const

const line = (promptIds: ReadonlyArray<number>, now: number) => {
  const mentioned = [...BRANDS].sort(() => random() - 0.5).slice(0, 2 + Math.floor(random() * 2))
  const sentences = mentioned.map((brand, i) => {
    const name = i === 0 || brand.aliases.length === 0 ? brand.name : brand.aliases[0]!
    return `${name} ${random() < 0.6 ? pick(PRAISE) : pick(BLAME)}.`
  })
  const citations = [
    ...mentioned.slice(0, 2).map((brand) => `https://www.${brand.domains[0]}/pricing?utm_source=ai&id=${Math.floor(random() * 1000)}`),
    ...Array.from({ length: 3 }, () => `https://${pick(OTHER_DOMAINS)}/articles/${Math.floor(random() * 5000)}`)
  ]
  return JSON.stringify({
    prompt_id: pick(promptIds),
    platform: pick(PLATFORMS),
    text: `${sentences.join(" ")} ${FILLER}`,
    citations,
    collected_at: new Date(now - Math.floor(random() * 90 * 86_400_000)).toISOString()
  })
}

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  readonly wallSeconds: number
}

const cli = (env: NodeJS.ProcessEnv, args: ReadonlyArray<string>): Promise<Run> =>
  new Promise((resolve) => {
    const started = performance.now()
    execFile(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], { cwd: root, env, maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) =>
      resolve({
        code: error === null ? 0 : typeof error.code === "number" ? error.code : 1,
        stdout,
        stderr,
        wallSeconds: (performance.now() - started) / 1000
      }))
  })

const main = async () => {
  const work = Fs.mkdtempSync(Path.join(Os.tmpdir(), "bvm-bench-"))
  const baseUrl = process.env.DATABASE_URL?.trim() || undefined
  let databaseUrl: string | undefined
  let drop = async () => {}
  if (baseUrl !== undefined) {
    const name = `bvm_bench_${process.pid}`
    const admin = new pg.Client({ connectionString: baseUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    const url = new URL(baseUrl)
    url.pathname = `/${name}`
    databaseUrl = url.toString()
    drop = async () => {
      const admin = new pg.Client({ connectionString: baseUrl })
      await admin.connect()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  }
  const dataDir = Path.join(work, "data")
  const settings = Settings.layerWith({ dataDir, databaseUrl: Option.fromNullable(databaseUrl).pipe(Option.map(Redacted.make)) })
  try {
    const runtime = ManagedRuntime.make(
      Repositories.layerSql.pipe(
        Layer.provide(Migrations.layer),
        Layer.provideMerge(Database.layer({ shareRunning: false })),
        Layer.provide(settings)
      )
    )
    const { projectId, promptIds } = await runtime.runPromise(Effect.gen(function*() {
      const organization = yield* (yield* OrganizationsRepo).create("Benchmark")
      const project = yield* (yield* ProjectsRepo).create(organization.id, { name: "Benchmark", domain: null })
      const monitor = yield* (yield* MonitorsRepo).create(project.id, {
        name: "US",
        country: "US",
        platforms: [...PLATFORMS],
        schedule: "daily",
        active: true
      })
      const prompts = yield* Effect.forEach(
        Array.from({ length: 20 }, (_, i) => i),
        (i) => Effect.flatMap(PromptsRepo, (repo) => repo.create(project.id, { monitor_id: monitor.id, text: `Question ${i}?`, tag_ids: [] }))
      )
      yield* Effect.forEach(BRANDS, (brand) =>
        Effect.flatMap(BrandsRepo, (repo) => repo.create(project.id, { ...brand, classification: "competitor", segment_ids: [] })))
      // Tags, in plain SQL (the fixture only needs the rows): the project's seeded ones and two more.
      const sql = yield* SqlClient.SqlClient
      const tag = (name: string) =>
        sql<{ id: number }>`
          INSERT INTO tags (project_id, name, color) VALUES (${project.id}, ${name}, '#6b7280')
          ON CONFLICT (project_id, lower(name)) DO UPDATE SET name = excluded.name RETURNING id`.pipe(Effect.map((rows) => rows[0]!.id))
      const [branded, nonBranded, pricing, comparison] = yield* Effect.forEach(["branded", "non-branded", "pricing", "comparison"], tag)
      const promptTags = prompts.flatMap((prompt, i) =>
        [i % 10 < 3 ? branded! : nonBranded!, ...(i % 2 === 0 ? [pricing!] : []), ...(i % 3 === 0 ? [comparison!] : [])]
          .map((tag_id) => ({ prompt_id: prompt.id, tag_id }))
      )
      yield* sql`INSERT INTO prompt_tags ${sql.insert(promptTags)}`
      return { projectId: project.id, promptIds: prompts.map((prompt) => prompt.id) }
    }))
    await runtime.dispose()

    const file = Path.join(work, "responses.ndjson")
    const out = Fs.createWriteStream(file)
    const now = Date.now()
    for (let i = 0; i < LINES; i++) out.write(`${line(promptIds, now)}\n`)
    await new Promise((resolve) => out.end(resolve))
    const size = Fs.statSync(file).size

    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir }
    delete env.LOG_LEVEL
    if (databaseUrl === undefined) delete env.DATABASE_URL
    else env.DATABASE_URL = databaseUrl

    console.log(`database: ${databaseUrl === undefined ? "embedded (PGlite)" : "PostgreSQL"}`)
    console.log(`file: ${LINES} lines, ${(size / 2 ** 20).toFixed(1)} MiB; batch size ${BATCH_SIZE}`)
    const imported = await cli(env, ["import", file, "--project", String(projectId), "--batch-size", String(BATCH_SIZE), "--json"])
    if (imported.code !== 0) throw new Error(`import failed: ${imported.stderr}`)
    const summary = JSON.parse(imported.stdout)
    console.log(
      `import: ${summary.imported} imported, ${summary.skipped} skipped in ${summary.seconds} s = ` +
        `${Math.round(summary.read / summary.seconds)} lines/s (process wall time ${imported.wallSeconds.toFixed(1)} s)`
    )
    const reanalyzed = await cli(env, ["reanalyze", "--project", String(projectId), "--batch-size", String(BATCH_SIZE), "--json"])
    if (reanalyzed.code !== 0) throw new Error(`reanalyze failed: ${reanalyzed.stderr}`)
    const again = JSON.parse(reanalyzed.stdout)
    console.log(
      `reanalyze: ${again.responses} responses, ${again.mentions} mentions in ${again.seconds} s = ` +
        `${Math.round(again.responses / again.seconds)} responses/s (process wall time ${reanalyzed.wallSeconds.toFixed(1)} s)`
    )
    // The imported answers are pending (counted by reads from their raw rows): every rollup is checked
    // against a recount then, and again once the merger a server runs has folded them all in, which is
    // timed here as that merger does it (src/Analytics/Merger.ts), in the same batches.
    const check = ManagedRuntime.make(
      Merger.layerSql.pipe(Layer.provideMerge(Database.layer({ shareRunning: false })), Layer.provide(settings))
    )
    const report = await check.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pendingCount = sql<{ n: number }>`SELECT count(*)::int AS n FROM analytics_pending WHERE project_id = ${projectId}`.pipe(
        Effect.map((rows) => rows[0]?.n)
      )
      const before = { pending: yield* pendingCount, mismatches: yield* rollupMismatches(projectId) }
      const started = performance.now()
      const merged = yield* (yield* Merger.Merger).mergeProject(projectId)
      const seconds = (performance.now() - started) / 1000
      return { before, merged, seconds, after: { pending: yield* pendingCount, mismatches: yield* rollupMismatches(projectId) } }
    }))
    await check.dispose()
    const verdict = (mismatches: Record<string, number>) => {
      const differing = Object.keys(mismatches)
      return differing.length === 0 ? "every rollup row equals its recount" : `rows differ in ${differing.join(", ")}`
    }
    console.log(`rollups after the import: ${verdict(report.before.mismatches)}; ${report.before.pending} answers pending (counted by reads from their rows)`)
    console.log(
      `merge: ${report.merged} answers folded into the rollups in ${report.seconds.toFixed(3)} s = ${Math.round(report.merged / report.seconds)} answers/s ` +
        `(a server's background merger does this); then ${verdict(report.after.mismatches)}, ${report.after.pending} pending`
    )
    const exact = Object.keys(report.before.mismatches).length === 0 && Object.keys(report.after.mismatches).length === 0
    if (!exact || report.after.pending !== 0) process.exitCode = 1
  } finally {
    await drop()
    Fs.rmSync(work, { recursive: true, force: true })
  }
}

await main()
