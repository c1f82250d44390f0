import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The analytics rollups of a project (migrations 0003 and 0005) against the same counts computed from scratch
 * from the raw tables: the rows that differ, per table. Zero rows (all counts 0) are as good as absent.
 * An empty result means the triggers kept every rollup exact.
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
          WHERE r.project_id = ${projectId} AND r.status = 'analyzed'
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
  return queries
}
