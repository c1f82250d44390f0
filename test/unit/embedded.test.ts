import { Effect, type Scope } from "effect"
import { spawn } from "node:child_process"
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { describe, expect, it } from "vitest"
import * as Embedded from "../../src/Database/Embedded.ts"

/**
 * Several connections to the embedded database (the server's pool and the CLI beside it) run their
 * parameterized queries at the same time: each query's protocol messages (Parse, Bind, Execute, Sync)
 * must reach PGlite together, never interleaved with another connection's.
 */
describe("embedded database shared by several connections", () => {
  it("keeps each connection's queries whole under concurrency", async () => {
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      // On disk, as in production: file I/O lets other connections' data in between a query's messages.
      const dataDir = mkdtempSync(join(tmpdir(), "bvm-embedded-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      const endpoint = yield* Embedded.serve({ dataDir })
      const setup = new pg.Client({ host: endpoint.host, port: endpoint.port, user: "postgres", database: "postgres" })
      yield* Effect.promise(async () => {
        await setup.connect()
        await setup.query("CREATE TABLE t (id serial PRIMARY KEY, c int)")
        await setup.end()
      })
      const clients = yield* Effect.promise(async () => {
        const clients = Array.from({ length: 3 }, () => new pg.Client({ host: endpoint.host, port: endpoint.port, user: "postgres", database: "postgres" }))
        await Promise.all(clients.map((client) => client.connect()))
        return clients
      })
      const results = yield* Effect.promise(() =>
        Promise.all(clients.map(async (client, c) => {
          const answers: Array<number> = []
          // A different statement on each connection: a Bind reaching another connection's Parse fails.
          const extra = Array.from({ length: c }, (_, k) => `+ $${k + 3}::int * 0`).join(" ")
          for (let i = 0; i < 150; i++) {
            // A write too, so PGlite touches its files inside the query.
            const { rows } = await client.query(
              `WITH w AS (INSERT INTO t (c) VALUES ($1::int) RETURNING 1) SELECT $1::int * 1000 + $2::int ${extra} AS n FROM w`,
              [c, i, ...Array(c).fill(7)]
            )
            answers.push(rows[0].n)
          }
          return answers
        }))
      )
      yield* Effect.promise(() => Promise.all(clients.map((client) => client.end())))
      results.forEach((answers, c) => expect(answers).toEqual(Array.from({ length: 150 }, (_, i) => c * 1000 + i)))
    })))
  }, 60_000)
})

/**
 * The embedded database is reachable by this service's OS user only: a Unix socket in a 0700
 * directory, no network port, and its publication and lock files readable by the owner alone. A lock
 * left by a process whose pid now belongs to another live process does not block start-up.
 */
