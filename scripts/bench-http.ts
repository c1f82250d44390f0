/**
 * `npm run bench:http`: the service against a raw `node:http` + `pg` server doing the same work, under
 * load, in the same run (docs/performance.md, "HTTP against a raw baseline").
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:http [-- --duration 10 --rounds 3]
 *
 * It creates a scratch database on that server (the user needs CREATEDB) and drops it at the end, starts
 * the service as `npm start` runs it (the bundle of src/main.ts, dist/server/main.js; WORKER=off,
 * a rate limit that never bites) and seeds a project through its API, then starts the baseline
 * (scripts/bench/http/baseline.ts), each a child process of its own. Before measuring, it checks that
 * both give the same answers. Then, scenario by scenario, it loads one and then the other with
 * autocannon, in rounds whose order alternates, so that both see the same machine; after each
 * scenario it reads both processes' memory, and again once both have been idle for 30 s. After the
 * POST scenario, every analytics rollup of the project is compared with a recount from the raw rows.
 *
 * Then, unless --no-profile, where a request's time goes: both servers once more, behind a proxy that
 * counts the statements and round trips each request sends to PostgreSQL, and the service (then the
 * baseline) under the list load with V8's CPU profiler.
 *
 * The table is printed and written into docs/performance-runs.md between its markers (--no-docs: not).
 * Targets are reported, never asserted.
 */
import * as esbuild from "esbuild"
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { rollupMismatchesWith } from "../test/support/Rollups.ts"
import { commandLine, displayUrl, requireDatabaseUrl } from "./bench/common.ts"
import { summarizeProfile } from "./bench/http/cpuProfile.ts"
import { load, type LoadRequest, type LoadResult } from "./bench/http/load.ts"
import { memoryOf, type Memory, type ServerProcess, startNode } from "./bench/http/processes.ts"
import { answerBodies, type BenchProject, createKey, createScratchDatabase, seedProject } from "./bench/http/project.ts"
import { writeHttpResults } from "./bench/http/report.ts"
import { type StatementCounts, startStatementCounter } from "./bench/http/statementCounter.ts"
import { ms } from "./bench/stats.ts"
import { buildServer } from "./build-server.ts"

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

const SCENARIOS = ["get", "list", "post"] as const
type ScenarioName = (typeof SCENARIOS)[number]

const argv = process.argv.slice(2)
if (argv.includes("--help") || argv.includes("-h")) {
  console.log(`usage: DATABASE_URL=postgres://... npm run bench:http [-- options]

  --duration SECONDS     length of each measured load (10)
  --connections N        concurrent keep-alive connections (50)
  --rounds N             measured rounds per scenario and server, in alternating order (3)
  --warmup SECONDS       unmeasured load per scenario and server before the rounds (3)
  --only LIST            scenarios, comma-separated, of: ${SCENARIOS.join(", ")} (all)
  --log-level LEVEL      the service's LOG_LEVEL, and whether the baseline writes its access log (info, as npm start)
  --no-profile           skip the statement counts and CPU profiles
  --no-docs              do not write docs/performance-runs.md

Scenarios: get = GET /api/v1/prompts/{id} (one prompt and its tags); list = GET /api/v1/prompts?page=2
(25 prompts with their tags, and the count); post = POST /api/v1/responses (an answer naming 2-3 brands,
5 citations). A scratch database is created on the server of DATABASE_URL and dropped at the end.`)
  process.exit(0)
}
const { numberOption, option } = commandLine(argv)
const DURATION = numberOption("duration", 10, 1)
const CONNECTIONS = numberOption("connections", 50, 1)
const ROUNDS = numberOption("rounds", 3, 1)
const WARMUP = numberOption("warmup", 3, 0)
const LOG_LEVEL = option("log-level") ?? "info"
const PROFILE = !argv.includes("--no-profile")
const WRITE_DOCS = !argv.includes("--no-docs")
const ONLY = (option("only") ?? SCENARIOS.join(",")).split(",").map((name) => name.trim())
for (const name of ONLY) {
  if (!(SCENARIOS as ReadonlyArray<string>).includes(name)) {
    console.error(`--only: unknown scenario "${name}" (known: ${SCENARIOS.join(", ")})`)
    process.exit(2)
  }
}
const selected = SCENARIOS.filter((name) => ONLY.includes(name))

