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
const byPair = (rollup: { readonly cut: string }) => rollup.cut === "tag_pair" || rollup.cut === "tag_pair_group"

/**
 * The tags (or pairs of tags) a delta row `d` counts under: those of its prompt now, or, when `only_tag`
 * is set, only those of the tag being attached or detached (whose prompt_tags row may already be gone):
 * the tag itself, or its pairs with the prompt's other tags.
 */
export const tagsOf = (rollup: { readonly cut: string }) =>
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
 * The delta rows of the responses among `response_ids` (a plpgsql `bigint[]`) that `condition` (on `r`)
 * counts, all their rows, citations included. LEFT JOIN: while a monitor is being deleted its groups may
 * be gone before its responses are.
 */
const deltasOfResponsesWhere = (condition: string) => `
      INSERT INTO analytics_delta_responses
      SELECT r.project_id, (r.collected_at AT TIME ZONE 'UTC')::date, g.id, r.prompt_id, r.id
      FROM responses r
      LEFT JOIN analytics_groups g
        ON g.project_id = r.project_id AND g.monitor_id = r.monitor_id AND g.platform = r.platform AND g.country = r.country
      WHERE r.id = ANY (response_ids) AND ${condition};

      -- Per response and source (then per response and URL): one use, its number of citations.
      ${citationKeys.map((key) => `
        INSERT INTO analytics_delta_citations (project_id, day, group_id, prompt_id, source_id, source_url_id, used, cited)
        SELECT d.project_id, d.day, d.group_id, d.prompt_id, ${keyColumns(key, `c.${key}`)}, 1, count(*)
        FROM analytics_delta_responses d JOIN citations c ON c.response_id = d.response_id
        GROUP BY d.response_id, d.project_id, d.day, d.group_id, d.prompt_id, c.${key};`).join("\n")}`

/** The delta rows of the analyzed responses among `response_ids` (0003 to 0008). */
export const deltasOfResponses = deltasOfResponsesWhere("r.status = 'analyzed'")

/**
 * Whether the response `r` (an alias) counts in the rollups and analytics from migration 0012 on:
 * analyzed, and an answer (`answer_state` `answered`: not a refusal, an empty answer or no AI answer).
 */
export const isCountedResponse = (response: string) => `${response}.status = 'analyzed' AND ${response}.answer_state = 'answered'`

/** The delta rows of the counted responses among `response_ids` (0012). */
export const deltasOfCountedResponses = deltasOfResponsesWhere(isCountedResponse("r"))

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

// ---------------------------------------------------------------------------
// Brand analytics rollups (0007)
// ---------------------------------------------------------------------------

/**
 * Which responses a brand analytics rollup row counts, besides its project and day: all of them (no
 * filter), those of one group (platform, country and monitor filters), those whose prompt carries a
 * tag or a pair of tags now (with or without the group), as the source rollups do; and those of one
 * prompt, or one prompt and group, for the per-prompt analytics. The tag filter reads the tag cuts
 * for one or two tags (by inclusion–exclusion), and the prompt cuts for more (the prompts carrying any
 * of the tags: a prompt carries them or not).
 */
export type BrandCut = "all" | "group" | "tag" | "tag_group" | "tag_pair" | "tag_pair_group" | "prompt" | "prompt_group"
/** One brand analytics rollup: what it counts (responses, or a brand's mentions), its cut and grain. */
export interface BrandRollup {
  readonly table: string
  readonly counts: "responses" | "brand_id"
  readonly cut: BrandCut
  readonly grain: "daily" | "monthly"
}

const brandRollup = (counts: BrandRollup["counts"], cut: BrandCut, grain: BrandRollup["grain"]): BrandRollup => ({
  table: `${counts === "responses" ? "response" : "brand"}_${cut === "all" ? "" : `${cut}_`}${grain}`,
  counts,
  cut,
  grain
})

/**
 * The rollups of 0007. Responses of the whole project, per group and per tag (and pair) are 0003's and
 * 0005's (`response_daily`, `response_tag_group_daily`, ...); the prompt cuts have monthly twins, read
 * for the whole months of a long window as the source rollups are. The other brand rollups need none:
 * a day holds one row per brand (and group, tag), few enough to read 180 days of them.
 */
export const brandRollups: ReadonlyArray<BrandRollup> = [
  brandRollup("responses", "prompt", "daily"),
  brandRollup("responses", "prompt", "monthly"),
  brandRollup("responses", "prompt_group", "daily"),
  brandRollup("responses", "prompt_group", "monthly"),
  brandRollup("brand_id", "all", "daily"),
  brandRollup("brand_id", "group", "daily"),
  brandRollup("brand_id", "tag", "daily"),
  brandRollup("brand_id", "tag_group", "daily"),
  brandRollup("brand_id", "tag_pair", "daily"),
  brandRollup("brand_id", "tag_pair_group", "daily"),
  brandRollup("brand_id", "prompt", "daily"),
  brandRollup("brand_id", "prompt", "monthly"),
  brandRollup("brand_id", "prompt_group", "daily"),
  brandRollup("brand_id", "prompt_group", "monthly")
]

