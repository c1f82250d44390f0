/**
 * The shape of the analytics rollups and the SQL that keeps them, shared by the migrations that
 * create them: 0003 (the whole project, per group, per tag, per tag and group) and 0005 (per pair of
 * tags, with and without the group). Not a migration itself.
 *
 * Landed migrations generate their SQL from here, so what this module generates for a cut must never
 * change: a new cut is an addition, and a change to an existing one is a new migration.
 *
 * A response is counted under its UTC day and its group: (monitor, platform, country) of the response.
 * Each rollup holds, per day and key, `used` (responses citing the source or URL) and `cited` (their
 * citations of it); the `response_*` tables count the responses themselves. Sources and URLs also have
 * `*_monthly` twins of each cut (`day` = the month's first day): a long window sums its whole months
 * from them and only its other days from the daily rows.
 */

/** Which responses a rollup row counts, besides its project and day. */
export type Cut =
  /** all of them: no filter */
  | "all"
  /** those of one group: any of the platform, country and monitor filters */
  | "group"
  /** those whose prompt carries the tag now: the tag filter */
  | "tag"
  /** per tag and group: the tag filter with any of the others */
  | "tag_group"
  /** those whose prompt carries both tags (`tag_id` < `other_tag_id`): several tags */
  | "tag_pair"
  /** per pair of tags and group: several tags with any of the other filters */
  | "tag_pair_group"

/** One rollup table: what it counts (responses, or uses and citations of a source or URL), its cut and grain. */
export interface Rollup {
  readonly table: string
  readonly counts: "responses" | "source_id" | "source_url_id"
  readonly cut: Cut
  readonly grain: "daily" | "monthly"
}

/** Every rollup of some cuts: responses per day, sources and URLs per day and per month. */
export const rollupsOf = (cuts: ReadonlyArray<Cut>): ReadonlyArray<Rollup> =>
  (["responses", "source_id", "source_url_id"] as const).flatMap((counts) =>
    cuts.flatMap((cut) =>
      (counts === "responses" ? ["daily"] as const : ["daily", "monthly"] as const).map((grain) => ({
        table: `${{ responses: "response", source_id: "source", source_url_id: "url" }[counts]}_${cut === "all" ? "" : `${cut}_`}${grain}`,
        counts,
        cut,
        grain
      }))
    )
  )

/** The columns of a rollup's cut. */
const cutKey = (rollup: Rollup): Array<string> =>
  ({
    all: [],
    group: ["group_id"],
    tag: ["tag_id"],
    tag_group: ["tag_id", "group_id"],
    tag_pair: ["tag_id", "other_tag_id"],
    tag_pair_group: ["tag_id", "other_tag_id", "group_id"]
  })[rollup.cut]

/** Whether the rollup counts per tag (and so follows tags attached and detached). */
export const byTag = (rollup: Rollup) => rollup.cut !== "all" && rollup.cut !== "group"

/** Whether the rollup counts per pair of tags. */
const byPair = (rollup: Rollup) => rollup.cut === "tag_pair" || rollup.cut === "tag_pair_group"

/**
 * The tags (or pairs of tags) a delta row `d` counts under: those of its prompt now, or, when `only_tag`
 * is set, only those of the tag being attached or detached (whose prompt_tags row may already be gone):
 * the tag itself, or its pairs with the prompt's other tags.
 */
const tagsOf = (rollup: Rollup) =>
  byPair(rollup)
    ? `CROSS JOIN LATERAL (
        SELECT a.tag_id, b.tag_id AS other_tag_id
        FROM prompt_tags a JOIN prompt_tags b ON b.prompt_id = a.prompt_id AND b.tag_id > a.tag_id
        WHERE only_tag IS NULL AND a.prompt_id = d.prompt_id
        UNION ALL
        SELECT least(only_tag, b.tag_id), greatest(only_tag, b.tag_id)
        FROM prompt_tags b WHERE only_tag IS NOT NULL AND b.prompt_id = d.prompt_id AND b.tag_id <> only_tag
      ) tags`
    : `CROSS JOIN LATERAL (
        SELECT pt.tag_id FROM prompt_tags pt WHERE only_tag IS NULL AND pt.prompt_id = d.prompt_id
        UNION ALL SELECT only_tag WHERE only_tag IS NOT NULL
      ) tags`

/** The rollup's key columns after (project_id, day), and the delta rows it is summed from. */
const shapeOf = (rollup: Rollup) => {
  const key = [...cutKey(rollup), ...(rollup.counts === "responses" ? [] : [rollup.counts])]
  const values = rollup.counts === "responses" ? ["responses"] : ["used", "cited"]
  const aggregates = rollup.counts === "responses" ? "count(*)" : "sum(d.used), sum(d.cited)"
  const tags = byTag(rollup) ? tagsOf(rollup) : ""
  const columns = ["project_id", "day", ...key]
  const source = rollup.counts === "responses" ? "analytics_delta_responses" : "analytics_delta_citations"
  // A citation delta counts a source or a URL: the other key is null.
  const filter = rollup.counts === "responses" ? "" : `WHERE d.${rollup.counts} IS NOT NULL`
  const expression = (column: string) =>
    column === "tag_id" || column === "other_tag_id"
      ? `tags.${column}`
      : column === "day" && rollup.grain === "monthly"
      ? "date_trunc('month', d.day)::date"
      : `d.${column}`
  const select = `SELECT ${columns.map(expression).join(", ")}, ${aggregates}
    FROM ${source} d ${tags} ${filter}
    GROUP BY ${columns.map(expression).join(", ")}`
  return { columns, values, select }
}