const serverUrl = requireDatabaseUrl("bench:http")
const root = fileURLToPath(new URL("..", import.meta.url))
const docsFile = Path.join(root, "docs/performance-runs.md")

// ---------------------------------------------------------------------------
// Servers and scenarios
// ---------------------------------------------------------------------------

type Side = "service" | "baseline"
const SIDES: ReadonlyArray<Side> = ["service", "baseline"]

/** The environment of both servers: nothing of this shell's database, Redis or log settings. */
const serverEnv = (databaseUrl: string): NodeJS.ProcessEnv => {
  const { DATABASE_URL: _d, REDIS_URL: _r, LOG_LEVEL: _l, PORT: _p, WORKER: _w, ...rest } = process.env
  return { ...rest, DATABASE_URL: databaseUrl, WORKER: "off", LOG_LEVEL: LOG_LEVEL, RATE_LIMIT_PER_MINUTE: "1000000000", SHUTDOWN_TIMEOUT_SECONDS: "5" }
}

/** The baseline bundled as the service is (scripts/build-server.ts), so neither carries a TypeScript loader. */
const buildBaseline = () =>
  esbuild.build({
    absWorkingDir: root,
    entryPoints: ["scripts/bench/http/baseline.ts"],
    outdir: "dist/bench",
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    external: ["sentiment"],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: "warning"
  })

/** The node flags of `npm start` (package.json's start script): the service runs as it does in production. */
const SERVICE_NODE_FLAGS: ReadonlyArray<string> =
  (JSON.parse(Fs.readFileSync(Path.join(root, "package.json"), "utf8")).scripts.start as string).match(/--[a-z-]+=\S+/g) ?? []

const start = (side: Side, databaseUrl: string, nodeArgs: ReadonlyArray<string> = []) =>
  startNode({
    name: side,
    cwd: root,
    script: side === "service" ? "dist/server/main.js" : "dist/bench/baseline.js",
    env: serverEnv(databaseUrl),
    readyPath: side === "service" ? "/ready" : "/health",
    nodeArgs: side === "service" ? [...SERVICE_NODE_FLAGS, ...nodeArgs] : nodeArgs
  })

interface Scenario {
  readonly name: ScenarioName
  readonly label: string
  readonly request: LoadRequest
}

const scenariosFor = (project: BenchProject, key: string): Array<Scenario> => {
  const headers = { authorization: `Bearer ${key}`, "service-project-id": String(project.projectId), accept: "application/json" }
  // A prompt with two tags: the join is part of the work.
  const prompt = project.prompts.find((p) => p.tags === 2) ?? project.prompts[0]!
  const all: Array<Scenario> = [
    { name: "get", label: "GET one prompt", request: { method: "GET", path: `/api/v1/prompts/${prompt.id}`, headers } },
    { name: "list", label: "GET a page of prompts", request: { method: "GET", path: "/api/v1/prompts?page=2&per_page=25", headers } },
    {
      name: "post",
      label: "POST a response",
      request: { method: "POST", path: "/api/v1/responses", headers: { ...headers, "content-type": "application/json" }, bodies: answerBodies(project, 2000) }
    }
  ]
  return all.filter((scenario) => selected.includes(scenario.name))
}