/**
 * The columns of a brand rollup's cut, before and after its day in the key. The prompt rows lead with
 * the prompt (read for a list of prompts, each a range of days); the prompt and group rows with the
 * group and the day (read for some groups, their prompts all or a few).
 */
const brandCutKey = (rollup: BrandRollup): { readonly leading: Array<string>; readonly trailing: Array<string> } =>
  ({
    all: { leading: [], trailing: [] },
    group: { leading: ["group_id"], trailing: [] },
    tag: { leading: ["tag_id"], trailing: [] },
    tag_group: { leading: ["tag_id", "group_id"], trailing: [] },
    tag_pair: { leading: ["tag_id", "other_tag_id"], trailing: [] },
    tag_pair_group: { leading: ["tag_id", "other_tag_id", "group_id"], trailing: [] },
    prompt: { leading: ["prompt_id"], trailing: [] },
    prompt_group: { leading: ["group_id"], trailing: ["prompt_id"] }
  })[rollup.cut]

/** Whether a brand rollup counts per tag (and so follows tags attached and detached, `only_tag`). */
export const brandByTag = (rollup: BrandRollup) => rollup.cut.startsWith("tag")

/** Its key columns (after project_id), the delta rows it is summed from, and its values. */
const brandShapeOf = (rollup: BrandRollup) => {
  const cut = brandCutKey(rollup)
  const leading = cut.leading
  const trailing = [...cut.trailing, ...(rollup.counts === "brand_id" ? ["brand_id"] : [])]
  const key = [...leading, "day", ...trailing]
  const values = rollup.counts === "brand_id" ? ["mentioned", "position_sum", "sentiment_sum"] : ["responses"]
  const aggregates = rollup.counts === "brand_id" ? "count(*), sum(d.position), sum(d.sentiment_score)" : "count(*)"
  const source = rollup.counts === "brand_id" ? "analytics_delta_mentions" : "analytics_delta_responses"
  const expression = (column: string) =>
    column === "tag_id" || column === "other_tag_id"
      ? `tags.${column}`
      : column === "day" && rollup.grain === "monthly"
      ? "date_trunc('month', d.day)::date"
      : `d.${column}`
  const columns = ["project_id", ...key]
  // A response of a monitor being deleted may have lost its group already: nothing of it is left to count per group.
  const filter = key.includes("group_id") ? "WHERE d.group_id IS NOT NULL" : ""
  // The tags (or pairs) a delta row counts under: those of its prompt now, or only `only_tag`'s (./tagsOf).
  const tags = brandByTag(rollup) ? tagsOf(rollup) : ""
  const select = `SELECT ${columns.map(expression).join(", ")}, ${aggregates}
    FROM ${source} d ${tags} ${filter}
    GROUP BY ${columns.map(expression).join(", ")}`
  return { leading, columns, values, select }
}

/** Adds the delta rows to a brand rollup. */
export const brandUpsert = (rollup: BrandRollup) => {
  const { columns, select, values } = brandShapeOf(rollup)
  return `INSERT INTO ${rollup.table} AS t (${[...columns, ...values].join(", ")})
    ${select}
    ON CONFLICT (${columns.join(", ")}) DO UPDATE SET ${values.map((value) => `${value} = t.${value} + excluded.${value}`).join(", ")};`
}

/** Subtracts the delta rows from a brand rollup: only updates, as `subtract`. */
export const brandSubtract = (rollup: BrandRollup) => {
  const { columns, select, values } = brandShapeOf(rollup)
  return `UPDATE ${rollup.table} AS t SET ${values.map((value) => `${value} = t.${value} - x.${value}`).join(", ")}
    FROM (${select}) AS x (${[...columns, ...values].join(", ")})
    WHERE ${columns.map((column) => `t.${column} = x.${column}`).join(" AND ")};`
}

/**
 * The statements creating a brand rollup table: its primary key is (project, cut, day, ...) and
 * carries the counts, so a day range of some tags, prompts or groups is an index-only range scan per
 * tag, prompt or group. Only the project is a foreign key (its deletion takes the rows along): what a
 * deleted prompt or brand counted is subtracted by the triggers, and a deleted group's or tag's rows
 * are deleted by triggers (`analytics_groups_deleted`, `analytics_tags_deleted`), which spares every
 * insert the checks of those keys. The whole project's daily brand rows are also indexed by brand and
 * day, for the lifetime dates.
 */
