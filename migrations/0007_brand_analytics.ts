import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import {
  brandMergeFunction,
  brandRollups,
  brandUpsert,
  createBrandTable,
  deltasOfMentions,
  deltasOfResponses,
  deltaTables,
  mentionDeltaTable
} from "./rollups.ts"

/**
 * Rollups of brand mentions (./rollups.ts, "Brand analytics rollups"), for the brand and prompt
 * analytics: per day (and month for the prompt cuts), a brand's mentions with the sums of their
 * positions and sentiment scores, for the whole project, per group, per tag and pair of tags (with and
 * without the group, as 0003 and 0005 count sources), per prompt, per prompt and group; and analyzed
 * responses per prompt (and group). Share of voice divides by the mentions of the counted
 * brands, which are summed at read time from these rows: reclassifying a brand, or changing the
 * project's own brand, changes no row.
 *
 * Invariant, as for 0003: every rollup equals the aggregate of the analyzed responses and brand
 * mentions that exist (less rows of zeros). The triggers keep it on every path, under the project's
 * rollup lock of 0006:
 *   - a response counted or uncounted by 0003's triggers (inserted, deleted, its status or key columns
 *     changed, its prompt deleted) adds or subtracts its mentions too: `analytics_apply` now does it;
 *   - mentions inserted, deleted or updated by themselves (stored after their response, re-detected,
 *     their brand deleted) add or subtract theirs (statement triggers with transition tables). A
 *     mention leaving with its response (or project) finds the response gone and does nothing: the
 *     response's own trigger has subtracted it already;
 *   - a tag attached to a prompt or detached from it adds or subtracts the prompt's mentions under it
 *     (0003's triggers, through `analytics_apply`);
 *   - a deleted group's or tag's rows are deleted (no foreign key on them: see `createBrandTable`).
 */