const send = async (server: ServerProcess, request: LoadRequest, body?: string) => {
  const reply = await fetch(`${server.baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body,
    signal: AbortSignal.timeout(60_000)
  })
  return { status: reply.status, headers: reply.headers, text: await reply.text() }
}

/**
 * The baseline must give the service's answers: the same status and bytes for the GETs (each server's
 * own address aside), and for a POST the same answer but for ids and instants, with as many citations
 * and mentions stored. Returns the headers only one side sends, for the record.
 */
const checkSameAnswers = async (servers: Record<Side, ServerProcess>, scenarios: ReadonlyArray<Scenario>, databaseUrl: string) => {
  const headerNames = { service: new Set<string>(), baseline: new Set<string>() }
  for (const scenario of scenarios) {
    const body = scenario.request.bodies?.[0]
    const replies = {
      service: await send(servers.service, scenario.request, body),
      baseline: await send(servers.baseline, scenario.request, body)
    }
    for (const side of SIDES) replies[side].headers.forEach((_, name) => headerNames[side].add(name))
    const normalized = (side: Side) => replies[side].text.replaceAll(servers[side].baseUrl, "http://SERVER")
    if (replies.service.status !== replies.baseline.status) {
      throw new Error(`${scenario.label}: the service answered ${replies.service.status}, the baseline ${replies.baseline.status}:\n` +
        `${replies.service.text.slice(0, 500)}\n${replies.baseline.text.slice(0, 500)}`)
    }
    if (scenario.request.method === "GET") {
      if (normalized("service") !== normalized("baseline")) {
        throw new Error(`${scenario.label}: the answers differ:\n${normalized("service").slice(0, 800)}\n${normalized("baseline").slice(0, 800)}`)
      }
      continue
    }
    const variable = new Set(["id", "collected_at", "analyzed_at", "created_at", "updated_at"])
    const stable = (text: string) => JSON.stringify(JSON.parse(text).data, (key, value) => (variable.has(key) ? typeof value : value))
    if (stable(replies.service.text) !== stable(replies.baseline.text)) {
      throw new Error(`${scenario.label}: the answers differ:\n${replies.service.text.slice(0, 800)}\n${replies.baseline.text.slice(0, 800)}`)
    }
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    const stored = await client.query<{ id: string; citations: string; mentions: string }>(
      `SELECT r.id, (SELECT count(*) FROM citations c WHERE c.response_id = r.id) AS citations,
         (SELECT count(*) FROM brand_mentions m WHERE m.response_id = r.id) AS mentions
       FROM responses r WHERE r.id = ANY($1::bigint[]) ORDER BY r.id`,
      [[JSON.parse(replies.service.text).data.id, JSON.parse(replies.baseline.text).data.id]]
    )
    await client.end()
    const [a, b] = stored.rows
    if (a === undefined || b === undefined || a.citations !== b.citations || a.mentions !== b.mentions) {
      throw new Error(`${scenario.label}: the two responses were not stored alike: ${JSON.stringify(stored.rows)}`)
    }
  }
  const only = (side: Side, other: Side) => [...headerNames[side]].filter((name) => !headerNames[other].has(name)).sort()
  return { service: only("service", "baseline"), baseline: only("baseline", "service") }
}

// ---------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------

interface ScenarioResult {
  readonly scenario: Scenario
  readonly rounds: Record<Side, Array<LoadResult>>
  readonly memory: Record<Side, Memory>
}

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The `application_name` each server gives its database connections. */
const APPLICATION_NAMES: Record<Side, string> = { service: "brand-visibility-monitor", baseline: "bench-http-baseline" }

/**
 * Waits (up to a minute) until none of the server's database sessions is running a statement: a load
 * ends with requests still in flight, and their work must not weigh on the next load (of either side).
 */
const settle = async (monitor: pg.Client, side: Side) => {
  const deadline = Date.now() + 60_000
  let quiet = 0
  while (quiet < 2 && Date.now() < deadline) {
    const { rows } = await monitor.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND state <> 'idle'",
      [APPLICATION_NAMES[side]]
    )
    quiet = rows[0]!.n === 0 ? quiet + 1 : 0
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const measure = async (servers: Record<Side, ServerProcess>, scenario: Scenario, monitor: pg.Client): Promise<ScenarioResult> => {
  const loadOptions = { connections: CONNECTIONS, seconds: DURATION }
  const run = async (side: Side, seconds: number) => {
    const result = await load(servers[side].baseUrl, scenario.request, { ...loadOptions, seconds })
    await settle(monitor, side)
    return result
  }
  if (WARMUP > 0) {
    for (const side of SIDES) await run(side, WARMUP)
  }
  const rounds: Record<Side, Array<LoadResult>> = { service: [], baseline: [] }
  for (let round = 0; round < ROUNDS; round++) {
    const order: ReadonlyArray<Side> = round % 2 === 0 ? SIDES : [...SIDES].reverse()
    for (const side of order) {
      const result = await run(side, DURATION)
      rounds[side].push(result)
      console.log(
        `  ${scenario.name} round ${round + 1} ${side.padEnd(8)} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  ` +
          `p50 ${ms(result.p50).padStart(5)} ms  p99 ${ms(result.p99).padStart(5)} ms${result.failures > 0 ? `  failures ${result.failures} ${JSON.stringify(result.statuses)}` : ""}`
      )
    }
  }
  return { scenario, rounds, memory: { service: memoryOf(servers.service), baseline: memoryOf(servers.baseline) } }
}

/** Every rollup of the project against a recount from the raw rows (test/support/Rollups.ts). */
const checkRollups = async (databaseUrl: string, projectId: number) => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    // The answers were stored pending (migration 0008); the service's background merger folds them into
    // the rollups once a second. The recount holds either way; it is made once they are all merged.
    const pendingOf = async () =>
      (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM analytics_pending WHERE project_id = $1", [projectId])).rows[0]!.n
    const pendingAtEnd = await pendingOf()
    const started = Date.now()
    while ((await pendingOf()) > 0 && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 100))
    const mergedAfterMs = Date.now() - started
    const mismatches = await rollupMismatchesWith((query) => client.query(query).then((result) => result.rows), projectId)
    const counts = await client.query<{ responses: number; citations: number; mentions: number }>(
      `SELECT (SELECT count(*)::int FROM responses WHERE project_id = $1) AS responses,
         (SELECT count(*)::int FROM citations c JOIN responses r ON r.id = c.response_id WHERE r.project_id = $1) AS citations,
         (SELECT count(*)::int FROM brand_mentions WHERE project_id = $1) AS mentions`,
      [projectId]
    )
    return { mismatches, pendingAtEnd, mergedAfterMs, pendingLeft: await pendingOf(), ...counts.rows[0]! }
  } finally {
    await client.end()
  }
}

// ---------------------------------------------------------------------------
// Profiling
// ---------------------------------------------------------------------------

const PROFILE_REQUESTS = 50

interface StatementProfile {
  readonly scenario: Scenario
  readonly counts: Record<Side, StatementCounts>
  /** Mean time of one request, sent alone, until its whole answer was read (ms). */
  readonly requestMs: Record<Side, number>
}

/** Both servers behind the counting proxy: what one request sends to PostgreSQL, requests one at a time. */
const countStatements = async (databaseUrl: string, scenarios: ReadonlyArray<Scenario>): Promise<Array<StatementProfile>> => {
  const target = new URL(databaseUrl)
  const counter = await startStatementCounter({ host: target.hostname, port: Number(target.port || 5432) })
  const proxied = new URL(databaseUrl)
  proxied.hostname = "127.0.0.1"
  proxied.port = String(counter.port)
  const servers = { service: await start("service", proxied.toString()), baseline: await start("baseline", proxied.toString()) }
  try {
    const profiles: Array<StatementProfile> = []
    for (const scenario of scenarios) {
      const counts = {} as Record<Side, StatementCounts>
      const requestMs = {} as Record<Side, number>
      for (const side of SIDES) {
        const bodies = scenario.request.bodies
        // Warm: the pool's connections open, key use recorded, caches filled.
        for (let i = 0; i < 10; i++) await send(servers[side], scenario.request, bodies?.[(i * 7 + (side === "service" ? 0 : 1000)) % bodies.length])
        counter.reset()
        const started = process.hrtime.bigint()
        for (let i = 0; i < PROFILE_REQUESTS; i++) {
          // Each side its own answers, so that neither finds the sources and URLs the other just made.
          const reply = await send(servers[side], scenario.request, bodies?.[(i * 13 + (side === "service" ? 5 : 1005)) % bodies.length])
          if (reply.status >= 300) throw new Error(`${side} ${scenario.label} answered ${reply.status} while profiled: ${reply.text.slice(0, 300)}`)
        }
        requestMs[side] = Number(process.hrtime.bigint() - started) / 1e6 / PROFILE_REQUESTS
        counts[side] = counter.counts()
      }
      profiles.push({ scenario, counts, requestMs })
    }
    return profiles
  } finally {
    await Promise.all(SIDES.map((side) => servers[side].stop()))
    await counter.close()
  }
}

/** Each server under the list load (or the first scenario's) with V8's CPU profiler. */
const profileCpu = async (databaseUrl: string, scenario: Scenario) => {
  const profiles = {} as Record<Side, ReturnType<typeof summarizeProfile>>
  for (const side of SIDES) {
    const directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "bench-http-cpu-"))
    try {
      const server = await start(side, databaseUrl, ["--cpu-prof", `--cpu-prof-dir=${directory}`])
      await load(server.baseUrl, scenario.request, { connections: CONNECTIONS, seconds: Math.min(WARMUP || 1, 3) })
      const from = process.hrtime.bigint()
      await load(server.baseUrl, scenario.request, { connections: CONNECTIONS, seconds: DURATION })
      const to = process.hrtime.bigint()
      await server.stop()
      const file = Fs.readdirSync(directory).find((name) => name.endsWith(".cpuprofile"))
      if (file === undefined) throw new Error(`${side} wrote no CPU profile (it did not exit normally):\n${server.output()}`)
      const summary = summarizeProfile(Path.join(directory, file), { from, to })
      if (summary.seconds < DURATION / 2) throw new Error(`${side}'s CPU profile covers ${summary.seconds.toFixed(1)} s of the ${DURATION} s load: its clock is not this process's`)
      profiles[side] = summary
    } finally {
      Fs.rmSync(directory, { recursive: true, force: true })
    }
  }
  return profiles
}

// ---------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------

const mb = (mib: number) => ((mib * 1024 * 1024) / 1e6).toFixed(0)
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`
const whole = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 })
const range = (values: ReadonlyArray<number>, format: (n: number) => string) =>
  values.length < 2 ? "" : ` (${format(Math.min(...values))}–${format(Math.max(...values))})`

