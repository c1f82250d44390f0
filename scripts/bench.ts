/**
 * `npm run bench [-- --requests 30 --warmup 5 --budget 45 --only sources --no-docs]`: latency of the
 * analytics and brand-mention endpoints on the dataset of `npm run bench:data` (docs/performance.md, "Running the benchmarks").
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bvm_bench npm run bench
 *
 * The real server stack runs in this process on a free loopback port (SQL repositories, every
 * middleware, a rate limit that never bites), with a key created for the run and deleted after it.
 * For each scenario, requests are sent one at a time: first the warm-up, then the measured ones. Each
 * measured HTTP request (until the whole body is read) comes right after the same work done directly by
 * the service, through the same SqlClient pool and without HTTP: the Analytics service call, or the
 * brand-mention repository calls the handler makes. api p50 / sql p50 is then the cost of HTTP,
 * authentication, the project and filter lookups, and encoding, measured in the same run.
 *
 * For the 90-day brand analytics, the same answer is also fetched, in turns with the service's, from
 * the floor servers of scripts/bench/floor.ts (a minimal HttpApi app, a bare node:http server): a
 * second table says what api/sql the service could reach at best if its HTTP cost only theirs.
 *
 * Slow scenarios would take long at 30 requests: a scenario stops measuring after `--budget` seconds
 * (default 45; 0 means no limit) once it has at least 5 samples of each, and the warm-up after 10 s
 * once it has one. `n` in the table is the number of measured samples of each side.
 *
 * The table is printed (markdown) and written into docs/performance-runs.md between its markers (the
 * full tables of the latest runs; `--no-docs` skips the file). Targets: every analytics request of a 90-day
 * window (sources, URLs and their series; brands, their series and prompts) under 100 ms at p95, with
 * api/sql p50 at most 1.2.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as Http from "node:http"
import * as Os from "node:os"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { Analytics, type BrandSelection, type Filters, type Interval } from "../src/Analytics/Analytics.ts"
import { BrandMentionsRepo } from "../src/BrandMentions/Repo.ts"
import { BrandsRepo } from "../src/Brands/Repo.ts"
import { generateKey, hashKey, keyPrefix } from "../src/Domain/ApiKey.ts"
import type { Key } from "../src/Domain/Page.ts"
import { encodeCursor, listText } from "../src/Http/Cursor.ts"
import { PromptsRepo } from "../src/Prompts/Repo.ts"
import { ResponsesRepo } from "../src/Responses/Repo.ts"
import { BENCH_ORGANIZATION, commandLine, countRows, countsTable, displayUrl, findBenchProject, requireDatabaseUrl } from "./bench/common.ts"
import { writeResults } from "./bench/report.ts"
import { type FloorServers, startFloorServers } from "./bench/floor.ts"
import { type BenchServer, startBenchServer } from "./bench/server.ts"
import { ms, type Summary, summarize } from "./bench/stats.ts"

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

const argv = process.argv.slice(2)
if (argv.includes("--help") || argv.includes("-h")) {
  console.log(
    "usage: DATABASE_URL=... npm run bench [-- --requests N (30)] [--warmup N (5)] [--budget SECONDS (45; 0 = none)]\n" +
      "       [--only TEXT (scenarios whose label contains TEXT)] [--no-docs]"
  )
  process.exit(0)
}
const { numberOption, option } = commandLine(argv)
const REQUESTS = numberOption("requests", 30, 1)
const WARMUP = numberOption("warmup", 5, 0)
const BUDGET_MS = numberOption("budget", 45, 0) * 1000
const WARMUP_BUDGET_MS = 10_000
const MIN_SAMPLES = Math.min(5, REQUESTS)
const ONLY = option("only")
const WRITE_DOCS = !argv.includes("--no-docs")
/** The p95 target of every analytics request of a 90-day window, which also holds api/sql p50 to at most TARGET_OVERHEAD. */
const TARGET_P95_MS = 100
const TARGET_OVERHEAD = 1.2

const url = requireDatabaseUrl("bench")
const docsFile = fileURLToPath(new URL("../docs/performance-runs.md", import.meta.url))

