import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { type AddressInfo, createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabase } from "../support/TestServer.ts"

/**
 * A second server on a port in use (`npm start` twice): it stops at once with a clear message, before it
 * migrates the database or starts a collector (src/Http/PortCheck.ts, checked by src/main.ts before the
 * database, and by `npm start`'s first step before building). On the embedded database its DATA_DIR stays
 * empty; on PostgreSQL the database it was given stays without a schema.
 */

const backend = process.env.DATABASE_URL ? "postgres" : "embedded"
const root = fileURLToPath(new URL("../..", import.meta.url))

interface Exit {
  readonly code: number | null
  readonly output: string
  readonly ms: number
}

const run = (command: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<Exit>((resolve) => {
    const started = Date.now()
    const { DATABASE_URL: _d, DATA_DIR: _a, PORT: _p, WORKER: _w, ...inherited } = process.env
    const child = spawn(command, args, { cwd: root, env: { ...inherited, LOG_LEVEL: "info", ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000)
    child.once("exit", (code) => {
      clearTimeout(timer)
      resolve({ code, output, ms: Date.now() - started })
    })
  })

describe(`start-up on a port in use (${backend} database)`, () => {
  let holder: Server
  let port: number
  beforeAll(async () => {
    holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, resolve))
    port = (holder.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())))

  it("the server stops with the port in its message, having migrated nothing and started no collector", async () => {
    if (backend === "embedded") {
      const dataDir = mkdtempSync(join(tmpdir(), "bvm-startup-"))
      try {
        const exit = await run(process.execPath, ["dist/server/main.js"], { PORT: String(port), DATA_DIR: dataDir })
        expect(exit.code, exit.output).toBe(1)
        expect(exit.output).toContain(`port ${port} is already in use: stop the process holding it, or set PORT to another port`)
        expect(exit.output).not.toMatch(/applied migrations|collector started|listening on/)
        // The embedded database was never opened: its directory is as it was.
        expect(readdirSync(dataDir)).toEqual([])
      } finally {
        rmSync(dataDir, { recursive: true, force: true })
      }
    } else {
      const database = await createDatabase(process.env.DATABASE_URL!, { empty: true })
      try {
        const exit = await run(process.execPath, ["dist/server/main.js"], { PORT: String(port), DATABASE_URL: database.url })
        expect(exit.code, exit.output).toBe(1)
        expect(exit.output).toContain(`port ${port} is already in use`)
        expect(exit.output).not.toMatch(/applied migrations|collector started|listening on/)
        const client = new pg.Client({ connectionString: database.url })
        await client.connect()
        const tables = await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")
        await client.end()
        expect(tables.rows[0].n).toBe(0)
      } finally {
        await database.drop()
      }
    }
  }, 120_000)

  it("npm start stops before building, with the same message", async () => {
    const exit = await run("npm", ["start", "--silent"], { PORT: String(port), DATA_DIR: join(tmpdir(), "bvm-startup-unused") })
    expect(exit.code).not.toBe(0)
    expect(exit.output).toContain(`npm start: port ${port} is already in use: stop the process holding it, or set PORT to another port`)
    // Nothing after the check ran: no dashboard build, no server.
    expect(exit.output).not.toMatch(/dashboard|the service could not start|listening on/i)
  }, 120_000)
})