const GET_RPS_RATIO = 0.7
const GET_P99_RATIO = 2
const RSS_LIMIT_MB = 150
/** How long both servers are left without requests before their memory is read again. */
const SETTLE_SECONDS = 30
const POST_RPS = 500
const POST_P99_MS = 500

const resultsTable = (results: ReadonlyArray<ScenarioResult>) => {
  const lines = [
    "| scenario | server | req/s, median (range) | p50 ms | p99 ms | failures | RSS after, MB (peak) |",
    "|---|---|---:|---:|---:|---:|---:|"
  ]
  for (const { memory, rounds, scenario } of results) {
    const summary = (side: Side) => ({
      rps: median(rounds[side].map((r) => r.requestsPerSecond)),
      p50: median(rounds[side].map((r) => r.p50)),
      p99: median(rounds[side].map((r) => r.p99)),
      failures: rounds[side].reduce((sum, r) => sum + r.failures, 0)
    })
    const s = summary("service")
    const b = summary("baseline")
    const label = `${scenario.label} (\`${scenario.request.method} ${scenario.request.path.replace(/\/prompts\/\d+/, "/prompts/{id}")}\`)`
    for (const side of SIDES) {
      const x = side === "service" ? s : b
      lines.push(
        `| ${side === "service" ? label : ""} | ${side} | ${whole(x.rps)}${range(rounds[side].map((r) => r.requestsPerSecond), whole)} | ` +
          `${ms(x.p50)} | ${ms(x.p99)} | ${x.failures} | ${mb(memory[side].rssMiB)} (${mb(memory[side].peakMiB)}) |`
      )
    }
    lines.push(
      `| | **service / baseline** | **${ratio(s.rps, b.rps)}** | ${ratio(s.p50, b.p50)} | **${ratio(s.p99, b.p99)}** | | ${ratio(memory.service.rssMiB, memory.baseline.rssMiB)} |`
    )
  }
  return lines.join("\n")
}

