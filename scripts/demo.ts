/**
 * `npm run demo`: a project to explore, with 90 days of answers.
 *
 * Creates an organization ("Demo Organization"), a project with its own brand and five competitors
 * (aliases, domains), two daily monitors (US and DE) set to simulated answers (`simulated: true`) and
 * twenty tagged prompts, then backfills the 90 days before today and today itself: one run per monitor
 * and day, whose jobs the collector's worker answers with the simulated platform (docs/simulated.md) and
 * stores through the ingestion path, each backfilled answer dated on its slot's day: 3,640 answers, a
 * few minutes on the embedded database (it prints its progress). DEMO_DAYS=n makes the backfill shorter.
 *
 * It writes into its own project alone: its worker answers only that project's jobs, and only with the
 * simulated platform, which answers only simulated monitors (other projects' pending jobs, simulated or
 * not, are never touched). At the end it prints an API key and curl commands for the server at
 * http://localhost:$PORT: whether that server runs, and on this database, is checked and said. The
 * commands use the dashboard's windows ("Last 30 days": the 30 UTC days ending today, today included).
 *
 * Uses the database the server uses: DATABASE_URL, or the embedded one in DATA_DIR (shared through a
 * running server, if one holds it). Each run makes a new organization; nothing is deleted.
 */
import { NodeRuntime } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import * as Path from "node:path"
import { ApiKeysRepo } from "../src/ApiKeys/Repo.ts"
import { BrandsRepo } from "../src/Brands/Repo.ts"
import * as Jobs from "../src/Collector/Jobs.ts"
import { Platforms } from "../src/Collector/Platform.ts"
import { RunsRepo } from "../src/Collector/Runs/Repo.ts"
import * as Worker from "../src/Collector/Worker.ts"
import { Settings } from "../src/Config.ts"
import * as Database from "../src/Database/Database.ts"
import * as Migrations from "../src/Database/Migrations.ts"
import { generateKey, hashKey, keyPrefix } from "../src/Domain/ApiKey.ts"
import { type Platform, platforms as allPlatforms } from "../src/Domain/Platform.ts"
import { describeUrl } from "../src/Cli/Environment.ts"
import { MonitorsRepo } from "../src/Monitors/Repo.ts"
import { OrganizationsRepo } from "../src/Organizations/Repo.ts"
import { ProjectsRepo } from "../src/Projects/Repo.ts"
import { PromptsRepo } from "../src/Prompts/Repo.ts"
import * as Repositories from "../src/Repositories.ts"
import { Analyzer } from "../src/Responses/Analyzer.ts"
import { Ingestion } from "../src/Responses/Ingestion.ts"
import { TagsRepo } from "../src/Tags/Repo.ts"

const DAYS = Number(process.env.DEMO_DAYS ?? 90)
const DAY_MS = 86_400_000
/** A claim of the demo's worker: a simulated answer takes milliseconds, so a minute is plenty. */
const LEASE_MS = 60_000
/** The server the printed commands are for: the one `npm start` runs with the same PORT. */
const PORT = Number(process.env.PORT ?? 3000)
const SERVER = `http://localhost:${PORT}`

const competitors = [
  { name: "HubSpot", aliases: ["HubSpot CRM"], domains: ["hubspot.com"] },
  { name: "Salesforce", aliases: ["Sales Cloud"], domains: ["salesforce.com"] },
  { name: "Pipedrive", aliases: [], domains: ["pipedrive.com"] },
  { name: "Zoho CRM", aliases: ["Zoho"], domains: ["zoho.com"] },
  { name: "Freshsales", aliases: ["Freshworks CRM"], domains: ["freshworks.com"] }
]

/** Prompt texts by tag name; the first ten go to the US monitor, the rest to the DE one. */
const prompts: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["What is the best CRM for a small agency?", ["non-branded", "comparison"]],
  ["Which CRM has the best free plan?", ["non-branded", "pricing"]],
  ["Is Northwind CRM worth it for startups?", ["branded", "review"]],
  ["Northwind CRM vs HubSpot: which should I choose?", ["branded", "comparison"]],
  ["What CRM integrates best with Gmail and Slack?", ["non-branded", "integrations"]],
  ["How much does a CRM cost for a team of ten?", ["non-branded", "pricing"]],
  ["What are the most user-friendly sales pipeline tools?", ["non-branded"]],
  ["Which CRM do B2B SaaS companies use?", ["non-branded", "comparison"]],
  ["Northwind CRM reviews and alternatives", ["branded", "review"]],
  ["What CRM is best for real estate agents?", ["non-branded"]],
  ["Which CRM is GDPR compliant and hosted in the EU?", ["non-branded", "integrations"]],
  ["Best CRM for German small businesses?", ["non-branded", "comparison"]],
  ["Is Northwind CRM available in German?", ["branded"]],
  ["Cheapest CRM with email automation?", ["non-branded", "pricing"]],
  ["Which CRM connects to DATEV or Lexoffice?", ["non-branded", "integrations"]],
  ["Northwind CRM pricing compared to Pipedrive", ["branded", "pricing"]],
  ["Which CRM is best for a manufacturing sales team?", ["non-branded"]],
  ["What do users say about Northwind CRM support?", ["branded", "review"]],
  ["Top CRM tools for field sales in 2026", ["non-branded", "comparison"]],
  ["Simple CRM for freelancers and consultants?", ["non-branded"]]
]