// ---------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------

type Services = Analytics | BrandMentionsRepo | ResponsesRepo | PromptsRepo | BrandsRepo | SqlClient.SqlClient

interface Scenario {
  readonly group: "sources" | "brands" | "brand-mentions" | "lists" | "reference"
  readonly endpoint: string
  readonly window: string
  readonly variant: string
  /** Path and query under /api/v1. */
  readonly path: string
  /** The same work without HTTP. */
  readonly direct: Effect.Effect<unknown, unknown, Services>
  /** Whether the p95 target applies. */
  readonly targeted: boolean
}

interface Result {
  readonly scenario: Scenario
  readonly api: Summary
  readonly sql: Summary
  /** The floor servers' round trips with the same answer (scripts/bench/floor.ts), where measured. */
  readonly floor?: { readonly bare: Summary; readonly framework: Summary }
}

const DAY_MS = 86_400_000
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

const scenarios = (context: {
  readonly projectId: number
  readonly lastDay: string
  /** One to three tags of the project. */
  readonly tags: ReadonlyArray<{ readonly id: number; readonly name: string }>
  readonly monitorId: number
  readonly monitorCountry: string
  readonly brandId: number
  readonly segment: { readonly id: number; readonly name: string }
  readonly deepPage: number
  readonly responses: number
  /** The keys of the middle row of the project's mentions (newest first), responses and citations (by id). */
  readonly middle: { readonly mention: Key; readonly response: Key; readonly citation: Key }
}): Array<Scenario> => {
  const { projectId } = context
  const list: Array<Scenario> = []
  const filterSets: ReadonlyArray<{ label: string; query: string; filters: Filters }> = [
    { label: "no filter", query: "", filters: {} },
    {
      label: "platforms[]=chatgpt,perplexity",
      query: "&platforms[]=chatgpt&platforms[]=perplexity",
      filters: { platforms: ["chatgpt", "perplexity"] }
    },
    { label: "countries[]=US", query: "&countries[]=US", filters: { countries: ["US"] } },
    // One tag, then two and three at once (several tags read the pairs of them, three the raw rows of
    // the prompts carrying all three), then one with another filter.
    ...[1, 2, 3].filter((n) => n <= context.tags.length).map((n) => {
      const tags = context.tags.slice(0, n)
      return {
        label: `tags[]=${tags.map((tag) => tag.id).join(",")} (${tags.map((tag) => tag.name).join(", ")})`,
        query: tags.map((tag) => `&tags[]=${tag.id}`).join(""),
        filters: { tags: tags.map((tag) => tag.id) }
      }
    }),
    {
      label: `tags[]=${context.tags[0]!.id} & countries[]=US`,
      query: `&tags[]=${context.tags[0]!.id}&countries[]=US`,
      filters: { tags: [context.tags[0]!.id], countries: ["US"] }
    },
    {
      label: `monitors[]=${context.monitorId} (${context.monitorCountry})`,
      query: `&monitors[]=${context.monitorId}`,
      filters: { monitors: [context.monitorId] }
    }
  ]
  const end = Date.parse(`${context.lastDay}T00:00:00Z`)
  const page = { offset: 0, limit: 25 }
  for (const days of [30, 90]) {
    const range = { start: isoDay(end - (days - 1) * DAY_MS), end: context.lastDay }
    const dates = `start_date=${range.start}&end_date=${range.end}`
    const window = `${days} d`
    for (const set of filterSets) {
      const base = { group: "sources" as const, window, variant: set.label, targeted: days === 90 }
      list.push({
        ...base,
        endpoint: "/analytics/sources",
        path: `/analytics/sources?${dates}${set.query}`,
        direct: Effect.flatMap(Analytics, (a) =>
          a.sources(projectId, { range, filters: set.filters, sortBy: "used_percentage", sortOrder: "desc", window: page }))
      })
      list.push({
        ...base,
        endpoint: "/analytics/source-urls",
        path: `/analytics/source-urls?${dates}${set.query}`,
        direct: Effect.flatMap(Analytics, (a) =>
          a.sourceUrls(projectId, { range, filters: set.filters, sortBy: "used_percentage", sortOrder: "desc", window: page }))
      })
      for (const interval of ["day", "week"] as const satisfies ReadonlyArray<Interval>) {
        list.push({
          ...base,
          endpoint: `/analytics/source-url-usage-time-series (${interval})`,
          path: `/analytics/source-url-usage-time-series?${dates}&interval=${interval}${set.query}`,
          direct: Effect.flatMap(Analytics, (a) => a.sourceUrlUsage(projectId, { range, filters: set.filters, interval, topN: 20 }))
        })
      }
    }
  }

  // Brand analytics: the same windows and filters, and the brands of one segment, which choose rows
  // only (prompts have no segment filter).
  const brandFilterSets: ReadonlyArray<{ label: string; query: string; filters: Filters; selection: BrandSelection }> = [
    ...filterSets.map((set) => ({ ...set, selection: {} })),
    {
      label: `segments[]=${context.segment.id} (${context.segment.name})`,
      query: `&segments[]=${context.segment.id}`,
      filters: {},
      selection: { segments: [context.segment.id] }
    }
  ]
  for (const days of [30, 90]) {
    const range = { start: isoDay(end - (days - 1) * DAY_MS), end: context.lastDay }
    const dates = `start_date=${range.start}&end_date=${range.end}`
    const window = `${days} d`
    for (const set of brandFilterSets) {
      const base = { group: "brands" as const, window, variant: set.label, targeted: days === 90 }
      list.push({
        ...base,
        endpoint: "/analytics/brands",
        path: `/analytics/brands?${dates}${set.query}`,
        direct: Effect.flatMap(Analytics, (a) =>
          a.brands(projectId, { range, filters: set.filters, selection: set.selection, sortBy: "visibility", sortOrder: "desc", window: page }))
      })
      for (const interval of ["day", "week"] as const satisfies ReadonlyArray<Interval>) {
        list.push({
          ...base,
          endpoint: `/analytics/brands/time-series (${interval})`,
          path: `/analytics/brands/time-series?${dates}&interval=${interval}${set.query}`,
          direct: Effect.flatMap(Analytics, (a) =>
            a.brandSeries(projectId, { range, filters: set.filters, selection: set.selection, interval, metric: "visibility", topN: 20 }))
        })
      }
      if (set.selection.segments === undefined) {
        list.push({
          ...base,
          endpoint: "/analytics/prompts",
          path: `/analytics/prompts?${dates}${set.query}`,
          direct: Effect.flatMap(Analytics, (a) =>
            a.prompts(projectId, { range, filters: set.filters, sortBy: "own_visibility", sortOrder: "asc", window: page }))
        })
      }
    }
  }

  // The stack's own cost on the lightest project request: key, rate limit, project, one small page.
  list.push({
    group: "reference",
    endpoint: "/tags",
    window: "all",
    variant: "per_page=1 (the fixed cost of a request)",
    path: "/tags?per_page=1",
    direct: Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.zip(
        sql`SELECT id, name, color, created_at, updated_at FROM tags WHERE project_id = ${projectId} ORDER BY id LIMIT 1`,
        sql`SELECT count(*) FROM tags WHERE project_id = ${projectId}`
      )),
    targeted: false
  })

  // Brand mentions: the repository calls of src/BrandMentions/Http.ts, in the same order.
  const newestFirst = { by: "created_at", direction: "desc" } as const
  const mentions = (filter: { brandId?: number }, window: { offset: number; limit: number }) =>
    Effect.flatMap(BrandMentionsRepo, (repo) => repo.list(projectId, filter, newestFirst, window))
  const base = { group: "brand-mentions" as const, endpoint: "/brand-mentions", window: "all", targeted: false }
  list.push({ ...base, variant: "default order (created_at desc)", path: "/brand-mentions", direct: mentions({}, page) })
  list.push({
    ...base,
    variant: "include=response.prompt,brand",
    path: "/brand-mentions?include=response.prompt,brand",
    direct: Effect.gen(function*() {
      const found = yield* mentions({}, page)
      const responses = yield* Effect.flatMap(ResponsesRepo, (repo) =>
        repo.findMany(projectId, [...new Set(found.rows.map((m) => m.response_id))]))
      yield* Effect.flatMap(PromptsRepo, (repo) => repo.findMany(projectId, [...new Set(responses.map((r) => r.prompt_id))]))
      yield* Effect.flatMap(BrandsRepo, (repo) => repo.findMany(projectId, [...new Set(found.rows.map((m) => m.brand_id))]))
    })
  })
  list.push({
    ...base,
    variant: `brand_id=${context.brandId}`,
    path: `/brand-mentions?brand_id=${context.brandId}`,
    direct: Effect.zipRight(
      Effect.flatMap(BrandsRepo, (repo) => repo.find(projectId, context.brandId)),
      mentions({ brandId: context.brandId }, page)
    )
  })
  list.push({
    ...base,
    variant: `deep page (page=${context.deepPage}, per_page 25)`,
    path: `/brand-mentions?page=${context.deepPage}`,
    direct: mentions({}, { offset: (context.deepPage - 1) * 25, limit: 25 })
  })

  // The middle of the list by cursor: the page after the middle row's key (src/Http/Cursor.ts).
  const cursorTo = (endpoint: string, key: Key) => encodeCursor(listText(endpoint, projectId, new URLSearchParams()), key)
  list.push({
    ...base,
    variant: "middle by cursor (per_page 25)",
    path: `/brand-mentions?cursor=${cursorTo("brand-mentions", context.middle.mention)}`,
    direct: Effect.flatMap(BrandMentionsRepo, (repo) => repo.listAfter(projectId, {}, newestFirst, { after: context.middle.mention, limit: 25 }))
  })

  // The other large lists, first page: their repository calls (src/Responses/Http.ts).
  const lists = { group: "lists" as const, window: "all", variant: "first page", targeted: false }
  list.push({
    ...lists,
    endpoint: "/responses",
    path: "/responses",
    direct: Effect.flatMap(ResponsesRepo, (repo) => repo.list(projectId, {}, page))
  })
  const middleResponses = Math.max(1, Math.floor(context.responses / 25 / 2))
  list.push({
    ...lists,
    endpoint: "/responses",
    variant: `deep page (page=${middleResponses}, per_page 25)`,
    path: `/responses?page=${middleResponses}`,
    direct: Effect.flatMap(ResponsesRepo, (repo) => repo.list(projectId, {}, { offset: (middleResponses - 1) * 25, limit: 25 }))
  })
  list.push({
    ...lists,
    endpoint: "/citations",
    path: "/citations",
    direct: Effect.flatMap(ResponsesRepo, (repo) => repo.citations(projectId, {}, page))
  })
  list.push({
    ...lists,
    endpoint: "/responses",
    variant: "middle by cursor (per_page 25)",
    path: `/responses?cursor=${cursorTo("responses", context.middle.response)}`,
    direct: Effect.flatMap(ResponsesRepo, (repo) =>
      repo.listAfter(projectId, {}, { after: context.middle.response, limit: 25 }, { by: "id", direction: "asc" }))
  })
  list.push({
    ...lists,
    endpoint: "/citations",
    variant: "middle by cursor (per_page 25)",
    path: `/citations?cursor=${cursorTo("citations", context.middle.citation)}`,
    direct: Effect.flatMap(ResponsesRepo, (repo) => repo.citationsAfter(projectId, {}, { after: context.middle.citation, limit: 25 }))
  })
  return list
}

