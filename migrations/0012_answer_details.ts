import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { answerStates, finishReasons } from "../src/Domain/Response.ts"
import {
  citationKeys,
  deltasOfCountedResponses,
  deltasOfMentions,
  deltaTables,
  isCountedResponse,
  keptDeltaTables,
  keyColumns
} from "./rollups.ts"

/**
 * What a platform reports of an answer beyond its text and citations (docs/api.md, "Answer details"),
 * per response: the model that answered, the answer's state (`answered`, `refused`, `empty`,
 * `no_answer`), why it stopped (`finish_reason`), its tokens and cost, the searches it ran and the URLs
 * it retrieved without citing them. Every response stored before is an answer (`answered`), with nothing
 * else reported.
 *
 * Only answers count in the analytics (docs/metrics.md, "Which answers are counted"): a refusal, an empty
 * answer or a page without an AI answer is kept and listed, but is no "analyzed response" of any
 * denominator. The rollups' invariant becomes: every rollup equals the aggregate of the analyzed
 * responses whose state is `answered` and that are not pending (0008). The triggers keep it by counting
 * only those (`isCountedResponse`), on every path of 0003 to 0008:
 *   - an inserted response is queued for the merger (0008) only when it counts; the merger and every
 *     structural change go through `analytics_apply`, which now adds or subtracts counted responses only
 *     (the ids it is given may include others: a prompt's, a tag's, a deleted one's);
 *   - citations and mentions stored, re-detected or deleted by themselves change the rollups for counted
 *     responses only; a statement touching none of those takes no lock;
 *   - a change of `answer_state` (plain SQL: the service never changes it) takes the response out and
 *     puts it back in, as a change of status or key columns does (0003).
 * Nothing counted before changes: every existing response is `answered`.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const list = (values: ReadonlyArray<string>) => values.map((value) => `'${value}'`).join(", ")

  yield* sql.unsafe(`
    ALTER TABLE responses
      ADD COLUMN model text,
      ADD COLUMN answer_state varchar(16) NOT NULL DEFAULT 'answered' CHECK (answer_state IN (${list(answerStates)})),
      ADD COLUMN finish_reason varchar(16) CHECK (finish_reason IN (${list(finishReasons)})),
      ADD COLUMN input_tokens integer CHECK (input_tokens >= 0),
      ADD COLUMN output_tokens integer CHECK (output_tokens >= 0),
      ADD COLUMN cost_usd double precision CHECK (cost_usd >= 0),
      ADD COLUMN search_queries text[] NOT NULL DEFAULT '{}',
      ADD COLUMN retrieved_urls text[] NOT NULL DEFAULT '{}'`)

  // 0008's function, for the counted responses among `response_ids` that are not pending.
  yield* sql.unsafe(`
    CREATE OR REPLACE FUNCTION analytics_apply(response_ids bigint[], sign integer, only_tag bigint DEFAULT NULL)
    RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      response_ids := ARRAY(
        SELECT x.id FROM unnest(response_ids) x (id)
        WHERE NOT EXISTS (SELECT 1 FROM analytics_pending q WHERE q.response_id = x.id));
      IF cardinality(response_ids) = 0 THEN
        RETURN;
      END IF;
      ${keptDeltaTables}
      IF sign > 0 THEN
        INSERT INTO analytics_groups (project_id, monitor_id, platform, country)
        SELECT DISTINCT r.project_id, r.monitor_id, r.platform, r.country
        FROM responses r WHERE r.id = ANY (response_ids) AND ${isCountedResponse("r")}
        ON CONFLICT DO NOTHING;
      END IF;

      ${deltasOfCountedResponses}

      PERFORM analytics_merge(sign, only_tag);

      ${deltasOfMentions}
      PERFORM analytics_merge_brands(sign, true, only_tag);
    END
    $fn$`)

  // 0003's function, for the citations of counted responses only.
  yield* sql.unsafe(`
    CREATE OR REPLACE FUNCTION analytics_add_citations()
    RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      ${deltaTables}
      -- A response that already cited the source or URL (in an earlier statement) is not a new use of it.
      WITH added AS (
        SELECT r.id AS response_id, r.project_id, (r.collected_at AT TIME ZONE 'UTC')::date AS day, g.id AS group_id,
          r.prompt_id, c.source_id, c.source_url_id
        FROM analytics_batch b
        JOIN citations c ON c.id = b.id
        JOIN responses r ON r.id = c.response_id AND ${isCountedResponse("r")}
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

  /** Replaces the body of a trigger function. */
  const replace = (name: string, declare: string, body: string) =>
    sql.unsafe(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$ ${declare} BEGIN ${body} END $fn$`)

  // Inserted counted responses are pending (0008); the others are never counted.
  yield* replace("analytics_responses_inserted", "", `
    INSERT INTO analytics_pending (response_id, project_id)
    SELECT id, project_id FROM new_rows WHERE status = 'analyzed' AND answer_state = 'answered';
    RETURN NULL;`)

  // 0008's, for counted responses only.
  yield* replace("analytics_response_deleted", "", `
    DELETE FROM analytics_pending WHERE response_id = OLD.id;
    IF NOT FOUND AND OLD.status = 'analyzed' AND OLD.answer_state = 'answered' THEN
      PERFORM analytics_lock(OLD.project_id);
      IF EXISTS (SELECT 1 FROM projects WHERE id = OLD.project_id)
        AND EXISTS (SELECT 1 FROM prompts WHERE id = OLD.prompt_id) THEN
        PERFORM analytics_apply(ARRAY[OLD.id], -1);
      END IF;
    END IF;
    RETURN OLD;`)

  /** A statement of citations or mentions that touches no counted response changes nothing, and takes no lock. */
  const noneCounted = (tables: ReadonlyArray<"new_rows" | "old_rows">) =>
    tables.map((table) => `
      NOT EXISTS (SELECT 1 FROM ${table} t JOIN responses r ON r.id = t.response_id WHERE ${isCountedResponse("r")})`).join(" AND ")

  // Citations (0008's), those of counted responses only.
  yield* replace("analytics_citations_inserted", "DECLARE pending bigint[];", `
    IF ${noneCounted(["new_rows"])} THEN
      RETURN NULL;
    END IF;
    pending := analytics_hold_pending(ARRAY(SELECT response_id FROM new_rows));
    IF NOT EXISTS (SELECT 1 FROM new_rows WHERE response_id <> ALL (pending)) THEN
      RETURN NULL;
    END IF;
    CREATE TEMP TABLE IF NOT EXISTS analytics_batch (id bigint PRIMARY KEY) ON COMMIT DROP;
    TRUNCATE analytics_batch;
    INSERT INTO analytics_batch SELECT id FROM new_rows WHERE response_id <> ALL (pending);
    PERFORM analytics_add_citations();
    RETURN NULL;`)

  // Mentions (0008's), those of counted responses only.
  const applyMentions = (table: "new_rows" | "old_rows", sign: 1 | -1) => `
      ${keptDeltaTables}
      INSERT INTO analytics_delta_mentions
      SELECT r.project_id, (r.collected_at AT TIME ZONE 'UTC')::date, g.id, r.prompt_id, m.brand_id, m.position, m.sentiment_score
      FROM ${table} m
      JOIN responses r ON r.id = m.response_id AND ${isCountedResponse("r")}
      JOIN projects p ON p.id = r.project_id
      LEFT JOIN analytics_groups g
        ON g.project_id = r.project_id AND g.monitor_id = r.monitor_id AND g.platform = r.platform AND g.country = r.country
      WHERE m.response_id <> ALL (pending);
      PERFORM analytics_merge_brands(${sign}, false, NULL);`
  const mentionTrigger = (name: string, tables: ReadonlyArray<readonly ["new_rows" | "old_rows", 1 | -1]>) =>
    replace(name, "DECLARE pending bigint[];", `
      -- A statement that changed nothing, or only rows of responses that do not count, costs nothing.
      IF ${noneCounted(tables.map(([table]) => table))} THEN
        RETURN NULL;
      END IF;
      pending := analytics_hold_pending(ARRAY(${tables.map(([table]) => `SELECT response_id FROM ${table}`).join(" UNION ")}));
      IF ${tables.map(([table]) => `NOT EXISTS (SELECT 1 FROM ${table} WHERE response_id <> ALL (pending))`).join(" AND ")} THEN
        RETURN NULL;
      END IF;
      ${tables.map(([table, sign]) => applyMentions(table, sign)).join("\n")}
      RETURN NULL;`)
  yield* mentionTrigger("analytics_mentions_inserted", [["new_rows", 1]])
  yield* mentionTrigger("analytics_mentions_deleted", [["old_rows", -1]])
  yield* mentionTrigger("analytics_mentions_updated", [["old_rows", -1], ["new_rows", 1]])

  // A change of the answer state recounts the response, as a change of status or key columns does
  // (0003's triggers, their functions 0006's and 0008's).
  const keyChanged = ["status", "answer_state", "collected_at", "platform", "country", "monitor_id", "prompt_id", "project_id"]
    .map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`).join(" OR ")
  yield* sql`DROP TRIGGER analytics_response_updating ON responses`
  yield* sql`DROP TRIGGER analytics_response_updated ON responses`
  yield* sql.unsafe(
    `CREATE TRIGGER analytics_response_updating BEFORE UPDATE ON responses FOR EACH ROW WHEN (${keyChanged}) EXECUTE FUNCTION analytics_response_updating()`
  )
  yield* sql.unsafe(
    `CREATE TRIGGER analytics_response_updated AFTER UPDATE ON responses FOR EACH ROW WHEN (${keyChanged}) EXECUTE FUNCTION analytics_response_updated()`
  )
})