const targetsList = (
  results: ReadonlyArray<ScenarioResult>,
  rollups: Awaited<ReturnType<typeof checkRollups>> | undefined,
  settled: Record<Side, Memory>
) => {
  const lines: Array<string> = []
  const verdict = (ok: boolean) => (ok ? "met" : "**missed**")
  for (const { rounds, scenario } of results) {
    const s = { rps: median(rounds.service.map((r) => r.requestsPerSecond)), p99: median(rounds.service.map((r) => r.p99)) }
    const b = { rps: median(rounds.baseline.map((r) => r.requestsPerSecond)), p99: median(rounds.baseline.map((r) => r.p99)) }
    if (scenario.request.method === "GET") {
      lines.push(`- ${scenario.label}: throughput ${ratio(s.rps, b.rps)} the baseline's (target ≥ ${GET_RPS_RATIO}×): ${verdict(s.rps >= GET_RPS_RATIO * b.rps)}; ` +
        `p99 ${ratio(s.p99, b.p99)} the baseline's (target ≤ ${GET_P99_RATIO}×): ${verdict(s.p99 <= GET_P99_RATIO * b.p99)}.`)
    } else {
      lines.push(`- ${scenario.label}, ${CONNECTIONS} connections into one project: ${whole(s.rps)} req/s (target ≥ ${POST_RPS}): ${verdict(s.rps >= POST_RPS)}; ` +
        `p99 ${ms(s.p99)} ms (target ≤ ${POST_P99_MS} ms): ${verdict(s.p99 <= POST_P99_MS)}.`)
    }
  }
  const last = results[results.length - 1]
  if (last !== undefined) {
    const rss = (last.memory.service.rssMiB * 1024 * 1024) / 1e6
    const idle = (settled.service.rssMiB * 1024 * 1024) / 1e6
    lines.push(
      `- The service's RSS after the load (target ≤ ${RSS_LIMIT_MB} MB): ${rss.toFixed(0)} MB at the end of its last round: ${verdict(rss <= RSS_LIMIT_MB)}; ` +
        `${idle.toFixed(0)} MB after ${SETTLE_SECONDS} s without requests (the baseline's ${mb(settled.baseline.rssMiB)} MB): ${verdict(idle <= RSS_LIMIT_MB)}.`
    )
  }
  if (rollups !== undefined) {
    const tables = Object.keys(rollups.mismatches)
    lines.push(
      `- Rollups after the POST load (${whole(rollups.responses)} responses, ${whole(rollups.citations)} citations, ${whole(rollups.mentions)} mentions in the project, ` +
        `both servers' included; ${whole(rollups.pendingAtEnd)} pending when the load ended, merged by the service's background merger within ` +
        `${(rollups.mergedAfterMs / 1000).toFixed(1)} s${rollups.pendingLeft > 0 ? `, **${whole(rollups.pendingLeft)} still pending after 60 s**` : ""}): ${tables.length === 0 ? "every rollup row equals its recount from the raw rows: met" : `**missed**: rows differ in ${tables.join(", ")}`}.`
    )
  }
  return lines.join("\n")
}