const label = (s: Scenario) => `${s.endpoint} ${s.window} ${s.variant}`

// ---------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------

/**
 * One GET over a kept-alive connection with node:http, the body read whole. fetch (undici) is not used:
 * its streams cost the client 0.4-0.6 ms more per request than node:http, time that would be counted
 * as the API's own in this process.
 */
const get = (agent: Http.Agent, url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    Http.get(url, { agent, headers }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }))
      response.on("error", reject)
    }).on("error", reject)
  })

/** One kind of HTTP request of a scenario, and its samples. */
interface Side {
  /** The request, with its time and body. */
  readonly send: () => Promise<{ readonly elapsed: number; readonly body: string }>
  readonly samples: Array<number>
}

/**
 * A scenario's samples. Every HTTP request comes right after the same work done directly, as the
 * requests of a client that waits on other work do, and each direct call comes after an HTTP request:
 * `sql` is every direct call. Where the floor is measured, the service's request, the bare one and the
 * framework's take turns (their order rotating), each after its own direct call, so that all three
 * meet the same conditions.
 */
const measure = async (server: BenchServer, floor: FloorServers | undefined, key: string, projectId: number, scenario: Scenario): Promise<Result> => {
  const headers = { accept: "application/json", authorization: `Bearer ${key}`, "service-project-id": String(projectId) }
  const agents: Array<Http.Agent> = []
  const sideOf = (url: string): Side => {
    const agent = new Http.Agent({ keepAlive: true, maxSockets: 1 })
    agents.push(agent)
    const send = async () => {
      const started = performance.now()
      const { body, status } = await get(agent, url, headers)
      const elapsed = performance.now() - started
      if (status !== 200) throw new Error(`${url}: ${status} ${body.slice(0, 500)}`)
      return { elapsed, body }
    }
    return { send, samples: [] }
  }
  const api = sideOf(`${server.baseUrl}/api/v1${scenario.path}`)
  const direct = async (): Promise<number> => {
    const started = performance.now()
    await server.runtime.runPromise(scenario.direct as Effect.Effect<unknown, unknown, never>)
    return performance.now() - started
  }
  const floorSides = floor === undefined ? undefined : { bare: sideOf(floor.bareUrl), framework: sideOf(floor.frameworkUrl) }
  const sides: ReadonlyArray<Side> = floorSides === undefined ? [api] : [api, floorSides.bare, floorSides.framework]

  try {
    // The service's answer, which the floor servers then give.
    if (floor !== undefined) floor.answerWith((await api.send()).body)
    const warmupStarted = performance.now()
    for (let i = 0; i < WARMUP; i++) {
      for (const side of sides) {
        await direct()
        await side.send()
      }
      if (performance.now() - warmupStarted > WARMUP_BUDGET_MS) break
    }
    const sqlSamples: Array<number> = []
    const started = performance.now()
    for (let i = 0; i < REQUESTS; i++) {
      for (let j = 0; j < sides.length; j++) {
        const side = sides[(i + j) % sides.length]!
        sqlSamples.push(await direct())
        side.samples.push((await side.send()).elapsed)
      }
      if (BUDGET_MS > 0 && api.samples.length >= MIN_SAMPLES && performance.now() - started > BUDGET_MS) break
    }
    return {
      scenario,
      api: summarize(api.samples),
      sql: summarize(sqlSamples),
      ...(floorSides === undefined ? {} : { floor: { bare: summarize(floorSides.bare.samples), framework: summarize(floorSides.framework.samples) } })
    }
  } finally {
    for (const agent of agents) agent.destroy()
  }
}

