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
import { mergePending, rollupMismatches } from "../../support/Rollups.ts"
import { sqlBackend } from "../../support/TestServer.ts"

/**
 * The analytics rollups (migrations 0003, 0005, 0007 and 0008) on the paths the service itself writes
 * by: a large ingestion batch (stored pending, then merged in parts), re-detection of mentions (`cli
 * reanalyze`), and the cascades of the API's deletions, with some answers pending all along; and
 * rollups added by a migration over data already stored. The differential test covers random
 * plain-SQL data.
 */

const runtime = ManagedRuntime.make(
  Responses.layerSql.pipe(Layer.provideMerge(migratedSql), Layer.provide(Logger.minimumLogLevel(LogLevel.None)))
)
afterAll(() => runtime.dispose())

const DAY = 86_400_000

describe(`analytics rollups (${sqlBackend})`, () => {
  it("stay exact through an ingestion batch, pending, partly and wholly merged, and through changes made while some answers are pending", async () => {
    const ids = await runtime.runPromise(Effect.gen(function*() {
      const organization = yield* writeSqlOrganization("Rollups org")
      return yield* writeSql(organization, {
        monitors: [{ country: "US" }, { country: "DE" }],
        tags: 2,
        prompts: [{ monitor: 0, tags: [0] }, { monitor: 1, tags: [0, 1] }, { monitor: 0, tags: [] }],
        sources: [],
        urls: [],
        brands: [{ name: "Acme" }, { name: "Globex" }, { name: "Initech" }, { name: "Umbrella", classification: "ignored" }],
        ownBrand: 0,
        responses: []
      })
    }))
    // 700 responses of 7 citations: 4,900 citations. Each response cites one URL twice and two URLs of
    // one domain, so "used" must count a response once per source.
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
        // 0 to 3 brands, in turn: 1,050 mentions.
        mentions: [0, 1, 2].slice(0, i % 4).map((k) => ({ brand_id: ids.brands[(i + k) % 4]!, position: k + 1, sentiment_score: (i * 7 + k) % 101 }))
      }
    })
    const check = () => runtime.runPromise(rollupMismatches(ids.project))

    // The batch is stored pending: the rollups hold none of it until it is merged, and are exact either way.
    await runtime.runPromise(Effect.flatMap(Responses.ResponsesRepo, (repo) => repo.insertAnalyzed(ids.project, batch.slice(0, 600))))
    expect(await check()).toEqual({})
    expect(await runtime.runPromise(mergePending(ids.project, 250))).toBe(250)
    expect(await check()).toEqual({})
    expect(await runtime.runPromise(mergePending(ids.project))).toBe(350)
    expect(await check()).toEqual({})
    // The last 100 stay pending through everything below, until the end.
    await runtime.runPromise(Effect.flatMap(Responses.ResponsesRepo, (repo) => repo.insertAnalyzed(ids.project, batch.slice(600))))
    const counted = await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ responses: number; used: number; mentioned: number }>`
        SELECT (SELECT sum(responses) FROM response_daily WHERE project_id = ${ids.project}) AS responses,
          (SELECT sum(used) FROM source_daily WHERE project_id = ${ids.project}) AS used,
          (SELECT sum(mentioned) FROM brand_prompt_group_monthly WHERE project_id = ${ids.project}) AS mentioned`
    ))
    // Not vacuous: the rollups hold the merged 600 (every response cites 6 distinct domains at most).
    expect(counted[0]!.responses).toBe(600)
    expect(counted[0]!.used).toBeGreaterThan(600 * 4)
    expect(counted[0]!.mentioned).toBe(900)

    // Re-detection: each response's mentions replaced (some kept with new scores, some gone, some new).
    const stored = await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ id: number }>`SELECT id FROM responses WHERE project_id = ${ids.project} ORDER BY id`))
    await runtime.runPromise(Effect.flatMap(Responses.ResponsesRepo, (repo) =>
      repo.replaceMentions(
        ids.project,
        stored.map((row, i) => ({
          responseId: row.id,
          mentions: [1, 2].slice(0, i % 3).map((k) => ({ brand_id: ids.brands[(i + k) % 4]!, position: k, sentiment_score: (i * 3 + k) % 101 }))
        }))
      )))
    expect(await check()).toEqual({})

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
    // A brand deleted takes its mentions along; the project's own brand deleted with it.
    await run((sql) => sql`DELETE FROM brands WHERE id = ${ids.brands[0]!}`)
    expect(await check()).toEqual({})
    await run((sql) => sql`DELETE FROM prompts WHERE id = ${ids.prompts[1]!}`)
    expect(await check()).toEqual({})
    // The answers pending all along are merged with their tags, mentions and prompts as they are now.
    expect(await runtime.runPromise(mergePending(ids.project))).toBeGreaterThan(0)
    expect(await check()).toEqual({})
    await run((sql) => sql`DELETE FROM monitors WHERE id = ${ids.monitors[0]!}`)
    expect(await check()).toEqual({})
    const left = await run((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM source_daily WHERE project_id = ${ids.project} AND used <> 0`)
    expect(left).toEqual([{ n: 0 }])
    const mentioned = await run((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM brand_daily WHERE project_id = ${ids.project} AND mentioned <> 0`)
    expect(mentioned).toEqual([{ n: 0 }])
    await run((sql) => sql`DELETE FROM projects WHERE id = ${ids.project}`)
    const rows = await run((sql) => sql<{ n: number }>`
      SELECT (SELECT count(*) FROM url_daily WHERE project_id = ${ids.project}) + (SELECT count(*) FROM brand_prompt_daily WHERE project_id = ${ids.project})
        + (SELECT count(*) FROM response_prompt_group_monthly WHERE project_id = ${ids.project}) AS n`)
    expect(rows).toEqual([{ n: 0 }])
    const pending = await run((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM analytics_pending WHERE project_id = ${ids.project}`)
    expect(pending).toEqual([{ n: 0 }])
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

describe(`the brand analytics migration (${sqlBackend})`, () => {
  it("counts the answers and mentions stored before it", async () => {
    const runtime = ManagedRuntime.make(freshSql.pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.None))))
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0007"))
      await runtime.runPromise(
        PgMigrator.run({ loader: Migrator.fromRecord(before), table: "schema_migrations" }).pipe(Effect.provide(NodeContext.layer))
      )
      const ids = await runtime.runPromise(Effect.gen(function*() {
        const organization = yield* writeSqlOrganization("Brands org")
        return yield* writeSql(organization, {
          monitors: [{ country: "US" }, { country: "DE" }],
          tags: 1,
          prompts: [{ monitor: 0, tags: [0] }, { monitor: 1, tags: [] }],
          sources: [],
          urls: [],
          brands: [{ name: "Acme" }, { name: "Globex" }],
          responses: Array.from({ length: 30 }, (_, i) => ({
            prompt: i % 2,
            platform: i % 3 === 0 ? "chatgpt" as const : "gemini" as const,
            status: i % 10 === 9 ? "failed" as const : "analyzed" as const,
            collected_at: new Date(Date.UTC(2026, 0, 25) + i * 3 * DAY).toISOString(),
            citations: [],
            mentions: i % 4 === 3 ? [] : [{ brand: i % 2, position: 1, sentiment: i * 3 }, ...(i % 3 === 0 ? [{ brand: 1 - (i % 2), position: 2, sentiment: 50 }] : [])]
          }))
        })
      }))
      await runtime.runPromise(Migrations.migrate)
      const mentioned = await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ n: number }>`SELECT sum(mentioned)::int AS n FROM brand_prompt_group_monthly WHERE project_id = ${ids.project}`))
      expect(mentioned[0]!.n).toBeGreaterThan(20)
      expect(await runtime.runPromise(rollupMismatches(ids.project))).toEqual({})
    } finally {
      await runtime.dispose()
    }
  }, 60_000)
})
