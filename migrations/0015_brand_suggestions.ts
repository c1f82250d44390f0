import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Brand suggestions (docs/suggestions.md): the candidate brands the stored answers name that the project
 * does not track, their evidence and the user's decisions.
 *
 * - `suggestion_rollups`: per candidate key, UTC day, platform, prompt and country, the counts of the
 *   answers naming or citing it (plain sums, so recording answers one by one or all at once gives the same
 *   rows). `confirmed` counts the answers where the name is written somewhere else than at the start of a
 *   sentence (or has a domain); `variants` and `domains` are answer counts per spelling and per domain.
 * - `suggestion_examples`: the three latest answers naming each key, with the passage around the name.
 * - `brand_suggestions`: one row per key ever recorded, its id the suggestion's id, with the decision
 *   (`open`, `dismissed`, `accepted`, `merged`, `ignored`), the lower bound of its rate when dismissed (the
 *   reopen rule), the brand it became or joined, and the backfill of that brand's mentions.
 *
 * Every table belongs to a project and goes with it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE suggestion_rollups (
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      key varchar(255) NOT NULL,
      day date NOT NULL,
      platform varchar(32) NOT NULL,
      prompt_id bigint NOT NULL,
      country char(2) NOT NULL,
      answers integer NOT NULL,
      confirmed integer NOT NULL,
      in_list integer NOT NULL,
      bold integer NOT NULL,
      linked integer NOT NULL,
      cited integer NOT NULL,
      with_competitor integer NOT NULL,
      order_sum integer NOT NULL,
      variants jsonb NOT NULL,
      domains jsonb NOT NULL,
      PRIMARY KEY (project_id, key, day, platform, prompt_id, country)
    )`
  yield* sql`CREATE INDEX suggestion_rollups_project_id_day_index ON suggestion_rollups (project_id, day)`
  yield* sql`
    CREATE TABLE suggestion_examples (
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      key varchar(255) NOT NULL,
      response_id bigint NOT NULL,
      day date NOT NULL,
      platform varchar(32) NOT NULL,
      snippet text NOT NULL,
      highlight_start integer NOT NULL,
      highlight_end integer NOT NULL,
      snippet_offset integer NOT NULL,
      PRIMARY KEY (project_id, key, response_id)
    )`
  yield* sql`
    CREATE TABLE brand_suggestions (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      key varchar(255) NOT NULL,
      status varchar(16) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'dismissed', 'accepted', 'merged', 'ignored')),
      dismissed_low double precision,
      brand_id bigint REFERENCES brands (id) ON DELETE SET NULL,
      backfill_status varchar(16) CHECK (backfill_status IN ('running', 'done')),
      backfilled_responses integer NOT NULL DEFAULT 0,
      decided_at timestamptz(3),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (project_id, key)
    )`
})
