import { NodeContext } from "@effect/platform-node"
import { Migrator, SqlClient } from "@effect/sql"
import { PgMigrator } from "@effect/sql-pg"
import { Effect, Exit, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { describe, expect, it } from "vitest"
import { migrations } from "../../migrations/index.ts"
import * as Migrations from "../../src/Database/Migrations.ts"
import { writeSql, writeSqlOrganization } from "../support/AnalyticsData.ts"
import { freshSql } from "../support/Databases.ts"
import { sqlBackend } from "../support/TestServer.ts"

/**
 * Migration 0014: citations carry their project, filled in for the citations stored before it, and the
 * database refuses a citation that names another project than its response's.
 */

const DAY = 86_400_000

describe(`the citation project migration (${sqlBackend})`, () => {
  it("gives every citation stored before it its response's project, and refuses another project after it", async () => {
    const runtime = ManagedRuntime.make(freshSql.pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.None))))
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0014"))
      await runtime.runPromise(
        PgMigrator.run({ loader: Migrator.fromRecord(before), table: "schema_migrations" }).pipe(Effect.provide(NodeContext.layer))
      )
      const write = (name: string, responses: number) =>
        Effect.gen(function*() {
          const organization = yield* writeSqlOrganization(name)
          return yield* writeSql(organization, {
            monitors: [{ country: "US" }],
            tags: 0,
            prompts: [{ monitor: 0, tags: [] }],
            sources: ["alpha.com", "beta.com"],
            urls: [{ source: 0, url: "https://alpha.com/1" }, { source: 1, url: "https://beta.com/2" }],
            responses: Array.from({ length: responses }, (_, i) => ({
              prompt: 0,
              platform: "chatgpt" as const,
              status: "analyzed" as const,
              collected_at: new Date(Date.UTC(2026, 0, 25) + i * DAY).toISOString(),
              citations: i % 3 === 0 ? [] : [0, 1]
            }))
          })
        })
      const first = await runtime.runPromise(write("First", 9))
      const second = await runtime.runPromise(write("Second", 5))
      await runtime.runPromise(Migrations.migrate)
      const sql = (query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<any>, any>) =>
        runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, query))
      const counts = await sql((sql) =>
        sql`
          SELECT c.project_id, count(*)::int AS n, count(*) FILTER (WHERE c.project_id = r.project_id)::int AS same
          FROM citations c JOIN responses r ON r.id = c.response_id GROUP BY c.project_id ORDER BY c.project_id`)
      expect(counts).toEqual([
        { project_id: first.project, n: 12, same: 12 },
        { project_id: second.project, n: 6, same: 6 }
      ])
      // After it: a citation naming another project than its response's is refused by the database.
      const [response] = await sql((sql) => sql`SELECT id FROM responses WHERE project_id = ${first.project} LIMIT 1`)
      const [source] = await sql((sql) => sql`SELECT id, project_id FROM source_urls WHERE project_id = ${first.project} LIMIT 1`)
      const insert = (projectId: number) =>
        runtime.runPromiseExit(Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql`
            INSERT INTO citations (project_id, response_id, source_id, source_url_id, url, position)
            SELECT ${projectId}, ${response.id}, source_id, id, url, 99 FROM source_urls WHERE id = ${source.id}`))
      expect(Exit.isFailure(await insert(second.project))).toBe(true)
      expect(Exit.isSuccess(await insert(first.project))).toBe(true)
      // And deleting a response still deletes its citations.
      await sql((sql) => sql`DELETE FROM responses WHERE id = ${response.id}`)
      expect(await sql((sql) => sql`SELECT id FROM citations WHERE response_id = ${response.id}`)).toEqual([])
    } finally {
      await runtime.dispose()
    }
  }, 300_000)
})
