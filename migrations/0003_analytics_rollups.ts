import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import {
  citationKeys,
  createTable,
  deltaTables,
  deltasOfResponses,
  keyColumns,
  mergeFunction,
  rollupsOf
} from "./rollups.ts"

/**
 * Daily and monthly rollups of analyzed responses and their citations, kept exact by triggers, so that
 * analytics sum a few hundred thousand day rows instead of joining millions of citations
 * (docs/performance.md, "How analytics stay fast"). Four cuts (./rollups.ts): the whole project, per
 * group, per tag, per tag and group; 0005 adds pairs of tags.
 *
 * Invariant: every rollup equals the aggregate of the analyzed responses and citations that exist.
 * The triggers keep it on every path, the API, `cli import`, plain SQL and cascades:
 *   - inserted responses add to the totals, inserted citations to the rollups (statement triggers);
 *   - a response leaving the set (deleted, or its status or key columns changed) subtracts all it
 *     added, before it goes; deleting a prompt subtracts all its responses at once, and its responses'
 *     own triggers then see the prompt gone and do nothing, so nothing is subtracted twice;
 *   - when the project itself is gone, nothing is subtracted: its rows cascade away;
 *   - attaching a tag to a prompt adds the prompt's responses to that tag's rollups, detaching it
 *     subtracts them; rows of a deleted tag cascade away.
 * Subtraction only updates existing rows (never inserts), so it cannot resurrect a deleted group.
 */
