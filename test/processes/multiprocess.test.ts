import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest"
import { generateKey, hashKey, keyPrefix } from "../../src/Domain/ApiKey.ts"
import { type Proc, processGroup } from "../support/Processes.ts"
import { rollupMismatchesWith } from "../support/Rollups.ts"
import { createDatabase } from "../support/TestServer.ts"

/**
 * The service scaled out on one machine: two API processes (`dist/server/main.js` with WORKER=off) and two
 * collector processes (`dist/server/worker.js`, answered by the simulated platform), separate OS processes on one
 * database: requests spread over both APIs all succeed and see one state, a run's jobs are each asked
 * once and stored once, and the per-key budget is one budget across the APIs when the counters are in
 * Redis (REDIS_URL; CI's PostgreSQL pass), one per process without it (the documented default).
 *
 * On PostgreSQL (DATABASE_URL) the processes share a database created for this file. On the embedded
 * database the first API process opens it and publishes its socket: the workers find it through
 * DATA_DIR as `npm run worker` does, and the second API reaches it through that socket as a PostgreSQL
 * server (its DATABASE_URL names the socket's directory).
 */

const backend = process.env.DATABASE_URL ? "postgres" : "embedded"
const store = process.env.REDIS_URL ? "redis" : "memory"
/** Requests a minute per key: low enough to spend in a second, high enough for the other cases. */
const LIMIT = 40
const PLATFORMS = ["chatgpt", "perplexity", "gemini", "claude"]
const PROMPTS = 6

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const { launch, outputs, serving, collecting, stopAll } = processGroup()

