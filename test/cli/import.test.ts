import { SqlClient } from "@effect/sql"
import { Effect, Either, Layer, Logger, LogLevel, ManagedRuntime, Option, Redacted, Stream } from "effect"
import { execFile } from "node:child_process"
import * as Fs from "node:fs/promises"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BrandsRepo } from "../../src/Brands/Repo.ts"
import { decodeLine, importLines } from "../../src/Cli/Import.ts"
import { reanalyzeProject } from "../../src/Cli/Reanalyze.ts"
import { Settings } from "../../src/Config.ts"
import * as Database from "../../src/Database/Database.ts"
import * as Migrations from "../../src/Database/Migrations.ts"
import { MemoryStore } from "../../src/Memory/Store.ts"
import { MonitorsRepo } from "../../src/Monitors/Repo.ts"
import { OrganizationsRepo } from "../../src/Organizations/Repo.ts"
import { ProjectsRepo } from "../../src/Projects/Repo.ts"
import { PromptsRepo } from "../../src/Prompts/Repo.ts"
import * as Repositories from "../../src/Repositories.ts"
import { Analyzer } from "../../src/Responses/Analyzer.ts"
import { createDatabase } from "../support/TestServer.ts"

/**
 * `import` (NDJSON → responses, in batches) and `reanalyze` (mentions detected again over stored
 * responses). The batching pipeline runs in-process on the in-memory repositories first (quick); then the
 * CLI runs as a user runs it, child processes on the SQL database, as in cli.test.ts: few runs, each
 * checking several things.
 *
 * The embedded database is opened by the test process (like a running server) and the commands share it
 * through its socket. With DATABASE_URL, a database of its own is created on that server and dropped
 * afterwards. No id is assumed.
 */

const root = fileURLToPath(new URL("../..", import.meta.url))
const databaseUrl = Option.fromNullable(process.env.DATABASE_URL).pipe(Option.filter((url) => url.trim() !== ""))
const TIMEOUT = 180_000

/** What the file refers to. */
interface Fixture {
  readonly project: number
  readonly otherProject: number
  readonly prompt: number
  /** A prompt of the other project. */
  readonly foreignPrompt: number
  readonly acme: number
  readonly globex: number
}

/**
 * An organization; a project with a monitor (chatgpt and perplexity, US), a prompt and the brands Acme
 * and Globex; another project with its own monitor and prompt.
 */
const setUp = Effect.gen(function*() {
  const organization = yield* (yield* OrganizationsRepo).create("Importers")
  const projects = yield* ProjectsRepo
  const monitors = yield* MonitorsRepo
  const prompts = yield* PromptsRepo
  const brands = yield* BrandsRepo
  const project = yield* projects.create(organization.id, { name: "Acme", domain: "acme.com" })
  const otherProject = yield* projects.create(organization.id, { name: "Other", domain: null })
  const monitor = yield* monitors.create(project.id, {
    name: "US",
    country: "US",
    platforms: ["chatgpt", "perplexity"],
    schedule: "daily",
    active: true
  })
  const otherMonitor = yield* monitors.create(otherProject.id, {
    name: "UK",
    country: "GB",
    platforms: ["gemini"],
    schedule: "daily",
    active: true
  })
  const prompt = yield* prompts.create(project.id, { monitor_id: monitor.id, text: "Best CRM?", tag_ids: [] })
  const foreignPrompt = yield* prompts.create(otherProject.id, { monitor_id: otherMonitor.id, text: "Best CRM?", tag_ids: [] })
  const acme = yield* brands.create(project.id, {
    name: "Acme",
    aliases: [],
    domains: ["acme.com"],
    classification: "competitor",
    segment_ids: []
  })
  const globex = yield* brands.create(project.id, {
    name: "Globex",
    aliases: [],
    domains: ["globex.io"],
    classification: "competitor",
    segment_ids: []
  })
  return {
    project: project.id,
    otherProject: otherProject.id,
    prompt: prompt.id,
    foreignPrompt: foreignPrompt.id,
    acme: acme.id,
    globex: globex.id
  } satisfies Fixture
})

/** Hooli becomes a name of Globex: the second good line mentions it. */
const addAlias = (fixture: Fixture) => Effect.flatMap(BrandsRepo, (brands) => brands.update(fixture.globex, { aliases: ["Hooli"] }))

