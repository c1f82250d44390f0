import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { brandRollups } from "../../migrations/rollups.ts"

/**
 * The analytics rollups of a project (migrations 0003, 0005 and 0007) against the same counts computed from scratch
 * from the raw tables: the rows that differ, per table. Zero rows (all counts 0) are as good as absent.
 * An empty result means the triggers kept every rollup exact.
 *
 * What the rollups count is the analyzed answers (`answered`, migration 0012) that are not pending (0008: stored, not
 * merged yet, and counted by reads from their raw rows): the recount leaves the pending ones out, so the
 * check holds at any moment, whether or not the merger has run (`mergePending` merges them all).
 */
export const rollupMismatches = (projectId: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const mismatches: Record<string, number> = {}
    for (const [table, query] of mismatchQueries(projectId)) {
      const rows = yield* sql.unsafe<{ n: number }>(query)
      if (rows[0]!.n > 0) mismatches[table] = rows[0]!.n
    }
    return mismatches
  })

/**
 * Merges the project's pending responses into the rollups (`analytics_merge_pending`), at most `limit`
 * of them (all by default); how many.
 */
export const mergePending = (projectId: number, limit = Number.POSITIVE_INFINITY) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    let merged = 0
    while (merged < limit) {
      const [row] = yield* sql<{ n: number }>`SELECT analytics_merge_pending(${projectId}, ${Math.min(limit - merged, 10_000)}) AS n`
      if (row!.n === 0) break
      merged += row!.n
    }
    return merged
  })

/** `rollupMismatches` through any SQL runner (a test server's). */
export const rollupMismatchesWith = async (
  run: (query: string) => Promise<ReadonlyArray<Record<string, unknown>>>,
  projectId: number
): Promise<Record<string, number>> => {
  const mismatches: Record<string, number> = {}
  for (const [table, query] of mismatchQueries(projectId)) {
    const rows = await run(query)
    if (Number(rows[0]!.n) > 0) mismatches[table] = Number(rows[0]!.n)
  }
  return mismatches
}

/** Not pending: counted by the rollups. */
const rolledUp = "NOT EXISTS (SELECT 1 FROM analytics_pending q WHERE q.response_id = r.id)"