/** Adds the delta rows to a rollup. */
export const upsert = (rollup: Rollup) => {
  const { columns, select, values } = shapeOf(rollup)
  return `INSERT INTO ${rollup.table} AS t (${[...columns, ...values].join(", ")})
    ${select}
    ON CONFLICT (${columns.join(", ")}) DO UPDATE SET ${values.map((value) => `${value} = t.${value} + excluded.${value}`).join(", ")};`
}

/** Subtracts the delta rows from a rollup: only updates, so a deleted group is never resurrected. */
export const subtract = (rollup: Rollup) => {
  const { columns, select, values } = shapeOf(rollup)
  return `UPDATE ${rollup.table} AS t SET ${values.map((value) => `${value} = t.${value} - x.${value}`).join(", ")}
    FROM (${select}) AS x (${[...columns, ...values].join(", ")})
    WHERE ${columns.map((column) => `t.${column} = x.${column}`).join(" AND ")};`
}

const references: Record<string, string> = {
  group_id: "analytics_groups (id)",
  tag_id: "tags (id)",
  other_tag_id: "tags (id)",
  source_id: "sources (id)",
  source_url_id: "source_urls (id)"
}

/**
 * The statements creating a rollup table. Its primary key leads with the cut and the day and carries the
 * counts: a window of a cut is one index-only range scan. Lifetime dates (first/last seen) and the
 * foreign keys' cascades look rows up by source, URL, group or tag.
 */
export const createTable = (rollup: Rollup): Array<string> => {
  const { columns, values } = shapeOf(rollup)
  const key = columns.slice(2)
  const primaryKey = ["project_id", ...cutKey(rollup), "day", ...key.slice(cutKey(rollup).length)]
  return [
    `
      CREATE TABLE ${rollup.table} (
        project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        day date NOT NULL,
        ${key.map((column) => `${column} bigint NOT NULL REFERENCES ${references[column]} ON DELETE CASCADE,`).join("\n")}
        ${values.map((value) => `${value} integer NOT NULL,`).join("\n")}
        PRIMARY KEY (${primaryKey.join(", ")}) INCLUDE (${values.join(", ")})
      )`,
    ...key.map((column) => {
      const lifetime = rollup.cut === "all" && rollup.grain === "daily" && column !== "group_id" && column !== "tag_id"
      return `CREATE INDEX ${rollup.table}_${column}_index ON ${rollup.table} (${column}${lifetime ? ", day" : ""})`
    })
  ]
}

/**
 * A daily URL rollup's index by URL and day, carrying the cut's columns and `used`, in place of the
 * one by URL alone: a time series reads its top URLs' days from it without touching the table, and the
 * URLs' cascade still finds their rows.
 */
export const coveringUrlIndex = (rollup: Rollup): Array<string> => {
  const name = `${rollup.table}_source_url_id_index`
  return [
    `DROP INDEX ${name}`,
    `CREATE INDEX ${name} ON ${rollup.table} (source_url_id, day) INCLUDE (${[...cutKey(rollup), "used"].join(", ")})`
  ]
}

/** The keys a citation delta row counts under: its source, or its exact URL (the other one null). */
export const citationKeys = ["source_id", "source_url_id"] as const

/** The (source_id, source_url_id) values of a delta row counting `value` under `key`. */
export const keyColumns = (key: (typeof citationKeys)[number], value: string) =>
  key === "source_id" ? `${value}, NULL` : `NULL, ${value}`

/** Scratch tables of one transaction: the rows being added or subtracted, before they are summed. */
export const deltaTables = `
  CREATE TEMP TABLE IF NOT EXISTS analytics_delta_responses (
    project_id bigint, day date, group_id bigint, prompt_id bigint, response_id bigint
  ) ON COMMIT DROP;
  CREATE TEMP TABLE IF NOT EXISTS analytics_delta_citations (
    project_id bigint, day date, group_id bigint, prompt_id bigint, source_id bigint, source_url_id bigint,
    used integer, cited integer
  ) ON COMMIT DROP;
  TRUNCATE analytics_delta_responses, analytics_delta_citations;`

/**
 * The delta rows of the analyzed responses among `response_ids` (a plpgsql `bigint[]`), all their rows,
 * citations included. LEFT JOIN: while a monitor is being deleted its groups may be gone before its
 * responses are.
 */
export const deltasOfResponses = `
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
        GROUP BY d.response_id, d.project_id, d.day, d.group_id, d.prompt_id, c.${key};`).join("\n")}`

/**
 * `analytics_merge(sign, only_tag)`: the delta rows added to (sign > 0) or subtracted from every rollup,
 * or only from those counting per tag when `only_tag` is set.
 */
export const mergeFunction = (rollups: ReadonlyArray<Rollup>, replace: boolean) => `
    CREATE ${replace ? "OR REPLACE " : ""}FUNCTION analytics_merge(sign integer, only_tag bigint)
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
    $fn$`
