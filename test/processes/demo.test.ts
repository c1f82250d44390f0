import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { type AddressInfo, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest"
import { generateKey, hashKey, keyPrefix } from "../../src/Domain/ApiKey.ts"
import { createDatabase } from "../support/TestServer.ts"

/**
 * `npm run demo` beside a running server (as the README suggests) that holds another organization's
 * project with pending runs, on a monitor that is not simulated (no provider key anywhere) and on one
 * that is: the demo writes into its own project alone, answers with the simulated platform only its own
 * simulated monitors' jobs, and leaves the other project's runs, jobs and answers exactly as they were.
 * It prints commands for the server on PORT, which it found running on its database, with the
 * dashboard's "Last 30 days"; run with a PORT where nothing answers, it says to start the server there.
 */

const backend = process.env.DATABASE_URL ? "postgres" : "embedded"
const root = fileURLToPath(new URL("../..", import.meta.url))
const DAY_MS = 86_400_000
const day = (offset: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + offset * DAY_MS).toISOString().slice(0, 10)

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

/** The shell's own settings left out: each process gets exactly the environment given. */
const cleanEnv = () => {
  const { DATABASE_URL: _d, REDIS_URL: _r, DATA_DIR: _a, PORT: _p, WORKER: _w, LOG_LEVEL: _l, SIMULATED_PLATFORMS: _s, DEMO_DAYS: _n, ...inherited } = process.env
  return inherited
}

const runDemo = (env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/demo.ts"], { cwd: root, env: { ...cleanEnv(), ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 240_000)
    child.once("exit", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

describe(`npm run demo beside a server holding another organization's pending runs (${backend} database)`, () => {
  let server: ChildProcess
  let serverOutput = ""
  let port: number
  let database: Record<string, string>
  let sql: pg.Client
  let cleanup = async () => {}
  let theirs: { project: number; runs: Array<number>; key: string }

  const call = async (key: string, method: string, path: string, project?: number, body?: unknown) => {
    const reply = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(project === undefined ? {} : { "service-project-id": String(project) }),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    const json = await reply.json() as any
    expect(reply.status, JSON.stringify(json)).toBeLessThan(300)
    return json.data
  }

  /** Everything of the other project that the demo must leave alone. */
  const snapshot = async (project: number) => ({
    jobs: (await sql.query("SELECT id, status, attempts, reason, response_id, simulated, updated_at FROM collector_jobs WHERE project_id = $1 ORDER BY id", [project])).rows,
    runs: (await sql.query("SELECT id, status, completed_at, updated_at FROM collector_runs WHERE project_id = $1 ORDER BY id", [project])).rows,
    responses: (await sql.query("SELECT count(*)::int AS n FROM responses WHERE project_id = $1", [project])).rows[0].n,
    mentions: (await sql.query("SELECT count(*)::int AS n FROM brand_mentions WHERE project_id = $1", [project])).rows[0].n,
    project: (await sql.query("SELECT name, brand_id, updated_at FROM projects WHERE id = $1", [project])).rows
  })

  beforeAll(async () => {
    port = await freePort()
    let connection: pg.ClientConfig
    if (backend === "postgres") {
      const created = await createDatabase(process.env.DATABASE_URL!)
      cleanup = created.drop
      database = { DATABASE_URL: created.url }
      connection = { connectionString: created.url }
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), "bvm-demo-"))
      cleanup = async () => rmSync(dataDir, { recursive: true, force: true })
      database = { DATA_DIR: dataDir }
      connection = {}
    }
    // The server as the README runs it; without a collector, so that what changes is the demo's doing.
    server = spawn(process.execPath, ["dist/server/main.js"], {
      cwd: root,
      env: { ...cleanEnv(), ...database, PORT: String(port), WORKER: "off", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    server.stdout!.on("data", (chunk: Buffer) => (serverOutput = (serverOutput + chunk.toString()).slice(-6000)))
    server.stderr!.on("data", (chunk: Buffer) => (serverOutput = (serverOutput + chunk.toString()).slice(-6000)))
    const deadline = Date.now() + 90_000
    while (!(await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false))) {
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the server did not start:\n${serverOutput}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    if (backend === "embedded") {
      const socket = JSON.parse(readFileSync(join(database.DATA_DIR!, "embedded-server.json"), "utf8")) as { host: string; port: number }
      connection = { host: socket.host, port: socket.port, user: "postgres", database: "postgres" }
    }
    sql = new pg.Client(connection)
    sql.on("error", () => {})
    await sql.connect()

    // Another organization: a project with a real monitor (no provider key anywhere) and a simulated one,
    // each with a pending manual run.
    const organization = (await sql.query<{ id: string }>("INSERT INTO organizations (name) VALUES ('Someone Else') RETURNING id")).rows[0]!.id
    const key = generateKey()
    await sql.query("INSERT INTO api_keys (organization_id, name, key_hash, prefix, abilities) VALUES ($1, 'theirs', $2, $3, ARRAY['*'])", [organization, hashKey(key), keyPrefix(key)])
    const project = (await call(key, "POST", "/projects", undefined, { name: "Their CRM", domain: "their-crm.example" })).id
    await call(key, "POST", "/brands", project, { name: "HubSpot", domains: ["hubspot.com"] })
    const real = await call(key, "POST", "/monitors", project, { name: "Real", country: "US", platforms: ["chatgpt", "perplexity", "claude"], schedule: "manual" })
    const simulated = await call(key, "POST", "/monitors", project, { name: "Simulated", country: "US", platforms: ["gemini"], schedule: "manual", simulated: true })
    for (const [monitor, text] of [[real.id, "What is the best CRM?"], [real.id, "Is HubSpot worth it?"], [simulated.id, "Which CRM for a startup?"]]) {
      await call(key, "POST", "/prompts", project, { monitor_id: monitor, text })
    }
    const runs = [(await call(key, "POST", `/monitors/${real.id}/runs`, project)).id, (await call(key, "POST", `/monitors/${simulated.id}/runs`, project)).id]
    theirs = { project, runs, key }
  }, 180_000)

  afterAll(async () => {
    await sql?.end().catch(() => {})
    if (server !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve))
      server.kill("SIGTERM")
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
      if (server.exitCode === null) server.kill("SIGKILL")
    }
    await cleanup()
  }, 60_000)

  it("writes its own project alone, simulated answers only, and leaves the other project's pending runs untouched", async () => {
    onTestFailed(() => console.error(serverOutput))
    const before = await snapshot(theirs.project)
    expect(before.jobs).toHaveLength(7)
    expect(before.jobs.every((job) => job.status === "pending" && job.attempts === 0)).toBe(true)

    const demo = await runDemo({ ...database, PORT: String(port), DEMO_DAYS: "2" })
    onTestFailed(() => console.error(`--- the demo:\n${demo.stdout}\n${demo.stderr}`))
    expect(demo.code, `${demo.stdout}\n${demo.stderr}`).toBe(0)

    // The other organization's project, runs, jobs and answers: exactly as they were.
    expect(await snapshot(theirs.project)).toEqual(before)
    const stillWaiting = await call(theirs.key, "GET", `/collector/health`, theirs.project)
    expect(stillWaiting.workers.alive).toBe(0)

    // The demo's own project: its monitors simulated, every job answered by the simulated platform.
    const demoProject = Number(/Demo ready: project (\d+)/.exec(demo.stdout)![1])
    expect(demoProject).not.toBe(theirs.project)
    const monitors = (await sql.query("SELECT simulated FROM monitors WHERE project_id = $1", [demoProject])).rows
    expect(monitors).toEqual([{ simulated: true }, { simulated: true }])
    const jobs = (await sql.query("SELECT status, simulated FROM collector_jobs WHERE project_id = $1", [demoProject])).rows
    // 20 prompts on two platforms each, for two past days and today.
    expect(jobs).toHaveLength(120)
    expect(jobs.filter((job) => job.status !== "succeeded" || job.simulated !== true)).toEqual([])
    const texts = (await sql.query("SELECT text FROM responses WHERE project_id = $1", [demoProject])).rows
    expect(texts).toHaveLength(120)
    expect(texts.every((row) => row.text.startsWith("[Simulated answer]"))).toBe(true)
    // Nothing anywhere else: every response is the demo's or none.
    const elsewhere = (await sql.query("SELECT count(*)::int AS n FROM responses WHERE project_id <> $1", [demoProject])).rows[0].n
    expect(elsewhere).toBe(0)

    // Commands for the server it found on PORT and on its database, with the dashboard's "Last 30 days".
    expect(demo.stdout).toContain(`BASE=http://localhost:${port}/api/v1`)
    expect(demo.stdout).toContain(`The server at http://localhost:${port} runs on this database`)
    expect(demo.stdout).not.toMatch(/Start (the server|it) in another terminal/)
    expect(demo.stdout).toContain(`api "$BASE/analytics/brands?start_date=${day(-29)}&end_date=${day(0)}"`)
    // The key it printed works there.
    const key = /^KEY=(bvm_\w+)$/m.exec(demo.stdout)![1]!
    const brands = await call(key, "GET", `/analytics/brands?start_date=${day(-29)}&end_date=${day(0)}`, demoProject)
    expect(brands.map((row: any) => row.brand.name)).toContain("Northwind CRM")
  }, 300_000)

  it("says to start the server when nothing answers on PORT", async () => {
    const elsewhere = await freePort()
    const demo = await runDemo({ ...database, PORT: String(elsewhere), DEMO_DAYS: "1" })
    expect(demo.code, `${demo.stdout}\n${demo.stderr}`).toBe(0)
    expect(demo.stdout).toContain(`No server answers at http://localhost:${elsewhere}. Start it in another terminal`)
    expect(demo.stdout).toMatch(new RegExp(`PORT=${elsewhere} (DATA_DIR=\\S+|DATABASE_URL=<the same URL>) npm start`))
    expect(demo.stdout).toContain(`BASE=http://localhost:${elsewhere}/api/v1`)
  }, 300_000)
})