const monitors = [
  { name: "US daily", country: "US", platforms: ["chatgpt", "perplexity"] as ReadonlyArray<Platform> },
  { name: "DE daily", country: "DE", platforms: ["chatgpt", "google_ai_overview"] as ReadonlyArray<Platform> }
]

/** No provider: the demo asks none, and its worker answers its simulated monitors with the simulated platform. */
const NoProviders = Layer.succeed(Platforms, Platforms.of({ client: () => Option.none() }))

const demo = Effect.gen(function*() {
  const organization = yield* (yield* OrganizationsRepo).create("Demo Organization")
  const key = generateKey()
  yield* (yield* ApiKeysRepo).create({
    organization_id: organization.id,
    name: "demo",
    key_hash: hashKey(key),
    prefix: keyPrefix(key),
    abilities: ["*"],
    project_ids: null,
    expires_at: null
  })

  const projects = yield* ProjectsRepo
  const project = yield* projects.create(organization.id, { name: "Northwind CRM", domain: "northwind-crm.example" })
  const brands = yield* BrandsRepo
  const own = yield* brands.create(project.id, {
    name: "Northwind CRM",
    aliases: ["Northwind"],
    domains: ["northwind-crm.example"],
    classification: "competitor",
    segment_ids: []
  })
  yield* projects.update(project.id, { brand_id: own.id })
  for (const competitor of competitors) {
    yield* brands.create(project.id, { ...competitor, classification: "competitor", segment_ids: [] })
  }

  const tagsRepo = yield* TagsRepo
  const seeded = yield* tagsRepo.list(project.id, { offset: 0, limit: 100 })
  const tagIds = new Map(seeded.rows.map((tag) => [tag.name, tag.id] as const))
  for (const [name, color] of [["comparison", "#1d4ed8"], ["pricing", "#15803d"], ["integrations", "#b45309"]] as const) {
    tagIds.set(name, (yield* tagsRepo.create(project.id, { name, color })).id)
  }

  const monitorsRepo = yield* MonitorsRepo
  const created = yield* Effect.forEach(monitors, (monitor) =>
    monitorsRepo.create(project.id, { ...monitor, schedule: "daily", active: true, simulated: true }))
  const promptsRepo = yield* PromptsRepo
  for (const [index, [text, tags]] of prompts.entries()) {
    const monitor = created[index < prompts.length / 2 ? 0 : 1]!
    yield* promptsRepo.create(project.id, { monitor_id: monitor.id, text, tag_ids: tags.map((tag) => tagIds.get(tag)!) })
  }

  // The 90 days before today, oldest first: runs created, then worked by the worker, a day at a time. The
  // worker takes this project's jobs only, and answers them with the simulated platform only.
  const runs = yield* RunsRepo
  const worker = yield* Worker.make({ leaseMs: LEASE_MS, maxAttempts: 3, concurrency: 8, simulate: new Set(allPlatforms), projectId: project.id })
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS
  let answered = 0
  for (let day = DAYS; day >= 1; day--) {
    const slot = new Date(today - day * DAY_MS)
    for (const monitor of created) yield* runs.create(monitor, { slot, trigger: "backfill", deadline: null })
    answered += yield* worker.drain
    if (day % 10 === 1 || day === DAYS) {
      yield* Effect.sync(() => console.error(`backfilled ${slot.toISOString().slice(0, 10)}: ${answered} answers so far`))
    }
  }
  // Today's runs, as the scheduler makes them, answered now: the dashboard's windows end today.
  for (const monitor of created) yield* runs.create(monitor, { slot: new Date(today), trigger: "schedule", deadline: new Date(today + DAY_MS) })
  yield* worker.drain
  // An answer that could not be stored (the database too slow for a moment) leaves its job claimed until
  // its lease ends; it is taken again then, so that the demo's project is whole.
  const sql = yield* SqlClient.SqlClient
  for (let round = 1; round <= 3; round++) {
    const [left] = yield* sql<{ readonly n: number }>`
      SELECT count(*)::int AS n FROM collector_jobs WHERE project_id = ${project.id} AND status IN ('pending', 'running')`
    if ((left?.n ?? 0) === 0) break
    yield* Effect.sync(() => console.error(`${left!.n} answers are not stored yet: trying again in ${LEASE_MS / 1000} seconds`))
    yield* Effect.sleep(LEASE_MS + 1_000)
    yield* worker.drain
  }
  // Counted in the database: a server's collector beside the demo may have answered some of them.
  const [stored] = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM responses WHERE project_id = ${project.id}`
  const settings = yield* Settings
  const database = Option.match(settings.databaseUrl, {
    onNone: () => ({ name: `the embedded database in ${Path.resolve(settings.dataDir)}`, setting: `DATA_DIR=${Path.resolve(settings.dataDir)}` }),
    onSome: (url) => ({ name: describeUrl(Redacted.value(url)), setting: "DATABASE_URL=<the same URL>" })
  })
  return { key, project: project.id, monitors: created.map((monitor) => monitor.id), answered: stored?.n ?? answered, today: new Date(today), database }
})

/** What answers at SERVER: nothing, a server on this database (the demo's key works there), or one on another. */
const serverState = (key: string) =>
  Effect.promise(async (): Promise<"none" | "this database" | "another database"> => {
    const health = await fetch(`${SERVER}/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false)
    if (!health) return "none"
    const me = await fetch(`${SERVER}/api/v1/me`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(5_000) })
      .then((r) => r.status, () => 0)
    return me === 200 ? "this database" : "another database"
  })

