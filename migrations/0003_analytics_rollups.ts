import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Daily rollups of analyzed responses and their citations, kept exact by triggers, so that analytics
 * sum a few hundred thousand day rows instead of joining millions of citations (docs/performance.md).
 *
 * A response is counted under its UTC day and its group: (monitor, platform, country) of the response.
 * Each rollup holds, per day and key, `used` (responses citing the source or URL) and `cited` (their
 * citations of it); the totals tables count the responses themselves. Three cuts of each:
 *   - `*_daily`:       per project and day: no filter;
 *   - `*_group_daily`: per group as well: any of the platform, country and monitor filters;
 *   - `*_tag_daily`:   per tag the prompt carries now: the tag filter;
 *   - `*_tag_group_daily`: per tag and group: the tag filter with any of the others.
 * Sources and URLs also have `*_monthly` twins of each (`day` = the month's first day): a long
 * window sums its whole months from them and only its other days from the daily rows.
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
/**
 * One rollup table: what it counts (responses, or uses and citations of a source or URL), its cut, and
 * its grain: days, or calendar months (`day` holds the month's first day) so that the whole months of
 * a long window are summed from a twentieth of the rows.
 */
interface Rollup {
  readonly table: string
  readonly counts: "responses" | "source_id" | "source_url_id"
  readonly cut: "all" | "group" | "tag" | "tag_group"
  readonly grain: "daily" | "monthly"
}

const rollups: ReadonlyArray<Rollup> = (["responses", "source_id", "source_url_id"] as const).flatMap((counts) =>
  (["all", "group", "tag", "tag_group"] as const).flatMap((cut) =>
    (counts === "responses" ? ["daily"] as const : ["daily", "monthly"] as const).map((grain) => ({
      table: `${{ responses: "response", source_id: "source", source_url_id: "url" }[counts]}_${cut === "all" ? "" : `${cut}_`}${grain}`,
      counts,
      cut,
      grain
    }))
  )
)

/** The columns of a rollup's cut: none, the group, the tag, or both. */
const cutKey = (rollup: Rollup): Array<string> =>
  ({ all: [], group: ["group_id"], tag: ["tag_id"], tag_group: ["tag_id", "group_id"] })[rollup.cut]

/** Whether the rollup counts per tag (and so follows tags attached and detached). */
const byTag = (rollup: Rollup) => rollup.cut === "tag" || rollup.cut === "tag_group"

/** The rollup's key columns after (project_id, day), and the delta rows it is summed from. */
const shapeOf = (rollup: Rollup) => {
  const key = [...cutKey(rollup), ...(rollup.counts === "responses" ? [] : [rollup.counts])]
  const values = rollup.counts === "responses" ? ["responses"] : ["used", "cited"]
  const aggregates = rollup.counts === "responses" ? "count(*)" : "sum(d.used), sum(d.cited)"
  // The tags a delta counts under: the prompt's tags now, or only the tag being attached or detached
  // (whose prompt_tags row may already be gone).
  const tags = byTag(rollup)
    ? `CROSS JOIN LATERAL (
        SELECT pt.tag_id FROM prompt_tags pt WHERE only_tag IS NULL AND pt.prompt_id = d.prompt_id
        UNION ALL SELECT only_tag WHERE only_tag IS NOT NULL
      ) tags`
    : ""
  const columns = ["project_id", "day", ...key]
  const source = rollup.counts === "responses" ? "analytics_delta_responses" : "analytics_delta_citations"
  // A citation delta counts a source or a URL: the other key is null.
  const filter = rollup.counts === "responses" ? "" : `WHERE d.${rollup.counts} IS NOT NULL`
  const expression = (column: string) =>
    column === "tag_id"
      ? "tags.tag_id"
      : column === "day" && rollup.grain === "monthly"
      ? "date_trunc('month', d.day)::date"
      : `d.${column}`
  const select = `SELECT ${columns.map(expression).join(", ")}, ${aggregates}
    FROM ${source} d ${tags} ${filter}
    GROUP BY ${columns.map(expression).join(", ")}`
  return { columns, values, select }
}

const upsert = (rollup: Rollup) => {
  const { columns, select, values } = shapeOf(rollup)
  return `INSERT INTO ${rollup.table} AS t (${[...columns, ...values].join(", ")})
    ${select}
    ON CONFLICT (${columns.join(", ")}) DO UPDATE SET ${values.map((value) => `${value} = t.${value} + excluded.${value}`).join(", ")};`
}

const subtract = (rollup: Rollup) => {
  const { columns, select, values } = shapeOf(rollup)
  return `UPDATE ${rollup.table} AS t SET ${values.map((value) => `${value} = t.${value} - x.${value}`).join(", ")}
    FROM (${select}) AS x (${[...columns, ...values].join(", ")})
    WHERE ${columns.map((column) => `t.${column} = x.${column}`).join(" AND ")};`
}

/** The ids of a prompt's analyzed responses, as a SQL array (`promptId` an expression). */
const analyzedResponsesOf = (promptId: string) =>
  `ARRAY(SELECT id FROM responses WHERE prompt_id = ${promptId} AND status = 'analyzed')`

/** The keys a citation delta row counts under: its source, or its exact URL (the other one null). */
const citationKeys = ["source_id", "source_url_id"] as const

/** The (source_id, source_url_id) values of a delta row counting `value` under `key`. */
const keyColumns = (key: (typeof citationKeys)[number], value: string) =>
  key === "source_id" ? `${value}, NULL` : `NULL, ${value}`

/** Scratch tables of one transaction: the rows being added or subtracted, before they are summed. */
const deltaTables = `
  CREATE TEMP TABLE IF NOT EXISTS analytics_delta_responses (
    project_id bigint, day date, group_id bigint, prompt_id bigint, response_id bigint
  ) ON COMMIT DROP;
  CREATE TEMP TABLE IF NOT EXISTS analytics_delta_citations (
    project_id bigint, day date, group_id bigint, prompt_id bigint, source_id bigint, source_url_id bigint,
    used integer, cited integer
  ) ON COMMIT DROP;
  TRUNCATE analytics_delta_responses, analytics_delta_citations;`

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

  // Each primary key leads with the cut and the day and carries the counts: a window of a cut is one
  // index-only range scan. Lifetime dates (first/last seen) and the foreign keys' cascades look rows up
  // by source, URL, group or tag.
  const references: Record<string, string> = {
    group_id: "analytics_groups (id)",
    tag_id: "tags (id)",
    source_id: "sources (id)",
    source_url_id: "source_urls (id)"
  }
  for (const rollup of rollups) {
    const { columns, values } = shapeOf(rollup)
    const key = columns.slice(2)
    const primaryKey = ["project_id", ...cutKey(rollup), "day", ...key.slice(cutKey(rollup).length)]
    yield* sql.unsafe(`
      CREATE TABLE ${rollup.table} (
        project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        day date NOT NULL,
        ${key.map((column) => `${column} bigint NOT NULL REFERENCES ${references[column]} ON DELETE CASCADE,`).join("\n")}
        ${values.map((value) => `${value} integer NOT NULL,`).join("\n")}
        PRIMARY KEY (${primaryKey.join(", ")}) INCLUDE (${values.join(", ")})
      )`)
    for (const column of key) {
      const lifetime = rollup.cut === "all" && rollup.grain === "daily" && column !== "group_id" && column !== "tag_id"
      yield* sql.unsafe(`CREATE INDEX ${rollup.table}_${column}_index ON ${rollup.table} (${column}${lifetime ? ", day" : ""})`)
    }
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

      -- LEFT JOIN: while a monitor is being deleted its groups may be gone before its responses are.
      INSERT INTO analytics_delta_responses
      SELECT r.project_id, (r.collected_at AT TIME ZONE 'UTC')::date, g.id, r.prompt_id, r.id
      FROM responses r
      LEFT JOIN analytics_groups g
        ON g.project_id = r.project_id AND g.monitor_id = r.monitor_id AND g.platform = r.platform AND g.country = r.country
      WHERE r.id = ANY (response_ids) AND r.status = 'analyzed';

      -- Per response and source (then per response and URL): one use, its number of citations.
      ${citationKeys.map((key) => `
        INSERT INTO analytics_delta_citations (project_id, day, group_id, prompt_id, source_id, source_url_id, used, cited)
        SELECT d.project_id, d.day, d.group_id, d.prompt_id, ${keyColumns(key, `c.${key}`)}, 1, count(*)
        FROM analytics_delta_responses d JOIN citations c ON c.response_id = d.response_id
        GROUP BY d.response_id, d.project_id, d.day, d.group_id, d.prompt_id, c.${key};`).join("\n")}

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

  yield* sql.unsafe(`
    CREATE FUNCTION analytics_merge(sign integer, only_tag bigint)
    RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      IF sign > 0 THEN
        IF only_tag IS NULL THEN
          ${rollups.filter((rollup) => !byTag(rollup)).map(upsert).join("\n")}
        END IF;
        ${rollups.filter(byTag).map(upsert).join("\n")}
      ELSE
        IF only_tag IS NULL THEN
          ${rollups.filter((rollup) => !byTag(rollup)).map(subtract).join("\n")}
        END IF;
        ${rollups.filter(byTag).map(subtract).join("\n")}
      END IF;
    END
    $fn$`)
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