const statementsTable = (profiles: ReadonlyArray<StatementProfile>) => {
  const lines = [
    "| scenario | server | statements | round trips | parsed | request, ms | waiting for PostgreSQL, ms | the rest, ms |",
    "|---|---|---:|---:|---:|---:|---:|---:|"
  ]
  const each = (n: number) => (n / PROFILE_REQUESTS).toFixed(1)
  for (const { counts, requestMs, scenario } of profiles) {
    for (const side of SIDES) {
      const c = counts[side]
      const wait = c.waitMs / PROFILE_REQUESTS
      lines.push(`| ${side === "service" ? scenario.label : ""} | ${side} | ${each(c.statements)} | ${each(c.roundTrips)} | ${each(c.parses)} | ` +
        `${requestMs[side].toFixed(1)} | ${wait.toFixed(1)} | ${(requestMs[side] - wait).toFixed(1)} |`)
    }
  }
  return lines.join("\n")
}

/** The statements of one request, most frequent first, with their mean wait. */
const statementList = (profile: StatementProfile, side: Side) =>
  [...profile.counts[side].texts]
    .sort((a, b) => b[1].count - a[1].count)
    .map(([text, { count, ms: total }]) =>
      `  ${(count / PROFILE_REQUESTS).toFixed(2).padStart(5)} × ${(total / count).toFixed(2).padStart(6)} ms  ${text.length > 140 ? `${text.slice(0, 137)}...` : text}`
    )
    .join("\n")