/** Eleven lines: three good ones (1, 7, 10), two blank ones (2, 11), six bad ones. */
const lines = (f: Fixture): Array<string> => [
  JSON.stringify({
    prompt_id: f.prompt,
    platform: "chatgpt",
    text: "Acme beats Globex for small teams.",
    citations: ["https://www.acme.com/pricing?utm_source=x", "https://globex.io/"],
    collected_at: "2026-11-01T10:00:00Z"
  }),
  "",
  `{"prompt_id": ${f.prompt}, "platform": "chatgpt"`,
  JSON.stringify({ prompt_id: "abc", platform: "chatgpt", text: "Acme." }),
  JSON.stringify({ prompt_id: f.foreignPrompt, platform: "gemini", text: "Acme." }),
  JSON.stringify({ prompt_id: f.prompt, platform: "gemini", text: "Acme." }),
  // No citations: the URLs of the text; no collected_at: now.
  JSON.stringify({ prompt_id: f.prompt, platform: "perplexity", text: "Try Hooli Cloud (https://hooli.example/x) or [Acme](https://www.acme.com/)." }),
  JSON.stringify({ prompt_id: f.prompt, platform: "chatgpt", text: "Acme.", collected_at: "2099-01-01T00:00:00Z" }),
  JSON.stringify({ prompt_id: f.prompt, platform: "chatgpt", text: "Acme.", citations: ["ftp://acme.com/file"] }),
  JSON.stringify({ prompt_id: f.prompt, platform: "chatgpt", text: "Nothing to see here.", citations: [], country: "gb" }),
  "   "
]

const expectedErrors = [
  { line: 3, reason: "The line is not valid JSON." },
  { line: 4, reason: "prompt_id: The prompt id field must be an integer." },
  { line: 5, reason: "prompt_id: The selected prompt id is invalid." },
  { line: 6, reason: "platform: The selected platform is not one of the monitor's platforms (chatgpt, perplexity)." },
  { line: 8, reason: "collected_at: The collected at field must be a date before or equal to now." },
  { line: 9, reason: "citations.0: The citations.0 field must be an http or https URL." }
]

/** The project's responses, citations and mentions, by id, however stored. */
interface Snapshot {
  readonly responses: ReadonlyArray<{
    readonly id: number
    readonly text: string
    readonly platform: string
    readonly country: string
    readonly collected_at: Date
    readonly analyzed_at: Date | null
  }>
  readonly citations: ReadonlyArray<{
    readonly id: number
    readonly response_id: number
    readonly source_id: number
    readonly source_url_id: number
    readonly url: string
    readonly position: number
  }>
  readonly mentions: ReadonlyArray<{
    readonly id: number
    readonly response_id: number
    readonly brand_id: number
    readonly position: number
    readonly sentiment_score: number
    readonly created_at: Date
    readonly updated_at: Date
  }>
}

const memorySnapshot = (projectId: number) =>
  Effect.map(MemoryStore, (db): Snapshot => {
    const responses = [...db.table("responses").values()].filter((r) => r.project_id === projectId).sort((a, b) => a.id - b.id)
    const ids = new Set(responses.map((r) => r.id))
    return {
      responses: responses.map(({ analyzed_at, collected_at, country, id, platform, text }) => ({ id, text, platform, country, collected_at, analyzed_at })),
      citations: [...db.table("citations").values()].filter((c) => ids.has(c.response_id)).sort((a, b) => a.id - b.id)
        .map(({ id, position, response_id, source_id, source_url_id, url }) => ({ id, response_id, source_id, source_url_id, url, position })),
      mentions: [...db.table("brand_mentions").values()].filter((m) => m.project_id === projectId).sort((a, b) => a.id - b.id)
        .map(({ brand_id, created_at, id, position, response_id, sentiment_score, updated_at }) => ({
          id,
          response_id,
          brand_id,
          position,
          sentiment_score,
          created_at,
          updated_at
        }))
    }
  })

const sqlSnapshot = (projectId: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.all({
      responses: sql<Snapshot["responses"][number]>`
        SELECT id, text, platform, country, collected_at, analyzed_at FROM responses WHERE project_id = ${projectId} ORDER BY id`,
      citations: sql<Snapshot["citations"][number]>`
        SELECT c.id, c.response_id, c.source_id, c.source_url_id, c.url, c.position
        FROM citations c JOIN responses r ON r.id = c.response_id WHERE r.project_id = ${projectId} ORDER BY c.id`,
      mentions: sql<Snapshot["mentions"][number]>`
        SELECT id, response_id, brand_id, position, sentiment_score, created_at, updated_at
        FROM brand_mentions WHERE project_id = ${projectId} ORDER BY id`
    }))

