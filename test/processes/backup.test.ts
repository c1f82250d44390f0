import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { afterAll, describe, expect, it, onTestFailed } from "vitest"
import { type ServerProcess, startNode } from "../../scripts/bench/http/processes.ts"
import { generateKey, hashKey, keyPrefix } from "../../src/Domain/ApiKey.ts"
import { rollupMismatchesWith } from "../support/Rollups.ts"
import { createDatabase } from "../support/TestServer.ts"

/**
 * Backups as docs/operations.md ("Backups") tells an operator to take them, of a running server
 * (`dist/server/main.js`) under writes: on the embedded database `cli backup` and `cli restore` into a
 * fresh DATA_DIR; on PostgreSQL the documented pg_dump and pg_restore commands into a fresh database. A
 * server started on the restored copy then has every answer acknowledged (201) before the backup began,
 * no answer that was never sent, and every analytics rollup equal to a recount, before and after its
 * merger has folded the pending answers in.
 */

const backend = process.env.DATABASE_URL ? "postgres" : "embedded"
const root = fileURLToPath(new URL("../..", import.meta.url))
const WRITERS = 4

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const servers: Array<ServerProcess> = []
const cleanups: Array<() => Promise<void> | void> = []

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  for (const cleanup of cleanups.reverse()) await cleanup()
}, 60_000)