const cpuTable = (profiles: Record<Side, ReturnType<typeof summarizeProfile>>) => {
  const names = [...new Set([...profiles.service.places, ...profiles.baseline.places].map((share) => share.name))]
  const percent = (side: Side, name: string) => profiles[side].places.find((share) => share.name === name)?.percent ?? 0
  names.sort((a, b) => percent("service", b) - percent("service", a))
  return [
    "| where the process's time went (self time) | service | baseline |",
    "|---|---:|---:|",
    ...names
      .filter((name) => percent("service", name) >= 0.5 || percent("baseline", name) >= 0.5)
      .map((name) => `| ${name} | ${percent("service", name).toFixed(1)}% | ${percent("baseline", name).toFixed(1)}% |`)
  ].join("\n")
}

const gitCommit = () => {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim()
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src", "migrations"], { cwd: root, encoding: "utf8" }).trim() !== ""
    return `${commit}${dirty ? " with uncommitted changes in src/ or migrations/" : ""}`
  } catch {
    return "(not a git checkout)"
  }
}

const loadAverage = () => Os.loadavg().map((n) => n.toFixed(2)).join(" / ")

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

const main = async () => {
  const startedAt = new Date()
  const loadBefore = loadAverage()
  console.log(`bench:http on ${displayUrl(serverUrl)}; load average ${loadBefore}`)
  // Both servers run as built JavaScript: the service as `npm start` runs it, the baseline alike.
  await buildServer()
  await buildBaseline()
  const database = await createScratchDatabase(serverUrl)
  const servers: Partial<Record<Side, ServerProcess>> = {}
  const interrupted = () => {
    console.error("interrupted: stopping the servers and dropping the scratch database")
    void Promise.all(Object.values(servers).map((server) => server.stop())).finally(() => database.drop().finally(() => process.exit(130)))
  }
  process.once("SIGINT", interrupted)
  process.once("SIGTERM", interrupted)
  try {
    console.log(`scratch database ${database.name}; starting the service (migrations run)`)
    servers.service = await start("service", database.url)
    const key = await createKey(database.url)
    const project = await seedProject(servers.service.baseUrl, key)
    servers.baseline = await start("baseline", database.url)
    const scenarios = scenariosFor(project, key)
    const running = servers as Record<Side, ServerProcess>
    const onlyHeaders = await checkSameAnswers(running, scenarios, database.url)
    console.log(`seeded project ${project.projectId} (${project.prompts.length} prompts); both servers give the same answers`)

    const results: Array<ScenarioResult> = []
    const monitor = new pg.Client({ connectionString: database.url, application_name: "bench-http-monitor" })
    await monitor.connect()
    try {
      for (const scenario of scenarios) {
        console.log(`${scenario.label}: ${ROUNDS} rounds of ${DURATION} s per server, ${CONNECTIONS} connections`)
        results.push(await measure(running, scenario, monitor))
      }
    } finally {
      await monitor.end()
    }
    const rollups = selected.includes("post") ? await checkRollups(database.url, project.projectId) : undefined
    // What each process keeps once the load is over: V8 returns the heap it no longer uses when idle.
    console.log(`memory: both servers left idle for ${SETTLE_SECONDS} s`)
    await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000))
    const settled = { service: memoryOf(running.service), baseline: memoryOf(running.baseline) }
    await Promise.all(SIDES.map((side) => running[side].stop()))
    delete servers.service
    delete servers.baseline

    let statements: Array<StatementProfile> = []
    let cpu: Record<Side, ReturnType<typeof summarizeProfile>> | undefined
    const cpuScenario = scenarios.find((s) => s.name === "list") ?? scenarios[0]!
    if (PROFILE) {
      console.log("profiling: statements per request")
      statements = await countStatements(database.url, scenarios)
      console.log(`profiling: CPU under the load of ${cpuScenario.label}`)
      cpu = await profileCpu(database.url, cpuScenario)
    }
    const loadAfter = loadAverage()

    const pgVersion = await (async () => {
      const client = new pg.Client({ connectionString: database.url })
      await client.connect()
      const version = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v
      await client.end()
      return version
    })()
    const minutes = ((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)
    const report = [
      `### Results of ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
      "",
      `Machine: ${Os.cpus().length} cores (${Os.cpus()[0]?.model.trim() ?? "?"}), ${Math.round(Os.totalmem() / 2 ** 30)} GiB RAM, ` +
        `load average (1/5/15 min) ${loadBefore} at the start, ${loadAfter} at the end; Node ${process.version}, PostgreSQL ${pgVersion} on the same machine. ` +
        `Service at ${gitCommit()}, \`LOG_LEVEL=${LOG_LEVEL}\`. Run: \`npm run bench:http -- ${argv.join(" ")}\`` +
        ` (${ROUNDS} rounds of ${DURATION} s per scenario and server, ${CONNECTIONS} connections, ${WARMUP} s warm-up; ${minutes} min in all).`,
      "",
      `Project: ${project.prompts.length} prompts in 4 monitors, 10 brands, 8 tags. Medians of the rounds; req/s counts 2xx answers; ` +
        `RSS of each server process after the scenario's last round (VmRSS, and VmHWM as the peak so far).` +
        (onlyHeaders.service.length + onlyHeaders.baseline.length > 0
          ? ` Headers only the service sends: ${onlyHeaders.service.join(", ") || "none"}; only the baseline: ${onlyHeaders.baseline.join(", ") || "none"}.`
          : ""),
      "",
      resultsTable(results),
      "",
      "Targets:",
      "",
      targetsList(results, rollups, settled),
      ...(statements.length === 0 ? [] : [
        "",
        `What one request costs in database work: ${PROFILE_REQUESTS} requests sent one at a time to each server, whose database connections go ` +
          "through a proxy that reads the wire protocol. Per request: statements executed, round trips (each a wait for PostgreSQL's answer), " +
          "statements parsed (sent with their SQL text, as unnamed prepared statements), the request's time until its whole answer was read, " +
          "the part of it spent waiting for PostgreSQL (from each round trip's last message to PostgreSQL's ReadyForQuery, at the proxy), and the rest: " +
          "the server's own work, HTTP included.",
        "",
        statementsTable(statements),
        "",
        "<details><summary>The statements of one request: how many times each ran, its mean wait, its SQL</summary>",
        "",
        "```",
        statements.flatMap((profile) => SIDES.map((side) => `${profile.scenario.label}, ${side}:\n${statementList(profile, side)}`)).join("\n\n"),
        "```",
        "",
        "</details>"
      ]),
      ...(cpu === undefined ? [] : [
        "",
        `CPU profile of each server under the load of "${cpuScenario.label}" (${CONNECTIONS} connections, ${DURATION} s; V8's sampling profiler, \`node --cpu-prof\`):`,
        "",
        cpuTable(cpu),
        "",
        "The functions with the most self time:",
        "",
        "| service | baseline |",
        "|---|---|",
        ...cpu.service.functions.map((f, i) => {
          const b = cpu!.baseline.functions[i]
          return `| ${f.percent.toFixed(1)}% \`${f.name}\` | ${b === undefined ? "" : `${b.percent.toFixed(1)}% \`${b.name}\``} |`
        })
      ])
    ].join("\n")

    console.log("")
    console.log(report)
    if (WRITE_DOCS) {
      writeHttpResults(docsFile, report)
      console.log(`\nwritten into ${Path.relative(process.cwd(), docsFile)}`)
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()))
    await database.drop()
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
)