/** The three good lines, stored in file order with their citations and mentions. */
const expectImported = (snapshot: Snapshot, f: Fixture, startedAt: number) => {
  const [first, second, third, ...rest] = snapshot.responses
  expect(rest).toEqual([])
  expect(first).toMatchObject({ text: "Acme beats Globex for small teams.", platform: "chatgpt", country: "US" })
  expect(first!.collected_at.toISOString()).toBe("2026-11-01T10:00:00.000Z")
  expect(second).toMatchObject({ platform: "perplexity", country: "US" })
  expect(second!.collected_at.getTime()).toBeGreaterThanOrEqual(startedAt - 1000)
  expect(second!.collected_at.getTime()).toBeLessThanOrEqual(Date.now())
  expect(third).toMatchObject({ text: "Nothing to see here.", country: "GB" })
  expect(first!.id).toBeLessThan(second!.id)
  expect(second!.id).toBeLessThan(third!.id)

  const citationsOf = (id: number) => snapshot.citations.filter((c) => c.response_id === id).map((c) => [c.position, c.url])
  expect(citationsOf(first!.id)).toEqual([[1, "https://www.acme.com/pricing?utm_source=x"], [2, "https://globex.io/"]])
  expect(citationsOf(second!.id)).toEqual([[1, "https://hooli.example/x"], [2, "https://www.acme.com/"]])
  expect(citationsOf(third!.id)).toEqual([])
  // One source per domain, across the batches.
  const acmeCitations = snapshot.citations.filter((c) => c.url.includes("acme.com"))
  expect(new Set(acmeCitations.map((c) => c.source_id)).size).toBe(1)

  const mentionsOf = (id: number) => snapshot.mentions.filter((m) => m.response_id === id).map((m) => [m.brand_id, m.position])
  expect(mentionsOf(first!.id)).toEqual([[f.acme, 1], [f.globex, 2]])
  expect(mentionsOf(second!.id)).toEqual([[f.acme, 1]])
  expect(mentionsOf(third!.id)).toEqual([])
}

/**
 * After Hooli became Globex's alias and reanalysis: Globex is mentioned first in the second response,
 * Acme second (same mention, moved); nothing else changed, ids included.
 */
const expectReanalyzed = (before: Snapshot, after: Snapshot, f: Fixture, startedAt: number) => {
  expect(after.responses.map(({ analyzed_at: _, ...r }) => r)).toEqual(before.responses.map(({ analyzed_at: _, ...r }) => r))
  for (const response of after.responses) expect(response.analyzed_at!.getTime()).toBeGreaterThanOrEqual(startedAt - 1000)
  expect(after.citations).toEqual(before.citations)

  const [first, second] = before.responses
  const ofFirst = (s: Snapshot) => s.mentions.filter((m) => m.response_id === first!.id)
  expect(ofFirst(after)).toEqual(ofFirst(before))
  const acmeBefore = before.mentions.find((m) => m.response_id === second!.id && m.brand_id === f.acme)!
  const secondAfter = after.mentions.filter((m) => m.response_id === second!.id).sort((a, b) => a.position - b.position)
  expect(secondAfter.map((m) => [m.brand_id, m.position])).toEqual([[f.globex, 1], [f.acme, 2]])
  expect(secondAfter[1]).toMatchObject({ id: acmeBefore.id, created_at: acmeBefore.created_at })
  expect(secondAfter[0]!.id).toBeGreaterThan(Math.max(...before.mentions.map((m) => m.id)))
  expect(after.mentions).toHaveLength(4)
}