/** The ids of a prompt's analyzed responses, as a SQL array (`promptId` an expression). */
const analyzedResponsesOf = (promptId: string) =>
  `ARRAY(SELECT id FROM responses WHERE prompt_id = ${promptId} AND status = 'analyzed')`

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** A trigger and its plpgsql function, both called `name`; `on` is what fires it. */
  const trigger = (name: string, on: string, body: string) =>
    Effect.zipRight(
      sql.unsafe(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN ${body} END $fn$`),
      sql.unsafe(`CREATE TRIGGER ${name} ${on} EXECUTE FUNCTION ${name}()`)
    )

  yield* sql`
    CREATE TABLE analytics_groups (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      monitor_id bigint NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
      platform varchar(32) NOT NULL,
      country char(2) NOT NULL,
      UNIQUE (project_id, monitor_id, platform, country)
    )`
  yield* sql`CREATE INDEX analytics_groups_monitor_id_index ON analytics_groups (monitor_id)`

  // The tables (see ./rollups.ts for their keys and indexes).
  const rollups = rollupsOf(["all", "group", "tag", "tag_group"])
  for (const rollup of rollups) {
    for (const statement of createTable(rollup)) yield* sql.unsafe(statement)
  }

  // The contributions of some responses (all their analyzed rows, citations included) with a sign.
  // Adding upserts; subtracting only updates. `only_tag` limits the work to one tag's rollups.
  yield* sql.unsafe(`
    CREATE FUNCTION analytics_apply(response_ids bigint[], sign integer, only_tag bigint DEFAULT NULL)
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
    END
    $fn$`)

  // The citations of one INSERT statement (in `analytics_batch`), added to responses already counted.
  yield* sql.unsafe(`
    CREATE FUNCTION analytics_add_citations()
    RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      ${deltaTables}
      -- A response that already cited the source or URL (in an earlier statement) is not a new use of it.
      WITH added AS (
        SELECT r.id AS response_id, r.project_id, (r.collected_at AT TIME ZONE 'UTC')::date AS day, g.id AS group_id,
          r.prompt_id, c.source_id, c.source_url_id
        FROM analytics_batch b
        JOIN citations c ON c.id = b.id
        JOIN responses r ON r.id = c.response_id AND r.status = 'analyzed'
        JOIN analytics_groups g
          ON g.project_id = r.project_id AND g.monitor_id = r.monitor_id AND g.platform = r.platform AND g.country = r.country
      ),
      ${citationKeys.map((key) => `
        by_${key} AS (
          SELECT response_id, project_id, day, group_id, prompt_id, ${key}, count(*) AS cited FROM added
          GROUP BY response_id, project_id, day, group_id, prompt_id, ${key}
        )`).join(",")}
      INSERT INTO analytics_delta_citations (project_id, day, group_id, prompt_id, source_id, source_url_id, used, cited)
      ${citationKeys.map((key) => `
        SELECT k.project_id, k.day, k.group_id, k.prompt_id, ${keyColumns(key, `k.${key}`)},
          CASE WHEN EXISTS (
            SELECT 1 FROM citations o WHERE o.response_id = k.response_id AND o.${key} = k.${key}
              AND NOT EXISTS (SELECT 1 FROM analytics_batch b WHERE b.id = o.id)
          ) THEN 0 ELSE 1 END, k.cited
        FROM by_${key} k`).join(" UNION ALL ")};

      PERFORM analytics_merge(1, NULL);
    END
    $fn$`)

  yield* sql.unsafe(mergeFunction(rollups, false))

  // Responses: inserted ones add (their citations come in a later statement); one leaving subtracts,
  // unless its prompt or project is going too (see above).
  yield* trigger("analytics_responses_inserted", "AFTER INSERT ON responses REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT", `
    PERFORM analytics_apply(ARRAY(SELECT id FROM new_rows WHERE status = 'analyzed'), 1);
    RETURN NULL;`)
  yield* trigger("analytics_response_deleted", "BEFORE DELETE ON responses FOR EACH ROW", `
    IF OLD.status = 'analyzed'
      AND EXISTS (SELECT 1 FROM projects WHERE id = OLD.project_id)
      AND EXISTS (SELECT 1 FROM prompts WHERE id = OLD.prompt_id) THEN
      PERFORM analytics_apply(ARRAY[OLD.id], -1);
    END IF;
    RETURN OLD;`)
  // A change of what a response is counted under: out with the old row, in with the new one.
  const keyChanged = ["status", "collected_at", "platform", "country", "monitor_id", "prompt_id", "project_id"]
    .map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`).join(" OR ")
  yield* trigger("analytics_response_updating", `BEFORE UPDATE ON responses FOR EACH ROW WHEN (${keyChanged})`, `
    PERFORM analytics_apply(ARRAY[OLD.id], -1);
    RETURN NEW;`)
  yield* trigger("analytics_response_updated", `AFTER UPDATE ON responses FOR EACH ROW WHEN (${keyChanged})`, `
    PERFORM analytics_apply(ARRAY[NEW.id], 1);
    RETURN NULL;`)

  // Citations: the rows of each INSERT statement, as a batch.
  yield* trigger("analytics_citations_inserted", "AFTER INSERT ON citations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT", `
    CREATE TEMP TABLE IF NOT EXISTS analytics_batch (id bigint PRIMARY KEY) ON COMMIT DROP;
    TRUNCATE analytics_batch;
    INSERT INTO analytics_batch SELECT id FROM new_rows;
    PERFORM analytics_add_citations();
    RETURN NULL;`)

  // Prompts: one being deleted takes all its responses out at once, before they cascade.
  yield* trigger("analytics_prompt_deleted", "BEFORE DELETE ON prompts FOR EACH ROW", `
    IF EXISTS (SELECT 1 FROM projects WHERE id = OLD.project_id) THEN
      PERFORM analytics_apply(${analyzedResponsesOf("OLD.id")}, -1);
    END IF;
    RETURN OLD;`)

  // Tags of prompts: the tag filter counts the tags a prompt carries now.
  yield* trigger("analytics_tag_attached", "AFTER INSERT ON prompt_tags FOR EACH ROW", `
    PERFORM analytics_apply(${analyzedResponsesOf("NEW.prompt_id")}, 1, NEW.tag_id);
    RETURN NULL;`)
  yield* trigger("analytics_tag_detached", "AFTER DELETE ON prompt_tags FOR EACH ROW", `
    IF EXISTS (SELECT 1 FROM tags WHERE id = OLD.tag_id) AND EXISTS (SELECT 1 FROM prompts WHERE id = OLD.prompt_id) THEN
      PERFORM analytics_apply(${analyzedResponsesOf("OLD.prompt_id")}, -1, OLD.tag_id);
    END IF;
    RETURN NULL;`)

  // What is already stored.
  yield* sql`SELECT analytics_apply(ARRAY(SELECT id FROM responses WHERE status = 'analyzed'), 1)`
})