/** Per rollup table, a query counting its rows that differ from a recount of the raw tables. */
const mismatchQueries = (projectId: number): Array<readonly [string, string]> => {
  const groups = `JOIN (SELECT id AS group_id, project_id, monitor_id, platform, country FROM analytics_groups) g
    ON g.project_id = r.project_id AND g.monitor_id = r.monitor_id AND g.platform = r.platform AND g.country = r.country`
  // Each pair of the prompt's tags once, the smaller id first.
  const pairs = `JOIN (SELECT a.prompt_id, a.tag_id, b.tag_id AS other_tag_id FROM prompt_tags a
    JOIN prompt_tags b ON b.prompt_id = a.prompt_id AND b.tag_id > a.tag_id) pt ON pt.prompt_id = r.prompt_id`
  const cuts = {
    daily: { key: [] as Array<string>, join: "" },
    group_daily: { key: ["group_id"], join: groups },
    tag_daily: { key: ["tag_id"], join: "JOIN prompt_tags pt ON pt.prompt_id = r.prompt_id" },
    tag_group_daily: {
      key: ["tag_id", "group_id"],
      join: `JOIN prompt_tags pt ON pt.prompt_id = r.prompt_id ${groups}`
    },
    tag_pair_daily: { key: ["tag_id", "other_tag_id"], join: pairs },
    tag_pair_group_daily: { key: ["tag_id", "other_tag_id", "group_id"], join: `${pairs} ${groups}` }
  }
  const counted = {
    response: { key: [] as Array<string>, join: "", values: "count(*) AS responses", columns: ["responses"] },
    source: {
      key: ["source_id"],
      join: "JOIN citations c ON c.response_id = r.id",
      values: "count(DISTINCT r.id) AS used, count(*) AS cited",
      columns: ["used", "cited"]
    },
    url: {
      key: ["source_url_id"],
      join: "JOIN citations c ON c.response_id = r.id",
      values: "count(DISTINCT r.id) AS used, count(*) AS cited",
      columns: ["used", "cited"]
    }
  }
  const queries: Array<readonly [string, string]> = []
  const grains = { daily: "day", monthly: "month" }
  for (const [prefix, what] of Object.entries(counted)) {
    for (const [suffix, cut] of Object.entries(cuts)) {
      for (const [grain, unit] of Object.entries(grains)) {
      if (prefix === "response" && grain === "monthly") continue
      const table = `${prefix}_${suffix.replace("daily", grain)}`
      const key = ["day", ...cut.key, ...what.key]
      const truth = `
        SELECT ${[...key, ...what.columns].join(", ")} FROM (
          SELECT date_trunc('${unit}', r.collected_at AT TIME ZONE 'UTC')::date AS day,
            ${[...cut.key, ...what.key].map((k) => `${k}, `).join("")}
            ${what.values}
          FROM responses r ${cut.join} ${what.join}
          WHERE r.project_id = ${projectId} AND r.status = 'analyzed' AND r.answer_state = 'answered' AND ${rolledUp}
          GROUP BY ${key.join(", ")}
        ) truth`
      const stored = `
        SELECT ${[...key, ...what.columns].join(", ")} FROM ${table}
        WHERE project_id = ${projectId} AND (${what.columns.map((column) => `${column} <> 0`).join(" OR ")})`
      queries.push([
        table,
        `SELECT count(*)::int AS n FROM ((${truth} EXCEPT ${stored}) UNION ALL (${stored} EXCEPT ${truth})) differing`
      ])
      }
    }
  }
  // The brand rollups (0007): per tag, pair, prompt and group as named, mentions with their sums.
  for (const rollup of brandRollups) {
    const brandCuts: Record<string, { key: Array<string>; join: string }> = {
      all: cuts.daily,
      group: cuts.group_daily,
      tag: cuts.tag_daily,
      tag_group: cuts.tag_group_daily,
      tag_pair: cuts.tag_pair_daily,
      tag_pair_group: cuts.tag_pair_group_daily,
      prompt: { key: ["prompt_id"], join: "" },
      prompt_group: { key: ["prompt_id", "group_id"], join: groups }
    }
    const cut = brandCuts[rollup.cut]!
    const mentions = rollup.counts === "brand_id"
    const key = ["day", ...cut.key, ...(mentions ? ["brand_id"] : [])]
    const columns = mentions ? ["mentioned", "position_sum", "sentiment_sum"] : ["responses"]
    const source = (column: string) => (column === "prompt_id" ? "r.prompt_id" : column === "brand_id" ? "m.brand_id" : column)
    const truth = `
      SELECT ${[...key, ...columns].join(", ")} FROM (
        SELECT date_trunc('${rollup.grain === "daily" ? "day" : "month"}', r.collected_at AT TIME ZONE 'UTC')::date AS day,
          ${[...cut.key, ...(mentions ? ["brand_id"] : [])].map((k) => `${source(k)} AS ${k}, `).join("")}
          ${mentions ? "count(*) AS mentioned, sum(m.position) AS position_sum, sum(m.sentiment_score) AS sentiment_sum" : "count(*) AS responses"}
        FROM responses r ${cut.join} ${mentions ? "JOIN brand_mentions m ON m.response_id = r.id" : ""}
        WHERE r.project_id = ${projectId} AND r.status = 'analyzed' AND r.answer_state = 'answered' AND ${rolledUp}
        GROUP BY ${key.join(", ")}
      ) truth`
    const stored = `
      SELECT ${[...key, ...columns].join(", ")} FROM ${rollup.table}
      WHERE project_id = ${projectId} AND (${columns.map((column) => `${column} <> 0`).join(" OR ")})`
    queries.push([
      rollup.table,
      `SELECT count(*)::int AS n FROM ((${truth} EXCEPT ${stored}) UNION ALL (${stored} EXCEPT ${truth})) differing`
    ])
  }
  return queries
}