/** The built server, API only, with exactly `env` of the database settings. */
const startServer = async (env: Record<string, string>): Promise<ServerProcess> => {
  const { DATABASE_URL: _d, REDIS_URL: _r, DATA_DIR: _a, PORT: _p, WORKER: _w, LOG_LEVEL: _l, ...inherited } = process.env
  const server = await startNode({
    name: "server",
    cwd: root,
    script: "dist/server/main.js",
    env: { ...inherited, WORKER: "off", LOG_LEVEL: "info", SHUTDOWN_TIMEOUT_SECONDS: "3", ...env },
    readyPath: "/ready",
    timeoutMs: 90_000
  })
  servers.push(server)
  return server
}

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** A command as an operator types it, with `env` over this process's environment minus the database settings. */
const run = (command: string, args: ReadonlyArray<string>, env: Record<string, string>): Promise<Run> =>
  new Promise((resolve) => {
    const { DATABASE_URL: _d, DATA_DIR: _a, LOG_LEVEL: _l, ...inherited } = process.env
    execFile(command, args, { cwd: root, env: { ...inherited, ...env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
  })

const cli = (args: ReadonlyArray<string>, env: Record<string, string>) => run(process.execPath, ["dist/server/cli.js", ...args], env)

/** The database settings of a server, and the SQL connection to what it serves. */
interface Database {
  readonly env: Record<string, string>
  readonly connection: () => pg.ClientConfig
}

const embedded = (dataDir: string): Database => ({
  env: { DATA_DIR: dataDir },
  connection: () => {
    const socket = JSON.parse(readFileSync(join(dataDir, "embedded-server.json"), "utf8")) as { host: string; port: number }
    return { host: socket.host, port: socket.port, user: "postgres", database: "postgres" }
  }
})

const postgres = (url: string): Database => ({ env: { DATABASE_URL: url }, connection: () => ({ connectionString: url }) })

const connect = async (database: Database) => {
  const client = new pg.Client(database.connection())
  client.on("error", () => {}) // the server closes it when it stops
  await client.connect()
  return client
}

interface Acknowledged {
  readonly id: number
  readonly text: string
  readonly at: number
}

describe(`backup and restore of a running server under writes (${backend})`, () => {
  it("a restored copy holds every answer acknowledged before the backup, nothing never sent, and exact rollups", async () => {
    const work = mkdtempSync(join(tmpdir(), "bvm-backup-"))
    cleanups.push(() => rmSync(work, { recursive: true, force: true }))
    let source: Database
    if (backend === "embedded") {
      source = embedded(join(work, "data"))
    } else {
      const created = await createDatabase(process.env.DATABASE_URL!)
      cleanups.push(created.drop)
      source = postgres(created.url)
    }
    const server = await startServer(source.env)
    onTestFailed(() => console.error(servers.map((s) => s.output()).join("\n---\n")))

    // An organization and a key, straight into the database; the rest through the API.
    const key = generateKey()
    const sql = await connect(source)
    const organization = await sql.query<{ id: string }>("INSERT INTO organizations (name) VALUES ('Backed up') RETURNING id")
    await sql.query("INSERT INTO api_keys (organization_id, name, key_hash, prefix, abilities) VALUES ($1, 'backup', $2, $3, ARRAY['*'])", [
      organization.rows[0]!.id,
      hashKey(key),
      keyPrefix(key)
    ])
    await sql.end()
    const call = async (method: string, path: string, body?: unknown, project?: number) => {
      const reply = await fetch(`${server.baseUrl}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(project === undefined ? {} : { "service-project-id": String(project) }),
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        body: body === undefined ? undefined : JSON.stringify(body)
      })
      const text = await reply.text()
      return { status: reply.status, body: text === "" ? undefined : JSON.parse(text) }
    }
    const made = async (path: string, body: unknown, project?: number) => {
      const reply = await call("POST", path, body, project)
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      return reply.body.data.id as number
    }
    const project = await made("/projects", { name: "Backed up", domain: "acme.com" })
    await made("/brands", { name: "Acme", aliases: ["Acme CRM"], domains: ["acme.com"] }, project)
    await made("/brands", { name: "Globex", domains: ["globex.io"] }, project)
    const monitor = await made("/monitors", { name: "US", country: "US", platforms: ["chatgpt", "perplexity"], schedule: "manual" }, project)
    const tags = [await made("/tags", { name: "Pricing" }, project), await made("/tags", { name: "Support" }, project)]
    const prompts: Array<number> = []
    for (let i = 0; i < 3; i++) prompts.push(await made("/prompts", { monitor_id: monitor, text: `Best CRM for ${i + 2} people?`, tags: [tags[i % 2]] }, project))

    // Writers: answers (each text unique), and a prompt's tags attached and detached, until told to stop.
    const sent = new Set<string>()
    const acknowledged: Array<Acknowledged> = []
    const failures: Array<string> = []
    let stopping = false
    const answer = async (writer: number) => {
      for (let i = 0; !stopping; i++) {
        const text = `Writer ${writer}, answer ${i}: Acme CRM ${i % 2 === 0 ? "beats" : "trails"} Globex.`
        sent.add(text)
        const reply = await call("POST", "/responses", {
          prompt_id: prompts[(writer + i) % prompts.length],
          platform: i % 3 === 0 ? "perplexity" : "chatgpt",
          text,
          citations: [`https://www.acme.com/p/${i % 7}`, "https://globex.io/", `https://www.g2.com/c/${writer}`],
          collected_at: new Date(Date.now() - ((writer * 7 + i) % 20) * 86_400_000).toISOString()
        }, project)
        if (reply.status === 201) acknowledged.push({ id: reply.body.data.id, text, at: Date.now() })
        else failures.push(`${reply.status} ${JSON.stringify(reply.body)}`)
      }
    }
    const retag = async () => {
      for (let i = 0; !stopping; i++) {
        const reply = await call(i % 2 === 0 ? "POST" : "DELETE", `/prompts/${prompts[0]}/tags/${tags[1]}`, undefined, project)
        if (reply.status >= 300) failures.push(`tag ${reply.status} ${JSON.stringify(reply.body)}`)
        await wait(100)
      }
    }
    const writers = [...Array.from({ length: WRITERS }, (_, w) => answer(w)), retag()]
    while (acknowledged.length < 20 && failures.length === 0) await wait(50)

    // The backup, while the writers go on: the answers acknowledged so far must be in it.
    const file = join(work, backend === "embedded" ? "backup.tar.gz" : "backup.dump")
    const before = acknowledged.slice()
    const backup = backend === "embedded"
      ? await cli(["backup", file, "--json"], source.env)
      : await run("pg_dump", ["--format=custom", `--file=${file}`, source.env.DATABASE_URL!], {})
    const backupEnded = Date.now()
    const countAtEnd = acknowledged.length
    while (acknowledged.length < countAtEnd + 20 && failures.length === 0) await wait(50)
    stopping = true
    await Promise.all(writers)
    expect(failures).toEqual([])
    expect(backup.code, backup.stderr).toBe(0)
    // It holds every tenant's data: for its owner only.
    if (backend === "embedded") expect(statSync(file).mode & 0o777).toBe(0o600)
    const during = acknowledged.slice(before.length).filter((answer) => answer.at <= backupEnded)
    expect(before.length).toBeGreaterThanOrEqual(20)
    // The copy was taken while answers kept coming.
    expect(during.length).toBeGreaterThan(0)

    // The restore, into an empty folder or database.
    let copy: Database
    if (backend === "embedded") {
      copy = embedded(join(work, "restored"))
      const restored = await cli(["restore", file, "--json"], copy.env)
      expect(restored.code, restored.stderr).toBe(0)
      expect(JSON.parse(restored.stdout)).toEqual({ organizations: 1, responses: expect.any(Number) })
      expect(statSync(join(work, "restored")).mode & 0o777).toBe(0o700)
    } else {
      const empty = await createDatabase(process.env.DATABASE_URL!, { empty: true })
      cleanups.push(empty.drop)
      copy = postgres(empty.url)
      const restored = await run("pg_restore", ["--no-owner", "--exit-on-error", "--single-transaction", `--dbname=${empty.url}`, file], {})
      expect(restored.code, restored.stderr).toBe(0)
    }
    await server.stop()
    if (backend === "embedded") {
      // With no server running, `backup` opens the database itself: every answer acknowledged is in it.
      const offline = join(work, "offline.tar.gz")
      const copied = await cli(["backup", offline], source.env)
      expect(copied.code, copied.stderr).toBe(0)
      expect(copied.stdout).toMatch(/^Backed up the database of .+ to .+offline\.tar\.gz \([\d.]+ MiB\) in [\d.]+ s\.\n$/)
      const restoredOffline = await cli(["restore", offline, "--json"], { DATA_DIR: join(work, "restored-offline") })
      expect(JSON.parse(restoredOffline.stdout)).toEqual({ organizations: 1, responses: acknowledged.length })
    }

    // A server on the copy: it starts (its migrations find the schema up to date) and serves it.
    const revived = await startServer(copy.env)
    const db = await connect(copy)
    cleanups.push(() => db.end().catch(() => {}))
    const rows = (await db.query<{ id: string; text: string }>("SELECT id, text FROM responses WHERE project_id = $1", [project])).rows
    const restored = new Map(rows.map((row) => [Number(row.id), row.text]))
    expect(before.filter((answer) => restored.get(answer.id) !== answer.text)).toEqual([])
    expect(rows.filter((row) => !sent.has(row.text))).toEqual([])
    const listed = await fetch(`${revived.baseUrl}/api/v1/responses?per_page=1`, {
      headers: { authorization: `Bearer ${key}`, "service-project-id": String(project) }
    }).then((reply) => reply.json() as Promise<{ meta: { total: number } }>)
    expect(listed.meta.total).toBe(rows.length)

    const mismatches = () => rollupMismatchesWith((query) => db.query(query).then((result) => result.rows), project)
    expect(await mismatches()).toEqual({})
    // The restored server's merger folds in the answers that were pending when the copy was taken.
    const pending = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM analytics_pending WHERE project_id = $1", [project])).rows[0]!.n
    for (let i = 0; i < 200 && (await pending()) > 0; i++) await wait(100)
    expect(await pending()).toBe(0)
    expect(await mismatches()).toEqual({})
  }, 240_000)

  it("refuses what it cannot do, saying what to do instead", async () => {
    const work = mkdtempSync(join(tmpdir(), "bvm-backup-refusals-"))
    cleanups.push(() => rmSync(work, { recursive: true, force: true }))
    const onPostgres = { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" }
    const refusals: Array<readonly [Run, string]> = [
      [await cli(["backup", join(work, "b.tar.gz")], onPostgres), `On PostgreSQL (DATABASE_URL is set), use pg_dump: see docs/operations.md, "Backups".`],
      [await cli(["restore", join(work, "b.tar.gz")], onPostgres), `On PostgreSQL (DATABASE_URL is set), use pg_restore: see docs/operations.md, "Backups".`]
    ]
    if (backend === "embedded") {
      const notBackup = join(work, "not-a-backup.tar.gz")
      writeFileSync(notBackup, "hello")
      refusals.push(
        [await cli(["backup", join(work, "b.tar.gz")], { DATA_DIR: join(work, "nothing") }), `There is no embedded database in ${join(work, "nothing")} to back up.`],
        [await cli(["restore", join(work, "missing.tar.gz")], { DATA_DIR: join(work, "fresh") }), `Cannot read ${join(work, "missing.tar.gz")}: no such file or directory.`],
        [await cli(["restore", notBackup], { DATA_DIR: join(work, "fresh") }), `${notBackup} is not a backup made by \`backup\`.`]
      )
      writeFileSync(join(work, "keep-me"), "")
      refusals.push([
        await cli(["restore", notBackup], { DATA_DIR: work }),
        `DATA_DIR ${work} is not empty: a backup is restored only into an empty folder.`
      ])
    }
    for (const [refused, message] of refusals) {
      expect(refused.code, refused.stderr).toBe(1)
      expect(refused.stdout).toBe("")
      expect(refused.stderr).toContain(message)
      expect(refused.stderr).not.toMatch(/\n\s+at /)
    }
    if (backend === "embedded") expect(readFileSync(join(work, "keep-me"), "utf8")).toBe("")
  }, 120_000)
})
