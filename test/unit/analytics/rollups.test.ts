import { NodeContext } from "@effect/platform-node"
import { Migrator, SqlClient } from "@effect/sql"
import { PgMigrator } from "@effect/sql-pg"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { migrations } from "../../../migrations/index.ts"
import * as Migrations from "../../../src/Database/Migrations.ts"
import type { AnalyzedResponse } from "../../../src/Responses/Repo.ts"
import * as Responses from "../../../src/Responses/Repo.ts"
import { writeSql, writeSqlOrganization } from "../../support/AnalyticsData.ts"
import { freshSql, migratedSql } from "../../support/Databases.ts"
import { rollupMismatches } from "../../support/Rollups.ts"
import { sqlBackend } from "../../support/TestServer.ts"

/**
 * The analytics rollups (migrations 0003 and 0005) on the paths the service itself writes by: a large ingestion
 * batch, whose citations are inserted in several statements (one response's citations may straddle
 * two), and the cascades of the API's deletions; and rollups added by a migration over data already
 * stored. The differential test covers random plain-SQL data.
 */

const runtime = ManagedRuntime.make(
  Responses.layerSql.pipe(Layer.provideMerge(migratedSql), Layer.provide(Logger.minimumLogLevel(LogLevel.None)))
)
afterAll(() => runtime.dispose())

const DAY = 86_400_000

describe(`analytics rollups (${sqlBackend})`, () => {
  it("stay exact through an ingestion batch split across statements, and through deletions", async () => {
    const ids = await runtime.runPromise(Effect.gen(function*() {
      const organization = yield* writeSqlOrganization("Rollups org")
      return yield* writeSql(organization, {
        monitors: [{ country: "US" }, { country: "DE" }],
        tags: 2,
        prompts: [{ monitor: 0, tags: [0] }, { monitor: 1, tags: [0, 1] }, { monitor: 0, tags: [] }],
        sources: [],
        urls: [],
        responses: []
      })
    }))
    // 700 responses of 7 citations: 4,900 citations, inserted 2,000 per statement. Each response cites
    // one URL twice and two URLs of one domain, so "used" must count a response once per source.
    const batch: Array<AnalyzedResponse> = Array.from({ length: 700 }, (_, i) => {
      const prompt = i % 3
      const url = (n: number) => {
        const domain = `site${(i + n) % 11}.example`
        return { url: `https://${domain}/p${n % 4}`, normalized: `https://${domain}/p${n % 4}`, domain }
      }
      return {
        monitor_id: ids.monitors[prompt === 1 ? 1 : 0]!,
        prompt_id: ids.prompts[prompt]!,
        platform: i % 2 === 0 ? "chatgpt" : "gemini",
        country: prompt === 1 ? "DE" : "US",
        text: `answer ${i}`,
        collected_at: new Date(Date.UTC(2026, 5, 1) + (i % 20) * DAY + (i % 7) * 3_600_000),
        citations: [url(0), url(1), url(0), url(2), url(4), url(15), url(5)],
        mentions: []
      }
    })
    const check = () => runtime.runPromise(rollupMismatches(ids.project))

    await runtime.runPromise(Effect.flatMap(Responses.ResponsesRepo, (repo) => repo.insertAnalyzed(ids.project, batch)))
    expect(await check()).toEqual({})
    const counted = await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ responses: number; used: number }>`
        SELECT (SELECT sum(responses) FROM response_daily WHERE project_id = ${ids.project}) AS responses,
          (SELECT sum(used) FROM source_daily WHERE project_id = ${ids.project}) AS used`
    ))
    // Not vacuous: the rollups hold the batch (every response cites 6 distinct domains at most).
    expect(counted[0]!.responses).toBe(700)
    expect(counted[0]!.used).toBeGreaterThan(700 * 4)

    const run = (statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
      runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, statement))
    await run((sql) => sql`DELETE FROM prompt_tags WHERE prompt_id = ${ids.prompts[1]!} AND tag_id = ${ids.tags[0]!}`)
    expect(await check()).toEqual({})
    await run((sql) => sql`INSERT INTO prompt_tags (prompt_id, tag_id) VALUES (${ids.prompts[2]!}, ${ids.tags[1]!})`)
    expect(await check()).toEqual({})
    await run((sql) => sql`DELETE FROM responses WHERE id = (SELECT min(id) FROM responses WHERE project_id = ${ids.project})`)
    expect(await check()).toEqual({})
    await run((sql) => sql`DELETE FROM tags WHERE id = ${ids.tags[1]!}`)
    expect(await check()).toEqual({})
    await run((sql) => sql`DELETE FROM prompts WHERE id = ${ids.prompts[1]!}`)
    expect(await check()).toEqual({})
    await run((sql) => sql`DELETE FROM monitors WHERE id = ${ids.monitors[0]!}`)
    expect(await check()).toEqual({})
    const left = await run((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM source_daily WHERE project_id = ${ids.project} AND used <> 0`)
    expect(left).toEqual([{ n: 0 }])
    await run((sql) => sql`DELETE FROM projects WHERE id = ${ids.project}`)
    const rows = await run((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM url_daily WHERE project_id = ${ids.project}`)
    expect(rows).toEqual([{ n: 0 }])
  }, 60_000)
})

describe(`the tag pairs migration (${sqlBackend})`, () => {
  it("counts the answers stored before it", async () => {
    const runtime = ManagedRuntime.make(freshSql.pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.None))))
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0005"))
      await runtime.runPromise(
        PgMigrator.run({ loader: Migrator.fromRecord(before), table: "schema_migrations" }).pipe(Effect.provide(NodeContext.layer))
      )
      const ids = await runtime.runPromise(Effect.gen(function*() {
        const organization = yield* writeSqlOrganization("Pairs org")
        return yield* writeSql(organization, {
          monitors: [{ country: "US" }, { country: "DE" }],
          tags: 3,
          prompts: [{ monitor: 0, tags: [0, 1, 2] }, { monitor: 1, tags: [0, 1] }, { monitor: 0, tags: [2] }],
          sources: ["alpha.com", "beta.com"],
          urls: [{ source: 0, url: "https://alpha.com/1" }, { source: 1, url: "https://beta.com/2" }],
          responses: Array.from({ length: 30 }, (_, i) => ({
            prompt: i % 3,
            platform: i % 2 === 0 ? "chatgpt" as const : "gemini" as const,
            status: i % 10 === 9 ? "failed" as const : "analyzed" as const,
            collected_at: new Date(Date.UTC(2026, 0, 25) + i * 3 * DAY).toISOString(),
            citations: [i % 2, 0, ...(i % 4 === 0 ? [1] : [])]
          }))
        })
      }))
      await runtime.runPromise(Migrations.migrate)
      const pairs = await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ n: number }>`SELECT count(*)::int AS n FROM url_tag_pair_group_monthly WHERE project_id = ${ids.project}`))
      expect(pairs[0]!.n).toBeGreaterThan(0)
      expect(await runtime.runPromise(rollupMismatches(ids.project))).toEqual({})
    } finally {
      await runtime.dispose()
    }
  }, 60_000)
})
