import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { deltasOfMentions, deltasOfResponses, keptDeltaTables } from "./rollups.ts"

/**
 * The rollup upkeep of new answers taken off the write path: an answer is stored *pending*, and a
 * merger folds pending answers into the rollups later, in batches (docs/performance.md, "How analytics
 * stay fast"). Every read adds the pending answers' contribution from their raw rows, so an answer is
 * exact whether or not the merger has run (src/Analytics/AnalyticsSql.ts).
 *
 * `analytics_pending` holds one row per pending analyzed response. Inserting responses only adds their
 * rows there (a statement trigger); citations and mentions of a pending response change no rollup.
 * Writers of answers therefore take no project lock and touch no rollup row: nothing they do waits for
 * another writer of the project. `analytics_merge_pending(project, batch, wait)` claims up to `batch`
 * of the project's pending rows and adds those responses, with their citations and mentions as they
 * are then, to every rollup, in one transaction under the project's rollup lock (0006).
 *
 * Invariant: every rollup equals the aggregate of the analyzed responses that are *not* pending (with
 * their citations and mentions as they are now). Every trigger of 0003, 0005 and 0007 keeps it, because
 * `analytics_apply` now leaves pending responses out (they are in no rollup: nothing to add or subtract)
 * and the citation and mention triggers change rollups for responses that are not pending only. Why no
 * interleaving breaks it:
 *
 *   - A response leaves the queue only in a merger's transaction, under the project lock, and enters it
 *     only when it is inserted. Every structural change that reads state (a tag attached or detached, a
 *     prompt, response, tag, monitor or brand deleted, a status or key column changed) runs under the
 *     same lock (0006), so it sees the queue as the last merger left it, and each statement it runs after
 *     taking the lock sees everything committed before: the merger counted a response with the tags,
 *     mentions and status it then saw, and the structural change adjusts exactly the responses the
 *     merger has counted. A response inserted meanwhile is pending, so the structural change leaves it
 *     alone, and the merger later counts it as it then is.
 *   - Rows added to a pending response by another transaction than its own (a citation inserted later in
 *     plain SQL, mentions re-detected by `cli reanalyze`): the trigger locks the response's queue row
 *     (`FOR KEY SHARE`) until it commits. A merger claims queue rows `FOR UPDATE SKIP LOCKED`, so it
 *     never claims a response whose rows are still being written, and reads them all once they are
 *     committed (its later statements take new snapshots). If the merger claimed the response first,
 *     the trigger's lock waits for the merger's commit, then finds the row gone: the response is counted,
 *     and the trigger adds its rows under the project lock as before. The project locks such a trigger
 *     needs are taken before any queue row is locked, so it never holds a queue row while waiting for a
 *     project lock, except when a merger claimed one between its check and its lock (then that merger
 *     has committed, and only a deletion of that same response can wait on it: PostgreSQL would break
 *     such a deadlock, and the writes of the service retry).
 *   - A pending response deleted: its queue row goes with it (nothing was counted). A merger that has
 *     claimed it is waited for; then the response is counted, and subtracted as any other.
 *   - Readers take no lock: a read is one statement, and a merger's transaction moves responses from the
 *     queue into the rollups at once, so every snapshot sees each response on exactly one side.
 *
 * Every response already stored is counted in the rollups (0003 to 0007 kept them): the queue starts
 * empty. The bodies of `analytics_apply` and of the mention triggers are 0007's, but for the pending
 * responses left out.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // No foreign key: the triggers below keep it (a check per enqueued row would cost every insert).
  yield* sql`
    CREATE TABLE analytics_pending (
      response_id bigint PRIMARY KEY,
      project_id bigint NOT NULL
    )`
  yield* sql`CREATE INDEX analytics_pending_project_id_index ON analytics_pending (project_id, response_id)`

  // 0007's function, for the responses among `response_ids` that are not pending.
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
        FROM responses r WHERE r.id = ANY (response_ids) AND r.status = 'analyzed'
        ON CONFLICT DO NOTHING;
      END IF;

      ${deltasOfResponses}

      PERFORM analytics_merge(sign, only_tag);

      ${deltasOfMentions}
      PERFORM analytics_merge_brands(sign, true, only_tag);
    END
    $fn$`)

  // Up to `batch` pending responses of the project merged into the rollups; how many, or -1 when another
  // transaction holds the project's rollup lock and `wait` is false.
  yield* sql.unsafe(`
    CREATE FUNCTION analytics_merge_pending(project bigint, batch integer, wait boolean DEFAULT true)
    RETURNS integer LANGUAGE plpgsql SET jit = off AS $fn$
    DECLARE
      claimed bigint[];
    BEGIN
      IF wait THEN
        PERFORM analytics_lock(project);
      ELSIF NOT pg_try_advisory_xact_lock(hashtextextended('bvm:analytics_rollups:' || project, 0)) THEN
        RETURN -1;
      END IF;
      -- Rows locked by a writer still adding to their response are left for a later merge.
      WITH taken AS (
        DELETE FROM analytics_pending WHERE response_id IN (
          SELECT response_id FROM analytics_pending WHERE project_id = project
          ORDER BY response_id LIMIT batch FOR UPDATE SKIP LOCKED)
        RETURNING response_id
      )
      SELECT coalesce(array_agg(response_id), '{}') INTO claimed FROM taken;
      IF cardinality(claimed) > 0 THEN
        PERFORM analytics_apply(claimed, 1);
      END IF;
      RETURN cardinality(claimed);
    END
    $fn$`)

  // Of some responses, those still pending, their queue rows locked until this transaction ends (see
  // above); the rollup lock of the others' projects taken first.
  yield* sql.unsafe(`
    CREATE FUNCTION analytics_hold_pending(response_ids bigint[]) RETURNS bigint[] LANGUAGE plpgsql AS $fn$
    DECLARE
      held bigint[];
    BEGIN
      response_ids := ARRAY(SELECT DISTINCT x.id FROM unnest(response_ids) x (id) ORDER BY 1);
      IF EXISTS (
        SELECT 1 FROM unnest(response_ids) x (id) WHERE NOT EXISTS (SELECT 1 FROM analytics_pending q WHERE q.response_id = x.id)
      ) THEN
        PERFORM analytics_lock(x.project_id) FROM (SELECT DISTINCT project_id FROM responses WHERE id = ANY (response_ids) ORDER BY 1) x;
      END IF;
      held := ARRAY(SELECT response_id FROM analytics_pending WHERE response_id = ANY (response_ids) ORDER BY 1 FOR KEY SHARE);
      IF cardinality(held) < cardinality(response_ids) THEN
        PERFORM analytics_lock(x.project_id) FROM (SELECT DISTINCT project_id FROM responses WHERE id = ANY (response_ids) ORDER BY 1) x;
      END IF;
      RETURN held;
    END
    $fn$`)

  /** Replaces the body of a trigger function. */
  const replace = (name: string, declare: string, body: string) =>
    sql.unsafe(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $fn$ ${declare} BEGIN ${body} END $fn$`)

  // Inserted analyzed responses are pending: no lock, no rollup.
  yield* replace("analytics_responses_inserted", "", `
    INSERT INTO analytics_pending (response_id, project_id) SELECT id, project_id FROM new_rows WHERE status = 'analyzed';
    RETURN NULL;`)

  // A deleted response leaves the queue (it was never counted), or is subtracted as before (0006).
  yield* replace("analytics_response_deleted", "", `
    DELETE FROM analytics_pending WHERE response_id = OLD.id;
    IF NOT FOUND AND OLD.status = 'analyzed' THEN
      PERFORM analytics_lock(OLD.project_id);
      IF EXISTS (SELECT 1 FROM projects WHERE id = OLD.project_id)
        AND EXISTS (SELECT 1 FROM prompts WHERE id = OLD.prompt_id) THEN
        PERFORM analytics_apply(ARRAY[OLD.id], -1);
      END IF;
    END IF;
    RETURN OLD;`)

  // A pending response moved to another project stays pending there.
  yield* replace("analytics_response_updated", "", `
    PERFORM analytics_lock(NEW.project_id);
    UPDATE analytics_pending SET project_id = NEW.project_id WHERE response_id = NEW.id AND project_id <> NEW.project_id;
    PERFORM analytics_apply(ARRAY[NEW.id], 1);
    RETURN NULL;`)

  // Citations: those of pending responses wait for the merger; the others are added as before.
  yield* replace("analytics_citations_inserted", "DECLARE pending bigint[];", `
    pending := analytics_hold_pending(ARRAY(SELECT response_id FROM new_rows));
    IF NOT EXISTS (SELECT 1 FROM new_rows WHERE response_id <> ALL (pending)) THEN
      RETURN NULL;
    END IF;
    CREATE TEMP TABLE IF NOT EXISTS analytics_batch (id bigint PRIMARY KEY) ON COMMIT DROP;
    TRUNCATE analytics_batch;
    INSERT INTO analytics_batch SELECT id FROM new_rows WHERE response_id <> ALL (pending);
    PERFORM analytics_add_citations();
    RETURN NULL;`)

  // Mentions stored, re-detected or deleted by themselves (0007): those of pending responses change no rollup.
  const applyMentions = (table: "new_rows" | "old_rows", sign: 1 | -1) => `
      ${keptDeltaTables}
      INSERT INTO analytics_delta_mentions
      SELECT r.project_id, (r.collected_at AT TIME ZONE 'UTC')::date, g.id, r.prompt_id, m.brand_id, m.position, m.sentiment_score
      FROM ${table} m
      JOIN responses r ON r.id = m.response_id AND r.status = 'analyzed'
      JOIN projects p ON p.id = r.project_id
      LEFT JOIN analytics_groups g
        ON g.project_id = r.project_id AND g.monitor_id = r.monitor_id AND g.platform = r.platform AND g.country = r.country
      WHERE m.response_id <> ALL (pending);
      PERFORM analytics_merge_brands(${sign}, false, NULL);`
  const mentionTrigger = (name: string, tables: ReadonlyArray<readonly ["new_rows" | "old_rows", 1 | -1]>) =>
    replace(name, "DECLARE pending bigint[];", `
      -- A statement that changed nothing (an upsert of mentions detected again unchanged) costs nothing.
      IF ${tables.map(([table]) => `NOT EXISTS (SELECT 1 FROM ${table})`).join(" AND ")} THEN
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
})