describe("embedded database protection", () => {
  const withDataDir = <A, E>(use: (dataDir: string) => Effect.Effect<A, E, Scope.Scope>) =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const dataDir = mkdtempSync(join(tmpdir(), "bvm-protect-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      return yield* use(dataDir)
    })))

  it("listens on a Unix socket in a directory only its owner can open; the published files are the owner's only", () =>
    withDataDir((dataDir) =>
      Effect.gen(function*() {
        const endpoint = yield* Embedded.serve({ dataDir })
        expect(endpoint.host.startsWith("/")).toBe(true)
        expect(statSync(endpoint.host).mode & 0o777).toBe(0o700)
        expect(statSync(join(endpoint.host, `.s.PGSQL.${endpoint.port}`)).isSocket()).toBe(true)
        expect(statSync(join(dataDir, "embedded-server.json")).mode & 0o777).toBe(0o600)
        expect(statSync(join(dataDir, "embedded.lock")).mode & 0o777).toBe(0o600)
        expect(JSON.parse(readFileSync(join(dataDir, "embedded-server.json"), "utf8"))).toEqual({
          pid: process.pid,
          host: endpoint.host,
          port: endpoint.port
        })
        // The pg client reaches it, as the server's pool and the CLI do.
        const client = new pg.Client({ host: endpoint.host, port: endpoint.port, user: "postgres", database: "postgres" })
        const rows = yield* Effect.promise(async () => {
          await client.connect()
          const result = await client.query("SELECT 1 AS one")
          await client.end()
          return result.rows
        })
        expect(rows).toEqual([{ one: 1 }])
      })
    ), 60_000)

  /** The path and mode of every file and directory under `root` (itself included) that others may use. */
  const openToOthers = (root: string): Array<string> => {
    const found: Array<string> = []
    const walk = (path: string) => {
      const info = lstatSync(path)
      if (info.isSymbolicLink()) return
      if ((info.mode & 0o077) !== 0) found.push(`${path} ${(info.mode & 0o777).toString(8)}`)
      if (info.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name))
    }
    walk(root)
    return found
  }

  const query = (endpoint: Embedded.EmbeddedEndpoint, text: string) =>
    Effect.promise(async () => {
      const client = new pg.Client({ host: endpoint.host, port: endpoint.port, user: "postgres", database: "postgres" })
      await client.connect()
      await client.query(text)
      await client.end()
    })

  it("keeps every file private whatever the umask and the mode DATA_DIR had, and makes an old open one private", async () => {
    // The worst case: a umask that masks nothing, and a DATA_DIR made beforehand open to everyone.
    const umask = process.umask(0)
    try {
      await withDataDir((dataDir) =>
        Effect.gen(function*() {
          chmodSync(dataDir, 0o755)
          yield* Effect.scoped(Effect.gen(function*() {
            const endpoint = yield* Embedded.serve({ dataDir })
            // Tables, indexes and WAL written after the start (new files) are private too.
            yield* query(endpoint, "CREATE TABLE secrets (id serial PRIMARY KEY, hash text UNIQUE); INSERT INTO secrets (hash) VALUES ('x')")
            expect(statSync(dataDir).mode & 0o777).toBe(0o700)
            expect(openToOthers(dataDir)).toEqual([])
          }))
          expect(openToOthers(dataDir)).toEqual([])
          // A data directory left open by an earlier version (or by hand): private again at the next start.
          const loosen = (path: string): void => {
            const info = lstatSync(path)
            chmodSync(path, info.isDirectory() ? 0o777 : 0o666)
            if (info.isDirectory()) for (const name of readdirSync(path)) loosen(join(path, name))
          }
          loosen(dataDir)
          expect(openToOthers(dataDir).length).toBeGreaterThan(900)
          yield* Effect.scoped(Effect.gen(function*() {
            const endpoint = yield* Embedded.serve({ dataDir })
            yield* query(endpoint, "INSERT INTO secrets (hash) VALUES ('y')")
            expect(openToOthers(dataDir)).toEqual([])
          }))
        }))
    } finally {
      process.umask(umask)
    }
  }, 120_000)

  it("refuses a DATA_DIR that is not a directory, saying so", () =>
    withDataDir((dataDir) =>
      Effect.gen(function*() {
        const file = join(dataDir, "file")
        writeFileSync(file, "")
        const refused = yield* Effect.flip(Embedded.serve({ dataDir: file }))
        expect(refused.message).toBe(`DATA_DIR ${file} is not a directory.`)
      })
    ), 60_000)

  it("an in-memory database gets a private temporary socket directory, removed at the end", async () => {
    const directory = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const endpoint = yield* Embedded.serve({ dataDir: undefined })
      expect(statSync(endpoint.host).mode & 0o777).toBe(0o700)
      return endpoint.host
    })))
    expect(existsSync(directory)).toBe(false)
  }, 60_000)

  it("takes over a lock whose pid now belongs to another live process, and refuses one whose process still runs", async () => {
    const sleeper = spawn("sleep", ["60"])
    try {
      const startTime = readFileSync(`/proc/${sleeper.pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]
      // The pid of a live process, with the start time of another: the holder is gone, its pid reused.
      await withDataDir((dataDir) =>
        Effect.gen(function*() {
          writeFileSync(join(dataDir, "embedded.lock"), `${sleeper.pid}\n1\n`)
          yield* Embedded.serve({ dataDir })
        }))
      // The same pid with its own start time: the holder still runs.
      const refused = await withDataDir((dataDir) =>
        Effect.gen(function*() {
          writeFileSync(join(dataDir, "embedded.lock"), `${sleeper.pid}\n${startTime}\n`)
          return yield* Effect.flip(Embedded.serve({ dataDir }))
        }))
      expect(refused.message).toContain(`in use by process ${sleeper.pid}`)
    } finally {
      sleeper.kill()
    }
  }, 60_000)
})