export const createBrandTable = (rollup: BrandRollup): Array<string> => {
  const { columns, values } = brandShapeOf(rollup)
  return [
    `
      CREATE TABLE ${rollup.table} (
        project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        ${columns.slice(1).map((column) => `${column} ${column === "day" ? "date" : "bigint"} NOT NULL,`).join("\n")}
        ${values.map((value) => `${value} integer NOT NULL,`).join("\n")}
        PRIMARY KEY (${columns.join(", ")}) INCLUDE (${values.join(", ")})
      )`,
    ...(rollup.cut === "all" && rollup.counts === "brand_id"
      ? [`CREATE INDEX ${rollup.table}_brand_id_index ON ${rollup.table} (project_id, brand_id, day) INCLUDE (mentioned)`]
      : [])
  ]
}

/** The scratch table of one transaction's mentions being added or subtracted (see `deltaTables`). */
export const mentionDeltaTable = `
  CREATE TEMP TABLE IF NOT EXISTS analytics_delta_mentions (
    project_id bigint, day date, group_id bigint, prompt_id bigint, brand_id bigint, position integer, sentiment_score integer
  ) ON COMMIT DROP;
  TRUNCATE analytics_delta_mentions;`

/** The mention delta rows of the responses in `analytics_delta_responses` (filled by `deltasOfResponses`). */
export const deltasOfMentions = `
      INSERT INTO analytics_delta_mentions
      SELECT d.project_id, d.day, d.group_id, d.prompt_id, m.brand_id, m.position, m.sentiment_score
      FROM analytics_delta_responses d JOIN brand_mentions m ON m.response_id = d.response_id;`

/**
 * `analytics_merge_brands(sign, with_responses, only_tag)`: the mention delta rows added to (sign > 0)
 * or subtracted from every brand rollup, and, with `with_responses`, the response delta rows to or from
 * the per-prompt response rollups; only to or from those counting per tag when `only_tag` is set (a tag
 * attached or detached), as `analytics_merge` does.
 */
export const brandMergeFunction = (rollups: ReadonlyArray<BrandRollup>) => {
  const of = (counts: BrandRollup["counts"], byTag: boolean, statement: (rollup: BrandRollup) => string) =>
    rollups.filter((rollup) => rollup.counts === counts && brandByTag(rollup) === byTag).map(statement).join("\n")
  // Each group of statements only when it has delta rows: responses are stored before their mentions.
  // (Nested: a statement naming analytics_delta_responses is planned only where that table exists.)
  const merge = (statement: (rollup: BrandRollup) => string) => `
        IF only_tag IS NULL AND with_responses THEN
          IF EXISTS (SELECT 1 FROM analytics_delta_responses) THEN
            ${of("responses", false, statement)}
          END IF;
        END IF;
        IF EXISTS (SELECT 1 FROM analytics_delta_mentions) THEN
          IF only_tag IS NULL THEN
            ${of("brand_id", false, statement)}
          END IF;
          ${of("brand_id", true, statement)}
        END IF;`
  return `
    CREATE OR REPLACE FUNCTION analytics_merge_brands(sign integer, with_responses boolean, only_tag bigint)
    RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      IF sign > 0 THEN
        ${merge(brandUpsert)}
      ELSE
        ${merge(brandSubtract)}
      END IF;
    END
    $fn$`
}

// ---------------------------------------------------------------------------
// Pending responses (0008)
// ---------------------------------------------------------------------------

/**
 * Whether the response `r` (an alias) is still pending: stored, but not merged into the rollups yet
 * (migration 0008). A read counts a pending response from its raw rows; the rollups count the others.
 */
export const isPending = (response: string) =>
  `EXISTS (SELECT 1 FROM analytics_pending q WHERE q.response_id = ${response}.id)`

/**
 * The scratch tables of `deltaTables` and `mentionDeltaTable`, kept for the session (emptied at each
 * commit) rather than made and dropped by every transaction: the statements that read them are then
 * planned once per session, not once per merge (a fixed ~0.4 s a merge on PostgreSQL otherwise).
 */
export const keptDeltaTables = `
  CREATE TEMP TABLE IF NOT EXISTS analytics_delta_responses (
    project_id bigint, day date, group_id bigint, prompt_id bigint, response_id bigint
  ) ON COMMIT DELETE ROWS;
  CREATE TEMP TABLE IF NOT EXISTS analytics_delta_citations (
    project_id bigint, day date, group_id bigint, prompt_id bigint, source_id bigint, source_url_id bigint,
    used integer, cited integer
  ) ON COMMIT DELETE ROWS;
  CREATE TEMP TABLE IF NOT EXISTS analytics_delta_mentions (
    project_id bigint, day date, group_id bigint, prompt_id bigint, brand_id bigint, position integer, sentiment_score integer
  ) ON COMMIT DELETE ROWS;
  DELETE FROM analytics_delta_responses;
  DELETE FROM analytics_delta_citations;
  DELETE FROM analytics_delta_mentions;`