describe(`two API processes and two workers on one ${backend} database, rate-limit counters in ${store}`, () => {
  let sql: pg.Client
  let cleanup = async () => {}
  let apiA: Proc
  let apiB: Proc
  let workers: ReadonlyArray<Proc>
  let organizationId: number
  let connection: pg.ClientConfig

  const newKey = async () => {
    const key = generateKey()
    await sql.query("INSERT INTO api_keys (organization_id, name, key_hash, prefix, abilities) VALUES ($1, 'multiprocess', $2, $3, ARRAY['*'])", [
      organizationId,
      hashKey(key),
      keyPrefix(key)
    ])
    return key
  }

  const call = async (api: Proc, key: string, method: string, path: string, options: { project?: number; body?: unknown } = {}) => {
    const reply = await fetch(`${api.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(options.project === undefined ? {} : { "service-project-id": String(options.project) }),
        ...(options.body === undefined ? {} : { "content-type": "application/json" })
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body)
    })
    const text = await reply.text()
    return { status: reply.status, body: text === "" ? undefined : JSON.parse(text), api: api.name }
  }

  /** A project with two brands, a manual monitor on four platforms (simulated answers) and its prompts, made through API A. */
  const makeProject = async () => {
    const key = await newKey()
    const ok = async (reply: ReturnType<typeof call>) => {
      const { body, status } = await reply
      expect(status, JSON.stringify(body)).toBeLessThan(300)
      return body.data
    }
    const project = await ok(call(apiA, key, "POST", "/projects", { body: { name: "Scaled out", domain: "acme.com" } }))
    const options = (body: unknown) => ({ project: project.id, body })
    await ok(call(apiA, key, "POST", "/brands", options({ name: "Acme", aliases: ["Acme CRM"], domains: ["acme.com"] })))
    await ok(call(apiA, key, "POST", "/brands", options({ name: "Globex", domains: ["globex.io"] })))
    const monitor = await ok(call(apiA, key, "POST", "/monitors", options({ name: "Manual", country: "US", platforms: PLATFORMS, schedule: "manual", simulated: true })))
    const prompts = []
    for (let i = 1; i <= PROMPTS; i++) {
      prompts.push(await ok(call(apiA, key, "POST", "/prompts", options({ monitor_id: monitor.id, text: `Which CRM suits a team of ${i * 5}?` }))))
    }
    return { projectId: project.id as number, monitorId: monitor.id as number, promptIds: prompts.map((p) => p.id as number) }
  }

  beforeAll(async () => {
    try {
      const common: Record<string, string> = {
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        // The scheduler has nothing to do here (the monitor is manual); the workers poll every second.
        COLLECTOR_TICK_SECONDS: "3600",
        COLLECTOR_CONCURRENCY: "2",
        SHUTDOWN_TIMEOUT_SECONDS: "3",
        ...(store === "redis" ? { REDIS_URL: process.env.REDIS_URL!, REDIS_PREFIX: `bvm-test:multiprocess:${process.pid}:${Date.now()}:` } : {})
      }
      const workerEnv = { ...common, SIMULATED_PLATFORMS: "all" }
      if (backend === "postgres") {
        const database = await createDatabase(process.env.DATABASE_URL!)
        cleanup = database.drop
        const db = { DATABASE_URL: database.url }
        // The first one migrates the new database; the others start on its schema.
        apiA = await launch("api A", "dist/server/main.js", { ...common, ...db, WORKER: "off" })
        await serving(apiA)
        apiB = await launch("api B", "dist/server/main.js", { ...common, ...db, WORKER: "off" })
        workers = [await launch("worker 1", "dist/server/worker.js", { ...workerEnv, ...db }), await launch("worker 2", "dist/server/worker.js", { ...workerEnv, ...db })]
        await Promise.all([serving(apiB), ...workers.map(collecting)])
        connection = { connectionString: database.url }
      } else {
        const dataDir = mkdtempSync(join(tmpdir(), "bvm-multiprocess-"))
        cleanup = async () => rmSync(dataDir, { recursive: true, force: true })
        apiA = await launch("api A", "dist/server/main.js", { ...common, DATA_DIR: dataDir, WORKER: "off" })
        await serving(apiA)
        const socket = JSON.parse(readFileSync(join(dataDir, "embedded-server.json"), "utf8")) as { host: string; port: number }
        const viaSocket = `postgresql://postgres@localhost:${socket.port}/postgres?host=${encodeURIComponent(socket.host)}`
        apiB = await launch("api B", "dist/server/main.js", { ...common, DATABASE_URL: viaSocket, WORKER: "off" })
        workers = [
          await launch("worker 1", "dist/server/worker.js", { ...workerEnv, DATA_DIR: dataDir }),
          await launch("worker 2", "dist/server/worker.js", { ...workerEnv, DATA_DIR: dataDir })
        ]
        await Promise.all([serving(apiB), ...workers.map(collecting)])
        connection = { host: socket.host, port: socket.port, user: "postgres", database: "postgres" }
      }
      sql = new pg.Client(connection)
      sql.on("error", () => {}) // the embedded database closes this socket when api A stops
      await sql.connect()
      const organization = await sql.query<{ id: string }>("INSERT INTO organizations (name) VALUES ('Scaled out') RETURNING id")
      organizationId = Number(organization.rows[0]!.id)
    } catch (error) {
      await stopAll()
      await cleanup()
      throw error
    }
  }, 150_000)

  afterAll(async () => {
    await sql?.end().catch(() => {})
    await stopAll()
    await cleanup()
  }, 30_000)

  it("each API process logs the address it serves, to open", () => {
    for (const api of [apiA, apiB]) expect(api.output).toContain(`listening on http://localhost:${new URL(api.baseUrl).port}`)
  })

  it("answers requests spread over both APIs, each seeing what the other wrote, and keeps every rollup exact", async () => {
    onTestFailed(() => console.error(outputs()))
    const { projectId, promptIds } = await makeProject()
    const key = await newKey()
    // 16 answers at once, every other one through each API.
    const posted = await Promise.all(Array.from({ length: 16 }, (_, i) =>
      call(i % 2 === 0 ? apiA : apiB, key, "POST", "/responses", {
        project: projectId,
        body: {
          prompt_id: promptIds[i % promptIds.length],
          platform: PLATFORMS[i % PLATFORMS.length],
          text: `Acme CRM is a solid choice; Globex ${i % 3 === 0 ? "is expensive" : "has great support"}.`,
          citations: [`https://www.acme.com/pricing?id=${i}`, `https://globex.io/`, `https://www.g2.com/compare/${i % 4}`]
        }
      })))
    expect(posted.filter((reply) => reply.status !== 201)).toEqual([])
    // Each answer read back through the API that did not store it, and the list through both.
    const readBack = await Promise.all(posted.map((reply) =>
      call(reply.api === apiA.name ? apiB : apiA, key, "GET", `/responses/${reply.body.data.id}`, { project: projectId })))
    expect(readBack.map((reply) => [reply.status, reply.body.data.id])).toEqual(posted.map((reply) => [200, reply.body.data.id]))
    for (const api of [apiA, apiB]) {
      const list = await call(api, key, "GET", "/responses?per_page=100", { project: projectId })
      expect(list.status).toBe(200)
      expect(list.body.meta.total).toBe(16)
    }
    const mentions = await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM brand_mentions WHERE project_id = $1", [projectId])
    expect(mentions.rows[0]!.n).toBe(32)
    expect(await rollupMismatchesWith((query) => sql.query(query).then((result) => result.rows), projectId)).toEqual({})
    // The answers were stored pending; the processes' background mergers fold them into the rollups within
    // a few passes (one a second), and the rollups are exact then too.
    const pending = async () =>
      (await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM analytics_pending WHERE project_id = $1", [projectId])).rows[0]!.n
    for (let i = 0; i < 100 && (await pending()) > 0; i++) await wait(100)
    expect(await pending()).toBe(0)
    expect(await rollupMismatchesWith((query) => sql.query(query).then((result) => result.rows), projectId)).toEqual({})
  }, 60_000)

  it("a key revoked through one API is refused by the other, which had it cached, and a deleted project is gone there", async () => {
    onTestFailed(() => console.error(outputs()))
    const { projectId } = await makeProject()
    const key = await newKey()
    const admin = await newKey()
    // Used through API B first: on PostgreSQL, B now has the key and the project in its cache.
    for (let i = 0; i < 3; i++) expect((await call(apiB, key, "GET", "/tags", { project: projectId })).status).toBe(200)
    const [made] = (await sql.query<{ id: string }>("SELECT id FROM api_keys WHERE key_hash = $1", [hashKey(key)])).rows
    expect((await call(apiA, admin, "DELETE", `/api-keys/${made!.id}`)).status).toBe(204)
    // B hears of it from PostgreSQL (a notification), within milliseconds; a second is plenty.
    let refused = await call(apiB, key, "GET", "/tags", { project: projectId })
    for (let i = 0; i < 40 && refused.status !== 401; i++) {
      await wait(25)
      refused = await call(apiB, key, "GET", "/tags", { project: projectId })
    }
    expect(refused.status).toBe(401)
    expect((await call(apiB, admin, "GET", "/tags", { project: projectId })).status).toBe(200)
    expect((await call(apiA, admin, "DELETE", `/projects/${projectId}`)).status).toBe(204)
    let gone = await call(apiB, admin, "GET", "/tags", { project: projectId })
    for (let i = 0; i < 40 && gone.status !== 404; i++) {
      await wait(25)
      gone = await call(apiB, admin, "GET", "/tags", { project: projectId })
    }
    expect(gone.status).toBe(404)
  }, 60_000)

  /**
   * Stops both workers (SIGSTOP) at a moment when neither holds a lock in the database. A worker stopped
   * inside its claim or its answer's transaction would hold its locks while stopped: the run's creation
   * or the gate's LOCK TABLE below would then wait for a process that is not running.
   */
  const stopWorkersBetweenStatements = async () => {
    for (let attempt = 0; attempt < 100; attempt++) {
      for (const worker of workers) worker.child.kill("SIGSTOP")
      const held = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks
          WHERE locktype = 'relation' AND pid <> pg_backend_pid()
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`
      )
      if (held.rows[0]!.n === 0) return
      for (const worker of workers) worker.child.kill("SIGCONT")
      await wait(20 + Math.random() * 80)
    }
    throw new Error("the workers could not be stopped between two statements in 100 tries")
  }

  it("asks each job of a run once and stores its answer once, with two workers claiming", async () => {
    onTestFailed(() => console.error(outputs()))
    const { monitorId, projectId, promptIds } = await makeProject()
    const key = await newKey()
    // On PostgreSQL, the two workers are made to claim at the same instant: stopped while the run is
    // made, then let go together while the jobs table is locked, so that both claims wait on that lock
    // and run side by side once it is released. (The embedded database runs one statement at a time
    // whatever the process: there is no such race to force, and a lock held there would hold everyone.)
    if (backend === "postgres") await stopWorkersBetweenStatements()
    const triggered = await call(apiB, key, "POST", `/monitors/${monitorId}/runs`, { project: projectId })
    expect(triggered.status).toBe(202)
    const runId = triggered.body.data.id as number
    expect(triggered.body.data.jobs.total).toBe(PROMPTS * PLATFORMS.length)
    if (backend === "postgres") {
      const gate = new pg.Client(connection)
      await gate.connect()
      try {
        await gate.query("BEGIN")
        // Never wait long: a worker stopped inside a statement would hold the lock until it is let go.
        await gate.query("SET LOCAL lock_timeout = '10s'")
        await gate.query("LOCK TABLE collector_jobs IN EXCLUSIVE MODE")
        for (const worker of workers) worker.child.kill("SIGCONT")
        const waitingUntil = Date.now() + 15_000
        let waiting = 0
        while (waiting < 2 && Date.now() < waitingUntil) {
          await wait(100)
          const blocked = await sql.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
          )
          waiting = blocked.rows[0]!.n
        }
        expect(waiting, "both workers' claims wait for the locked jobs table").toBe(2)
        await gate.query("COMMIT")
      } finally {
        for (const worker of workers) worker.child.kill("SIGCONT")
        await gate.end()
      }
    }

    const deadline = Date.now() + 45_000
    while ((await sql.query("SELECT 1 FROM collector_runs WHERE id = $1 AND status = 'completed'", [runId])).rowCount === 0) {
      if (Date.now() > deadline) throw new Error(`the run did not complete within 45 s`)
      await wait(250)
    }
    const jobs = await sql.query<{ prompt_id: number; platform: string; status: string; attempts: number; response_id: number | null; simulated: boolean }>(
      "SELECT prompt_id::int, platform, status, attempts, response_id::int, simulated FROM collector_jobs WHERE run_id = $1 ORDER BY id",
      [runId]
    )
    expect(jobs.rows).toHaveLength(PROMPTS * PLATFORMS.length)
    // One claim each (a claim bumps attempts), and one stored answer each.
    expect(jobs.rows.filter((job) => job.status !== "succeeded" || job.attempts !== 1 || job.response_id === null || !job.simulated)).toEqual([])
    const stored = await sql.query<{ prompt_id: number; platform: string; n: number }>(
      "SELECT prompt_id::int, platform, count(*)::int AS n FROM responses WHERE project_id = $1 GROUP BY prompt_id, platform ORDER BY prompt_id, platform",
      [projectId]
    )
    const expected = promptIds.flatMap((promptId) => [...PLATFORMS].sort().map((platform) => ({ prompt_id: promptId, platform, n: 1 })))
    expect(stored.rows).toEqual(expected)
    expect(new Set(jobs.rows.map((job) => job.response_id)).size).toBe(jobs.rows.length)

    // Both APIs show the run completed with every job succeeded, and the two workers alive by their heartbeats.
    for (const api of [apiA, apiB]) {
      const runs = await call(api, key, "GET", `/monitors/${monitorId}/runs`, { project: projectId })
      expect(runs.body.data[0]).toMatchObject({
        id: runId,
        status: "completed",
        jobs: { total: PROMPTS * PLATFORMS.length, succeeded: PROMPTS * PLATFORMS.length },
        blocked_platforms: []
      })
      const health = await call(api, key, "GET", "/collector/health", { project: projectId })
      expect(health.body.data.workers.alive).toBe(2)
      expect(health.body.data.platforms.every((p: any) => p.simulation && !p.provider_key)).toBe(true)
    }
    expect(await rollupMismatchesWith((query) => sql.query(query).then((result) => result.rows), projectId)).toEqual({})
  }, 90_000)

  it(
    store === "redis"
      ? "spends one budget per key across both APIs (counters in Redis)"
      : "keeps one budget per key in each API process (counters in memory, no REDIS_URL)",
    async () => {
      onTestFailed(() => console.error(outputs()))
      const key = await newKey()
      const started = Date.now()
      const replies = []
      // Twice the budget, alternating between the two APIs, one request at a time.
      for (let i = 0; i < 2 * LIMIT; i++) replies.push(await call(i % 2 === 0 ? apiA : apiB, key, "GET", "/me"))
      const passed = replies.filter((reply) => reply.status === 200).length
      const refused = replies.filter((reply) => reply.status === 429)
      expect(passed + refused.length).toBe(2 * LIMIT)
      if (store === "redis") {
        // The bucket refills by LIMIT a minute while the requests run: that many more may pass.
        const refill = Math.ceil(((Date.now() - started) / 60_000) * LIMIT) + 1
        expect(passed).toBeGreaterThanOrEqual(LIMIT)
        expect(passed).toBeLessThanOrEqual(LIMIT + refill)
        expect(new Set(refused.map((reply) => reply.api))).toEqual(new Set([apiA.name, apiB.name]))
      } else {
        // Each process let its own LIMIT through: together twice what one budget allows.
        expect(passed).toBe(2 * LIMIT)
        const more = []
        for (let i = 0; i < 5; i++) more.push((await call(apiA, key, "GET", "/me")).status)
        expect(more).toContain(429)
      }
    },
    60_000
  )
})