// ---------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------

/** Whether a result meets the p95 target (only 90-day analytics scenarios have one). */
const fast = ({ api, scenario }: Result): boolean | undefined =>
  !isAnalytics(scenario) ? undefined : api.p95 < TARGET_P95_MS

/** Whether an analytics result meets the overhead target (api/sql p50 at most 1.2). */
const lean = ({ api, scenario, sql }: Result): boolean | undefined =>
  !isAnalytics(scenario) ? undefined : api.p50 / sql.p50 <= TARGET_OVERHEAD

/** The scenarios the targets apply to: analytics of a 90-day window. */
const isAnalytics = (scenario: Scenario) => scenario.targeted && (scenario.group === "sources" || scenario.group === "brands")

const verdict = (result: Result): string => {
  const [p95, overhead] = [fast(result), lean(result)]
  if (p95 === undefined) return ""
  const p95Text = p95 ? "met" : "**missed**"
  return overhead === undefined ? p95Text : `${p95Text}; api/sql ${overhead ? "met" : "**missed**"}`
}

const table = (results: ReadonlyArray<Result>): string => {
  const header = [
    "| endpoint | window | variant | n | api p50 | api p95 | api mean | sql p50 | sql p95 | sql mean | api/sql p50 | api − sql p50 | target p95 (90 d) |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|"
  ]
  const rows = results.map((result) => {
    const { api, scenario, sql } = result
    return `| \`${scenario.endpoint}\` | ${scenario.window} | ${scenario.variant} | ${api.n} | ${ms(api.p50)} | ${ms(api.p95)} | ${ms(api.mean)} | ` +
      `${ms(sql.p50)} | ${ms(sql.p95)} | ${ms(sql.mean)} | ${(api.p50 / sql.p50).toFixed(2)} | ${ms(api.p50 - sql.p50)} | ${verdict(result)} |`
  })
  return [...header, ...rows].join("\n")
}