describe("import and reanalyze, in-process (in-memory repositories)", () => {
  const runtime = ManagedRuntime.make(Layer.merge(Repositories.layerMemory, Analyzer.inProcess))
  afterAll(() => runtime.dispose())

  it("decodes a line as POST /responses does, with its 422 messages", () => {
    expect(decodeLine("nope")).toEqual(Either.left("The line is not valid JSON."))
    expect(decodeLine("[1]")).toEqual(Either.left("The line must be a JSON object."))
    expect(decodeLine("null")).toEqual(Either.left("The line must be a JSON object."))
    expect(decodeLine(JSON.stringify({ prompt_id: 0, platform: "myspace", citations: "x" }))).toEqual(Either.left(
      "prompt_id: The prompt id field must be at least 1. platform: The selected platform is invalid. Allowed: chatgpt, perplexity, gemini, grok, copilot, claude, google_ai_mode, google_ai_overview. " +
        "text: The text field is required. citations: The citations field must be an array."
    ))
    const decoded = decodeLine(JSON.stringify({ prompt_id: 3, platform: "claude", text: " x ", country: "fr", collected_at: "2026-01-02T03:04:05+01:00" }))
    expect(decoded).toEqual(Either.right({
      prompt_id: 3,
      platform: "claude",
      text: " x ",
      country: "FR",
      collected_at: new Date("2026-01-02T02:04:05Z")
    }))
  })

  it("imports a stream of lines in batches, skipping bad ones, then reanalysis updates the mentions in place", async () => {
    const fixture = await runtime.runPromise(setUp)
    const startedAt = Date.now()
    const batches: Array<[number, number, number]> = []
    const totals = await runtime.runPromise(importLines(fixture.project, Stream.fromIterable(lines(fixture)), {
      batchSize: 3,
      onBatch: (batch, totals) => Effect.sync(() => void batches.push([batch.read, batch.imported, totals.read]))
    }))
    expect(totals).toEqual({ read: 11, imported: 3, skipped: 6, errors: expectedErrors })
    expect(batches).toEqual([[3, 1, 3], [3, 0, 6], [3, 1, 9], [2, 1, 11]])
    const before = await runtime.runPromise(memorySnapshot(fixture.project))
    expectImported(before, fixture, startedAt)

    // Unchanged brands: the same mentions, untouched.
    const same = await runtime.runPromise(reanalyzeProject(fixture.project, { batchSize: 2 }))
    expect(same).toEqual({ responses: 3, mentions: 3 })
    expect((await runtime.runPromise(memorySnapshot(fixture.project))).mentions).toEqual(before.mentions)

    await runtime.runPromise(addAlias(fixture))
    const reanalyzedAt = Date.now()
    const progress: Array<number> = []
    const again = await runtime.runPromise(reanalyzeProject(fixture.project, {
      batchSize: 2,
      onBatch: (totals) => Effect.sync(() => void progress.push(totals.responses))
    }))
    expect(again).toEqual({ responses: 3, mentions: 4 })
    expect(progress).toEqual([2, 3])
    expectReanalyzed(before, await runtime.runPromise(memorySnapshot(fixture.project)), fixture, reanalyzedAt)
  })

  it("refuses a collected_at before 2000 or of a moment that does not exist, as POST /responses does", async () => {
    const fixture = await runtime.runPromise(setUp)
    const line = (collected_at: string) => JSON.stringify({ prompt_id: fixture.prompt, platform: "chatgpt", text: "Acme.", collected_at })
    const totals = await runtime.runPromise(importLines(
      fixture.project,
      Stream.fromIterable([line("0000-01-01T00:00:00Z"), line("2024-02-30T10:00:00Z"), line("2000-01-01T00:00:00Z")]),
      { batchSize: 10 }
    ))
    expect(totals).toEqual({
      read: 3,
      imported: 1,
      skipped: 2,
      errors: [
        { line: 1, reason: "collected_at: The collected at field must be a date after or equal to 2000-01-01T00:00:00Z." },
        { line: 2, reason: "collected_at: The collected at field must be a valid date." }
      ]
    })
    const stored = (await runtime.runPromise(memorySnapshot(fixture.project))).responses
    expect(stored.map((r) => r.collected_at.toISOString())).toEqual(["2000-01-01T00:00:00.000Z"])
  })

  it("ends a batch once its lines hold 16 Mi characters, whatever the batch size", async () => {
    const fixture = await runtime.runPromise(setUp)
    // 5 million characters each: 4 lines reach the bound (3 do not), the fifth makes a batch of its own.
    const long = `{"prompt_id": ${fixture.prompt}, "platform": "chatgpt", "text": "${"x".repeat(5_000_000)}"}`
    const sizes: Array<number> = []
    const totals = await runtime.runPromise(importLines(fixture.project, Stream.fromIterable(Array(5).fill(long)), {
      batchSize: 500,
      onBatch: (batch) => Effect.sync(() => void sizes.push(batch.read))
    }))
    expect(sizes).toEqual([4, 1])
    expect(totals.errors[0]).toEqual({ line: 1, reason: "text: The text field must not be greater than 200000 characters." })
  })

  it("lists only the first 100 errors, and counts them all", async () => {
    const fixture = await runtime.runPromise(setUp)
    const bad = Array.from({ length: 150 }, () => "{")
    const totals = await runtime.runPromise(importLines(fixture.project, Stream.fromIterable(bad), { batchSize: 40 }))
    expect(totals.skipped).toBe(150)
    expect(totals.errors.map((e) => e.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
  })
})

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

describe("import and reanalyze, the commands", () => {
  let workDir: string
  /** The database the children use: DATA_DIR's (served by the test process), or a fresh PostgreSQL one. */
  let childEnv: Record<string, string>
  let drop = async () => {}
  let db: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient | Layer.Layer.Success<typeof Repositories.layerSql>, unknown>
  let fixture: Fixture

  const cli = (args: ReadonlyArray<string>): Promise<Run> =>
    new Promise((resolve) => {
      const env: NodeJS.ProcessEnv = { ...process.env, ...childEnv }
      if (Option.isNone(databaseUrl)) delete env.DATABASE_URL
      delete env.LOG_LEVEL
      execFile(process.execPath, ["dist/server/cli.js", ...args], { cwd: root, env }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
    })

  /**
   * Independent runs: in parallel on PostgreSQL, one after the other on the embedded database. Several
   * connections to PGlite's socket at once can interleave their statements' protocol messages outside a
   * transaction (pglite-socket queues messages, not whole queries), which fails a command now and then.
   */
  const runAll = async (runs: ReadonlyArray<ReadonlyArray<string>>): Promise<Array<Run>> => {
    if (Option.isSome(databaseUrl)) return Promise.all(runs.map(cli))
    const done: Array<Run> = []
    for (const args of runs) done.push(await cli(args))
    return done
  }

  /** Exactly one line on stdout, which is JSON; exit code 0 unless told. */
  const jsonLine = (run: Run, code = 0): any => {
    expect(run.code, run.stderr).toBe(code)
    expect(run.stdout.endsWith("\n")).toBe(true)
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(1)
    return JSON.parse(run.stdout)
  }

  /** Exit code 1, nothing on stdout, a clean message on stderr. */
  const failure = (run: Run): string => {
    expect(run.code).toBe(1)
    expect(run.stdout).toBe("")
    expect(run.stderr).not.toMatch(/\n\s+at /)
    // Past the line naming the database (which helps most when the project is not found).
    return run.stderr.replace(/^Database: .*\n/, "")
  }

  /**
   * Stderr holds the error lines and, at most once a second, progress lines; then, when lines were
   * refused, one last line with the counts.
   */
  const errorLines = (run: Run) => {
    const all = run.stderr.split("\n").filter((line) => line !== "")
    const last = all.at(-1) ?? ""
    const counts = /^[\d,]+ of [\d,]+ lines were refused \(see above\); the other [\d,]+ were imported\.$/.test(last)
    for (const line of counts ? all.slice(0, -1) : all) {
      expect(line).toMatch(/^(line \d+: .+|imported [\d,]+ lines \([\d,]+ skipped\), [\d,]+ lines\/s|Database: .+)$/)
    }
    // The database written to, named first (src/Cli/Environment.ts).
    expect(all[0]).toMatch(/^Database: /)
    return all.filter((line) => line.startsWith("line "))
  }

  beforeAll(async () => {
    workDir = await Fs.mkdtemp(Path.join(Os.tmpdir(), "bvm-import-"))
    const dataDir = Path.join(workDir, "data")
    let url: Option.Option<string> = Option.none()
    if (Option.isSome(databaseUrl)) {
      const created = await createDatabase(databaseUrl.value)
      drop = created.drop
      url = Option.some(created.url)
      childEnv = { DATABASE_URL: created.url }
    } else {
      childEnv = { DATA_DIR: dataDir }
    }
    db = ManagedRuntime.make(
      Repositories.layerSql.pipe(
        Layer.provideMerge(Migrations.layer),
        Layer.provideMerge(Database.layer({ shareRunning: false })),
        Layer.provide(Settings.layerWith({ dataDir, databaseUrl: Option.map(url, Redacted.make) })),
        Layer.provide(Logger.minimumLogLevel(LogLevel.None))
      )
    )
    fixture = await db.runPromise(setUp)
  }, TIMEOUT)
  afterAll(async () => {
    await db?.dispose()
    await drop()
    await Fs.rm(workDir, { recursive: true, force: true })
  })

  it("import --json: the good lines land with their citations and mentions; the bad ones are reported and skipped", async () => {
    const file = Path.join(workDir, "responses.ndjson")
    await Fs.writeFile(file, lines(fixture).join("\n") + "\n")
    const startedAt = Date.now()
    const run = await cli(["import", file, "--project", String(fixture.project), "--batch-size", "3", "--json"])
    // Exit code 2: done, but lines were refused.
    const summary = jsonLine(run, 2)
    expect(Object.keys(summary)).toEqual(["read", "imported", "skipped", "errors", "seconds"])
    expect(summary).toEqual({ read: 11, imported: 3, skipped: 6, errors: expectedErrors, seconds: expect.any(Number) })
    expect(summary.seconds).toBeGreaterThan(0)
    expect(errorLines(run)).toEqual(expectedErrors.map((e) => `line ${e.line}: ${e.reason}`))
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe("6 of 11 lines were refused (see above); the other 3 were imported.")
    expectImported(await db.runPromise(sqlSnapshot(fixture.project)), fixture, startedAt)
  }, TIMEOUT)

  it("import of a hostile file: a line over 1 MiB and a line that is not UTF-8 are refused, the lines after them land, exit code 2", async () => {
    // A project of its own, so that the other tests' counts stand.
    const { projectId, promptId } = await db.runPromise(Effect.gen(function*() {
      const organization = yield* (yield* OrganizationsRepo).create("Hostile")
      const project = yield* (yield* ProjectsRepo).create(organization.id, { name: "Hostile", domain: null })
      const monitor = yield* (yield* MonitorsRepo).create(project.id, { name: "FR", country: "FR", platforms: ["gemini"], schedule: "daily", active: true })
      const prompt = yield* (yield* PromptsRepo).create(project.id, { monitor_id: monitor.id, text: "Best CRM?", tag_ids: [] })
      return { projectId: project.id, promptId: prompt.id }
    }))
    const good = (text: string) => JSON.stringify({ prompt_id: promptId, platform: "gemini", text, collected_at: "2026-10-01T00:00:00Z" })
    const file = Path.join(workDir, "hostile.ndjson")
    // 1 MiB and one byte of JSON: a valid body, but longer than any the API takes.
    const huge = JSON.stringify({ prompt_id: promptId, platform: "gemini", text: "" })
    const tooLong = huge.replace("\"text\":\"\"", `"text":"${"a".repeat(1_048_577 - huge.length)}"`)
    expect(Buffer.byteLength(tooLong)).toBe(1_048_577)
    await Fs.writeFile(file, Buffer.concat([
      Buffer.from(`${good("hostile one")}\n${tooLong}\n${good("hostile two")}\n`),
      Buffer.from(`{"prompt_id": ${promptId}, "platform": "gemini", "text": "caf`), Buffer.from([0xe9]), Buffer.from(`"}\n`),
      Buffer.from(`${good("hostile three")}\n${"garbage\n".repeat(500)}`)
    ]))
    const run = await cli(["import", file, "--project", String(projectId), "--batch-size", "2", "--json"])
    const summary = jsonLine(run, 2)
    expect(summary).toMatchObject({ read: 505, imported: 3, skipped: 502 })
    expect(summary.errors.slice(0, 3)).toEqual([
      { line: 2, reason: "The line is longer than 1048576 bytes." },
      { line: 4, reason: "The line is not valid UTF-8." },
      { line: 6, reason: "The line is not valid JSON." }
    ])
    expect(errorLines(run)).toHaveLength(502)
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe("502 of 505 lines were refused (see above); the other 3 were imported.")
    // In file order, and nothing read with U+FFFD.
    expect((await db.runPromise(sqlSnapshot(projectId))).responses.map((r) => r.text)).toEqual(["hostile one", "hostile two", "hostile three"])
  }, TIMEOUT)

  it("reanalyze --json after a new alias keeps ids; plain output; unreadable file, unknown project, bad batch size", async () => {
    const before = await db.runPromise(sqlSnapshot(fixture.project))
    await db.runPromise(addAlias(fixture))
    const other = Path.join(workDir, "other.ndjson")
    await Fs.writeFile(
      other,
      // A byte order mark and CRLF line ends, as some exporters write them.
      "\uFEFF" + JSON.stringify({ prompt_id: fixture.foreignPrompt, platform: "gemini", text: "Acme and Globex." }) + "\r\n" +
        JSON.stringify({ prompt_id: fixture.foreignPrompt, platform: "gemini", text: "Nobody." })
    )
    const reanalyzedAt = Date.now()
    const [reanalyzed, plainImport, emptyReanalysis, missingFile, unknownProject, badBatchSize] = await runAll([
      ["reanalyze", "--project", String(fixture.project), "--batch-size", "2", "--json"],
      ["import", other, "--project", String(fixture.otherProject)],
      ["reanalyze", "--project", String(fixture.otherProject), "--batch-size", "10000"],
      ["import", Path.join(workDir, "missing.ndjson"), "--project", String(fixture.project)],
      ["import", other, "--project", String(fixture.otherProject + 1_000_000), "--json"],
      ["import", other, "--project", String(fixture.project), "--batch-size", "0"]
    ])

    const summary = jsonLine(reanalyzed)
    expect(Object.keys(summary)).toEqual(["responses", "mentions", "seconds"])
    expect(summary).toEqual({ responses: 3, mentions: 4, seconds: expect.any(Number) })
    expectReanalyzed(before, await db.runPromise(sqlSnapshot(fixture.project)), fixture, reanalyzedAt)

    expect(plainImport.code, plainImport.stderr).toBe(0)
    expect(plainImport.stdout).toMatch(/^Read 2 lines in \d+\.\d\d s \([\d,]+ lines\/s\): 2 imported, 0 skipped\.\n$/)
    // The other project has no brands: nothing mentioned there.
    const otherSnapshot = await db.runPromise(sqlSnapshot(fixture.otherProject))
    expect(otherSnapshot.responses.map((r) => [r.text, r.country])).toEqual([["Acme and Globex.", "GB"], ["Nobody.", "GB"]])
    expect(otherSnapshot.mentions).toEqual([])

    // In parallel, reanalysis of the other project may run before or after its import: 0 or 2 responses.
    expect(emptyReanalysis.code, emptyReanalysis.stderr).toBe(0)
    expect(emptyReanalysis.stdout).toMatch(/^Reanalyzed [02] responses in \d+\.\d\d s \([\d,]+ responses\/s\): 0 brand mentions\.\n$/)

    expect(failure(missingFile).trim()).toBe(`Cannot read ${Path.join(workDir, "missing.ndjson")}: no such file.`)
    expect(failure(unknownProject).trim()).toBe(`Project ${fixture.otherProject + 1_000_000} not found.`)
    expect(failure(badBatchSize)).toContain("--batch-size must be a whole number from 1 to 10000, not 0.")
  }, TIMEOUT)

  // Last: it imports the fixture once more into its project, which the counts of the tests above do not expect.
  it("import refreshes the planner's statistics: every table's row estimate and column statistics are the import's", async () => {
    const file = Path.join(workDir, "statistics.ndjson")
    await Fs.writeFile(file, lines(fixture).join("\n") + "\n")
    jsonLine(await cli(["import", file, "--project", String(fixture.project), "--batch-size", "3", "--json"]), 2)
    // A handful of rows is far below what autovacuum would analyze for: only the service's own ANALYZE
    // after the import makes the estimate equal the table, and gives its columns statistics.
    const [row] = await db.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ estimate: number; rows: number; mentions_estimate: number; mentions: number; columns: number }>`
        SELECT (SELECT reltuples FROM pg_class WHERE oid = 'responses'::regclass)::int AS estimate,
          (SELECT count(*) FROM responses)::int AS rows,
          (SELECT reltuples FROM pg_class WHERE oid = 'brand_mentions'::regclass)::int AS mentions_estimate,
          (SELECT count(*) FROM brand_mentions)::int AS mentions,
          (SELECT count(*) FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'responses'
            AND attname IN ('project_id', 'collected_at', 'status'))::int AS columns`))
    expect(row!.rows).toBeGreaterThan(0)
    expect(row).toMatchObject({ estimate: row!.rows, mentions_estimate: row!.mentions, columns: 3 })
  }, TIMEOUT)
})
