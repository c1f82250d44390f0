import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
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