/** One line per target: met, or which scenarios missed it and by how much. */
const summary = (results: ReadonlyArray<Result>): Array<string> => {
  const line = (what: string, targeted: ReadonlyArray<Result>, met: (r: Result) => boolean | undefined, show: (r: Result) => string) => {
    if (targeted.length === 0) return []
    const missed = targeted.filter((r) => met(r) === false)
    return [
      missed.length === 0
        ? `Target met by all ${targeted.length} ${what}.`
        : `Target **missed** by ${missed.length} of ${targeted.length} ${what}: ` +
          missed.map((r) => `${label(r.scenario)} (${show(r)})`).join("; ") + "."
    ]
  }
  const of = (group: Scenario["group"]) => results.filter((r) => r.scenario.group === group && r.scenario.targeted)
  return [
    ...(["sources", "brands"] as const).flatMap((group) => [
      ...line(`${group} analytics requests of a 90-day window (p95 under ${TARGET_P95_MS} ms)`, of(group), fast, (r) => `p95 ${ms(r.api.p95)} ms`),
      ...line(
        `${group} analytics requests of a 90-day window (api/sql p50 at most ${TARGET_OVERHEAD})`,
        of(group),
        lean,
        (r) => `${(r.api.p50 / r.sql.p50).toFixed(2)}, api − sql ${ms(r.api.p50 - r.sql.p50)} ms`
      )
    ])
  ]
}