const day = (date: Date) => date.toISOString().slice(0, 10)

const main = demo.pipe(
  Effect.flatMap(({ answered, database, key, monitors, project, today }) =>
    Effect.map(serverState(key), (server) => {
      // The dashboard's "Last 30 days" (web/src/filters.ts): the 30 UTC days ending today, today included.
      const start = day(new Date(today.getTime() - 29 * DAY_MS))
      const end = day(today)
      const window = `start_date=${start}&end_date=${end}`
      const serverLine = server === "this database"
        ? `The server at ${SERVER} runs on this database: open ${SERVER}/ and sign in with the key below, or try:`
        : server === "another database"
        ? `A server answers at ${SERVER}, but on another database than this one: stop it, and start it on this one\n` +
          `(${database.setting}) to see the demo; then open ${SERVER}/ and sign in with the key below, or try:`
        : `No server answers at ${SERVER}. Start it in another terminal, on this database:\n\n` +
          `  ${PORT === 3000 ? "" : `PORT=${PORT} `}${database.setting} npm start\n\nthen open ${SERVER}/ and sign in with the key below, or try:`
      console.log(`
Demo ready: project ${project}, monitors ${monitors.join(" and ")}, ${answered} simulated answers over ${DAYS} ${DAYS === 1 ? "day" : "days"} and today,
in ${database.name}.
Its monitors are set to simulated answers: the server's collector answers their next runs the same way.

${serverLine}

KEY=${key}
BASE=${SERVER}/api/v1
api() { curl -sg -H "Authorization: Bearer $KEY" -H "Service-Project-Id: ${project}" "$@"; echo; }

api "$BASE/monitors/${monitors[0]}/runs?per_page=3"

# The dashboard's "Last 30 days" (${start} to ${end}): how visible is Northwind CRM against its competitors,
# and is the change real? (docs/metrics.md)
api "$BASE/analytics/brands?${window}"
api "$BASE/analytics/brands?${window}&platforms[]=perplexity&sort_by=share_of_voice"
api "$BASE/analytics/brands/time-series?${window}&interval=week&metric=share_of_voice&top_n=3"
# The prompts where Northwind CRM is missing, first.
api "$BASE/analytics/prompts?${window}&per_page=5"

# Which sources the answers cite.
api "$BASE/analytics/sources?${window}&sort_by=used_count&per_page=5"
api "$BASE/analytics/source-urls?${window}&platforms[]=perplexity&per_page=5"
api "$BASE/analytics/source-url-usage-time-series?${window}&interval=week&top_n=3"
api "$BASE/brand-mentions?include=brand&per_page=5"
`)
    })
  )
)

const Live = Layer.mergeAll(Jobs.layerSql, Ingestion.layer, NoProviders).pipe(
  Layer.provideMerge(Layer.merge(Repositories.layerSql, Analyzer.threads())),
  Layer.provide(Migrations.layer),
  Layer.provideMerge(Database.layer({ shareRunning: true })),
  Layer.provideMerge(Settings.layer)
)

main.pipe(
  Effect.provide(Live),
  Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)),
  NodeRuntime.runMain
)
