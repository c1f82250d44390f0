import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The rollup triggers of 0003 serialized per project, so the rollups stay exact under any interleaving
 * of concurrent writes.
 *
 * The race they had: each trigger reads other tables to know what to count (the response trigger reads
 * the prompt's tags, the tag triggers read the prompt's responses and its other tags), and under READ
 * COMMITTED a trigger does not see what a concurrent transaction has not committed yet. Two tags
 * attached to one prompt at once both missed the pair (or, with the commits interleaved, both counted
 * it); an answer stored while a tag was attached to its prompt was counted under the tag twice or not
 * at all.
 *
 * The cure: every trigger function takes the project's rollup lock (a transaction-level advisory
 * lock, `analytics_lock`) before it reads anything. Writers of one project's rollups then run one after
 * the other, and each statement a trigger runs after taking the lock sees everything committed before
 * (a plpgsql statement takes a new snapshot under READ COMMITTED). So for any two writes, the second
 * to take the lock sees the first whole: the tag attached second counts the pair with the first; an
 * attach after an answer counts the answer, an answer after an attach counts the tag. Readers take no
 * lock: a read is one statement over rows that only ever change whole, with each writer's commit.
 *
 * Writes of different projects never wait for each other. Locks are taken in project id order where a
 * statement touches several projects. The bodies are 0003's, unchanged but for the lock.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // A 64-bit key per project, in a namespace of its own: no other advisory lock can collide with it.
  yield* sql.unsafe(`
    CREATE FUNCTION analytics_lock(project bigint) RETURNS void LANGUAGE sql AS $fn$
      SELECT pg_advisory_xact_lock(hashtextextended('bvm:analytics_rollups:' || project, 0))
    $fn$`)

  /** Replaces the body of a trigger function of 0003. */
  const replace = (name: string, body: string) =>
    sql.unsafe(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$ BEGIN ${body} END $fn$`)

  /** The lock of every project among some rows (`projects`: a query of `project_id`), in id order. */
  const lockAll = (projects: string) => `PERFORM analytics_lock(x.project_id) FROM (${projects} ORDER BY 1) x (project_id);`

  const analyzedResponsesOf = (promptId: string) =>
    `ARRAY(SELECT id FROM responses WHERE prompt_id = ${promptId} AND status = 'analyzed')`

  yield* replace("analytics_responses_inserted", `
    ${lockAll("SELECT DISTINCT project_id FROM new_rows WHERE status = 'analyzed'")}
    PERFORM analytics_apply(ARRAY(SELECT id FROM new_rows WHERE status = 'analyzed'), 1);
    RETURN NULL;`)

  yield* replace("analytics_response_deleted", `
    IF OLD.status = 'analyzed' THEN
      PERFORM analytics_lock(OLD.project_id);
      IF EXISTS (SELECT 1 FROM projects WHERE id = OLD.project_id)
        AND EXISTS (SELECT 1 FROM prompts WHERE id = OLD.prompt_id) THEN
        PERFORM analytics_apply(ARRAY[OLD.id], -1);
      END IF;
    END IF;
    RETURN OLD;`)

  yield* replace("analytics_response_updating", `
    PERFORM analytics_lock(OLD.project_id);
    PERFORM analytics_apply(ARRAY[OLD.id], -1);
    RETURN NEW;`)

  yield* replace("analytics_response_updated", `
    PERFORM analytics_lock(NEW.project_id);
    PERFORM analytics_apply(ARRAY[NEW.id], 1);
    RETURN NULL;`)

  yield* replace("analytics_citations_inserted", `
    ${lockAll("SELECT DISTINCT r.project_id FROM new_rows c JOIN responses r ON r.id = c.response_id")}
    CREATE TEMP TABLE IF NOT EXISTS analytics_batch (id bigint PRIMARY KEY) ON COMMIT DROP;
    TRUNCATE analytics_batch;
    INSERT INTO analytics_batch SELECT id FROM new_rows;
    PERFORM analytics_add_citations();
    RETURN NULL;`)

  yield* replace("analytics_prompt_deleted", `
    PERFORM analytics_lock(OLD.project_id);
    IF EXISTS (SELECT 1 FROM projects WHERE id = OLD.project_id) THEN
      PERFORM analytics_apply(${analyzedResponsesOf("OLD.id")}, -1);
    END IF;
    RETURN OLD;`)

  yield* replace("analytics_tag_attached", `
    PERFORM analytics_lock(p.project_id) FROM prompts p WHERE p.id = NEW.prompt_id;
    PERFORM analytics_apply(${analyzedResponsesOf("NEW.prompt_id")}, 1, NEW.tag_id);
    RETURN NULL;`)

  yield* replace("analytics_tag_detached", `
    PERFORM analytics_lock(p.project_id) FROM prompts p WHERE p.id = OLD.prompt_id;
    IF EXISTS (SELECT 1 FROM tags WHERE id = OLD.tag_id) AND EXISTS (SELECT 1 FROM prompts WHERE id = OLD.prompt_id) THEN
      PERFORM analytics_apply(${analyzedResponsesOf("OLD.prompt_id")}, -1, OLD.tag_id);
    END IF;
    RETURN NULL;`)
})