/** The scenarios whose floor is measured: those the api/sql target is hard on, the brand analytics of 90 days. */
const withFloor = (scenario: Scenario) => scenario.group === "brands" && scenario.targeted

/** The api/sql p50 a request would have if the HTTP around its statement cost only `floor`. */
const reachable = (sql: Summary, floor: Summary) => (sql.p50 + floor.p50) / sql.p50

/**
 * The floor table: per scenario, the round trips of the two floor servers with the same answer, and
 * the api/sql p50 the service would have if its HTTP cost no more than they do.
 */
const floorReport = (results: ReadonlyArray<Result>): Array<string> => {
  const measured = results.filter((r): r is Result & { floor: NonNullable<Result["floor"]> } => r.floor !== undefined)
  if (measured.length === 0) return []
  const rows = measured.map(({ api, floor, scenario, sql }) =>
    `| \`${scenario.endpoint}\` | ${scenario.window} | ${scenario.variant} | ${floor.bare.n} | ${ms(sql.p50)} | ${ms(api.p50 - sql.p50)} | ` +
    `${ms(floor.framework.p50)} | ${ms(floor.bare.p50)} | ${(api.p50 / sql.p50).toFixed(2)} | ` +
    `${reachable(sql, floor.framework).toFixed(2)} | ${reachable(sql, floor.bare).toFixed(2)} |`
  )
  const beyond = (floorOf: (r: (typeof measured)[number]) => Summary) =>
    measured.filter((r) => reachable(r.sql, floorOf(r)) > TARGET_OVERHEAD).length
  const anyServer = beyond((r) => r.floor.bare)
  const framework = beyond((r) => r.floor.framework)
  return [
    "The floor under these answers, measured in the same run (`scripts/bench/floor.ts`): the same answer, " +
    "byte for byte, from the smallest `@effect/platform` HttpApi app (one endpoint, no middleware, the value " +
    "encoded as JSON) and from a bare `node:http` server sending its bytes, through the same client, each " +
    "request right after the same direct call as the service's. `api/sql if HTTP cost only …` is " +
    "(sql p50 + that round trip's p50) / sql p50: the lowest the service could reach with that HTTP around " +
    "the same statement.",
    "",
    "| endpoint | window | variant | n | sql p50 | api − sql p50 | minimal HttpApi p50 | bare node:http p50 | api/sql p50 | api/sql if HTTP cost only the minimal HttpApi | … only bare node:http |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    `Of these ${measured.length} requests, ${framework} could not reach api/sql ${TARGET_OVERHEAD} with the minimal HttpApi app ` +
    `around their statement, and ${anyServer} not even with the bare \`node:http\` server.`,
    ""
  ]
}