/** Responses counted per statement when the migration counts what is already stored. */
const BACKFILL_CHUNK = 20_000

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  for (const rollup of brandRollups) {
    for (const statement of createBrandTable(rollup)) yield* sql.unsafe(statement)
  }
  yield* sql.unsafe(brandMergeFunction(brandRollups))

  // 0003's function, adding the responses' mentions (and per-prompt counts); a tag attached or detached
  // (`only_tag`) changes the brand rollups per tag only.
  yield* sql.unsafe(`
    CREATE OR REPLACE FUNCTION analytics_apply(response_ids bigint[], sign integer, only_tag bigint DEFAULT NULL)
    RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      ${deltaTables}
      IF sign > 0 THEN
        INSERT INTO analytics_groups (project_id, monitor_id, platform, country)
        SELECT DISTINCT r.project_id, r.monitor_id, r.platform, r.country
        FROM responses r WHERE r.id = ANY (response_ids) AND r.status = 'analyzed'
        ON CONFLICT DO NOTHING;
      END IF;

      ${deltasOfResponses}

      PERFORM analytics_merge(sign, only_tag);

      ${mentionDeltaTable}
      ${deltasOfMentions}
      PERFORM analytics_merge_brands(sign, true, only_tag);
    END
    $fn$`)

  // Mentions stored, re-detected or deleted by themselves, from the transition table of the statement.
  // Only those of analyzed responses count, and only while the response and its project exist (see above).
  const applyMentions = (table: "new_rows" | "old_rows", sign: 1 | -1) => `
      ${mentionDeltaTable}
      INSERT INTO analytics_delta_mentions
      SELECT r.project_id, (r.collected_at AT TIME ZONE 'UTC')::date, g.id, r.prompt_id, m.brand_id, m.position, m.sentiment_score
      FROM ${table} m
      JOIN responses r ON r.id = m.response_id AND r.status = 'analyzed'
      JOIN projects p ON p.id = r.project_id
      LEFT JOIN analytics_groups g
        ON g.project_id = r.project_id AND g.monitor_id = r.monitor_id AND g.platform = r.platform AND g.country = r.country;
      PERFORM analytics_merge_brands(${sign}, false, NULL);`

  /** A statement trigger on brand_mentions: the projects' locks, then each transition table applied with its sign. */
  const mentionTrigger = (name: string, event: string, tables: ReadonlyArray<readonly ["new_rows" | "old_rows", 1 | -1]>) => [
    `
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      -- A statement that changed nothing (an upsert of mentions detected again unchanged) costs nothing.
      IF ${tables.map(([table]) => `NOT EXISTS (SELECT 1 FROM ${table})`).join(" AND ")} THEN
        RETURN NULL;
      END IF;
      PERFORM analytics_lock(x.project_id) FROM (
        ${tables.map(([table]) => `SELECT r.project_id FROM ${table} m JOIN responses r ON r.id = m.response_id`).join(" UNION ")}
        ORDER BY 1
      ) x;
      ${tables.map(([table, sign]) => applyMentions(table, sign)).join("\n")}
      RETURN NULL;
    END
    $fn$`,
    `
    CREATE TRIGGER ${name} AFTER ${event} ON brand_mentions
      REFERENCING ${tables.map(([table]) => `${table === "new_rows" ? "NEW" : "OLD"} TABLE AS ${table}`).join(" ")}
      FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`
  ]

  const triggers = [
    mentionTrigger("analytics_mentions_inserted", "INSERT", [["new_rows", 1]]),
    mentionTrigger("analytics_mentions_deleted", "DELETE", [["old_rows", -1]]),
    // An update (re-detection changing a position or a score): the old rows out, the new ones in.
    mentionTrigger("analytics_mentions_updated", "UPDATE", [["old_rows", -1], ["new_rows", 1]])
  ]
  for (const statement of triggers.flat()) yield* sql.unsafe(statement)

  // A deleted group (its monitor deleted) or tag takes its rows along, as a foreign key would (the tag's
  // detachment from its prompts, on the way, finds it gone and subtracts nothing).
  const byGroup = brandRollups.filter((rollup) => rollup.cut.includes("group"))
  const byTag = brandRollups.filter((rollup) => rollup.cut.startsWith("tag"))
  yield* sql.unsafe(`
    CREATE FUNCTION analytics_groups_deleted() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      PERFORM analytics_lock(x.project_id) FROM (SELECT DISTINCT project_id FROM old_rows ORDER BY 1) x;
      ${byGroup.map((rollup) => `DELETE FROM ${rollup.table} t USING old_rows g WHERE t.project_id = g.project_id AND t.group_id = g.id;`).join("\n")}
      RETURN NULL;
    END
    $fn$`)
  yield* sql.unsafe(`
    CREATE TRIGGER analytics_groups_deleted AFTER DELETE ON analytics_groups REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION analytics_groups_deleted()`)
  yield* sql.unsafe(`
    CREATE FUNCTION analytics_tags_deleted() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      PERFORM analytics_lock(x.project_id) FROM (SELECT DISTINCT project_id FROM old_rows ORDER BY 1) x;
      ${
    byTag.map((rollup) =>
      `DELETE FROM ${rollup.table} t USING old_rows g WHERE t.project_id = g.project_id AND t.tag_id = g.id;` +
      (rollup.cut.startsWith("tag_pair") ? `\nDELETE FROM ${rollup.table} t USING old_rows g WHERE t.project_id = g.project_id AND t.other_tag_id = g.id;` : "")
    ).join("\n")
  }
      RETURN NULL;
    END
    $fn$`)
  yield* sql.unsafe(`
    CREATE TRIGGER analytics_tags_deleted AFTER DELETE ON tags REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION analytics_tags_deleted()`)

  // What is already stored, in the new tables only: a range of response ids per statement, so that each
  // stays within the statement time limit however much is stored.
  const [stored] = yield* sql<{ first: number | null; last: number | null }>`
    SELECT min(id) AS first, max(id) AS last FROM responses WHERE status = 'analyzed'`
  for (let from = stored!.first ?? 1; from <= (stored!.last ?? 0); from += BACKFILL_CHUNK) {
    yield* sql.unsafe(`
      DO $fn$
      DECLARE
        response_ids bigint[] := ARRAY(
          SELECT id FROM responses WHERE status = 'analyzed' AND id >= ${from} AND id < ${from + BACKFILL_CHUNK});
        only_tag bigint := NULL;
      BEGIN
        ${deltaTables}
        ${deltasOfResponses}
        ${mentionDeltaTable}
        ${deltasOfMentions}
        ${brandRollups.map(brandUpsert).join("\n")}
      END
      $fn$`)
  }
})