const main = async () => {
  const startedAt = new Date()
  const wallStarted = performance.now()
  const load = Os.loadavg()
  console.error(`bench on ${displayUrl(url)}; starting the server stack in-process...`)
  const server = await startBenchServer(url)
  const floor = await startFloorServers()
  let keyId: number | undefined
  try {
    const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
      server.runtime.runPromise(effect as Effect.Effect<A, E, never>)
    const bench = await run(findBenchProject)
    if (bench === undefined || bench.organizationName !== BENCH_ORGANIZATION) {
      console.error("No complete bench project in this database: run `npm run bench:data` first (with --reset after an unfinished fill).")
      process.exitCode = 1
      return
    }
    const projectId = bench.projectId
    const counts = await run(countRows(projectId))
    const context = await run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Up to three tags, for one, two and three at once: prompts may carry several of them.
      const tags = yield* sql<{ id: number; name: string }>`
        SELECT id, name FROM tags WHERE project_id = ${projectId}
        ORDER BY array_position(ARRAY['pricing', 'comparison', 'integrations'], lower(name)) NULLS LAST, id LIMIT 3`
      const [monitor] = yield* sql<{ id: number; country: string }>`
        SELECT id, country FROM monitors WHERE project_id = ${projectId} ORDER BY (country = 'US') DESC, id LIMIT 1`
      const [project] = yield* sql<{ brand_id: number | null }>`SELECT brand_id FROM projects WHERE id = ${projectId}`
      const [brand] = yield* sql<{ id: number }>`SELECT id FROM brands WHERE project_id = ${projectId} ORDER BY id LIMIT 1`
      // The segment holding most brands (ties: the first).
      const [segment] = yield* sql<{ id: number; name: string }>`
        SELECT s.id, s.name FROM segments s JOIN brand_segments bs ON bs.segment_id = s.id
        WHERE s.project_id = ${projectId} GROUP BY s.id, s.name ORDER BY count(*) DESC, s.id LIMIT 1`
      // The middle rows of the long lists, where a walk by cursor is halfway.
      const [mention] = yield* sql<{ created_at: Date; id: number }>`
        SELECT created_at, id FROM brand_mentions WHERE project_id = ${projectId}
        ORDER BY created_at DESC, id DESC OFFSET ${Math.floor(counts.brand_mentions / 2)} LIMIT 1`
      const [response] = yield* sql<{ id: number }>`
        SELECT id FROM responses WHERE project_id = ${projectId} ORDER BY id OFFSET ${Math.floor(counts.responses / 2)} LIMIT 1`
      const [citation] = yield* sql<{ id: number }>`
        SELECT id FROM citations WHERE project_id = ${projectId} ORDER BY id OFFSET ${Math.floor(counts.citations / 2)} LIMIT 1`
      const [server] = yield* sql<{ version: string; workers: string }>`
        SELECT current_setting('server_version') AS version, current_setting('max_parallel_workers_per_gather') AS workers`
      // A run that was killed leaves its key behind: remove those first.
      yield* sql`DELETE FROM api_keys WHERE organization_id = ${bench.organizationId} AND name = 'npm run bench'`
      const key = generateKey()
      const [created] = yield* sql<{ id: number }>`
        INSERT INTO api_keys (organization_id, name, key_hash, prefix, abilities)
        VALUES (${bench.organizationId}, 'npm run bench', ${hashKey(key)}, ${keyPrefix(key)}, ${["*"]}) RETURNING id`
      return {
        tags,
        monitorId: monitor!.id,
        monitorCountry: monitor!.country,
        brandId: project!.brand_id ?? brand!.id,
        segment: segment!,
        postgres: server!.version,
        parallelWorkers: server!.workers,
        key,
        keyId: created!.id,
        middle: {
          mention: [new Date(mention!.created_at).toISOString(), Number(mention!.id)],
          response: [Number(response!.id)],
          citation: [Number(citation!.id)]
        }
      }
    }))
    keyId = context.keyId
    const today = isoDay(Date.now())
    const lastDay = counts.last_day ?? today
    if (lastDay !== today) {
      console.error(`note: the dataset ends on ${lastDay}, not today (${today}); the windows end on ${lastDay}. ` +
        "`npm run bench:data -- --reset` rebuilds it up to today.")
    }
    const all = scenarios({
      projectId,
      lastDay,
      tags: context.tags,
      monitorId: context.monitorId,
      monitorCountry: context.monitorCountry,
      brandId: context.brandId,
      segment: context.segment,
      deepPage: Math.max(1, Math.floor(counts.brand_mentions / 25 / 2)),
      responses: counts.responses,
      middle: context.middle
    })
    const chosen = ONLY === undefined ? all : all.filter((s) => label(s).includes(ONLY))
    console.error(`${chosen.length} scenarios, ${WARMUP} warm-up + up to ${REQUESTS} measured requests each` +
      (BUDGET_MS > 0 ? ` (at most ~${BUDGET_MS / 1000} s of measuring per scenario)` : ""))

    const results: Array<Result> = []
    for (const [i, scenario] of chosen.entries()) {
      const result = await measure(server, withFloor(scenario) ? floor : undefined, context.key, projectId, scenario)
      results.push(result)
      console.error(
        `[${i + 1}/${chosen.length}] ${label(scenario)}: api p50 ${ms(result.api.p50)} p95 ${ms(result.api.p95)} ms, ` +
          `sql p50 ${ms(result.sql.p50)} p95 ${ms(result.sql.p95)} ms (n=${result.api.n})`
      )
    }

    const cpus = Os.cpus()
    const elapsedMin = ((performance.now() - wallStarted) / 60_000).toFixed(1)
    const report = [
      `### Results of ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
      "",
      `Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), ${(Os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ` +
      `load average (1/5/15 min) ${load.map((x) => x.toFixed(2)).join(" / ")} at the start, ` +
      `${Os.loadavg().map((x) => x.toFixed(2)).join(" / ")} at the end; Node ${process.version}, PostgreSQL ${context.postgres} ` +
      `(max_parallel_workers_per_gather ${context.parallelWorkers}) on the same machine. Run: \`npm run bench${argv.length > 0 ? ` -- ${argv.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(" ")}` : ""}\` ` +
      `(${WARMUP} warm-up, up to ${REQUESTS} measured requests per scenario${BUDGET_MS > 0 ? `, ${BUDGET_MS / 1000} s budget` : ""}; ` +
      `${elapsedMin} min in all).`,
      "",
      `Dataset (bench project ${projectId}):`,
      "",
      countsTable(counts),
      "",
      `Windows end on ${lastDay}; each also reads its previous period (a 90-day window reads 180 days). ` +
      "Times in milliseconds; `api` is the HTTP request through the whole stack, `sql` the same service or repository calls " +
      "without HTTP, each HTTP request right after one of them; n samples of api.",
      "",
      table(results),
      "",
      ...floorReport(results),
      ...(summary(results).length === 0 ? ["No 90-day analytics scenario in this run."] : summary(results).flatMap((line) => [line, ""]))
    ].join("\n")

    console.log(report)
    if (WRITE_DOCS) {
      writeResults(docsFile, report)
      console.error(`\nwritten to ${docsFile}`)
    }
  } finally {
    if (keyId !== undefined) {
      const id = keyId
      await server.runtime.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM api_keys WHERE id = ${id}`) as Effect.Effect<unknown, unknown, never>
      ).catch(() => undefined)
    }
    await floor.close()
    await server.close()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
