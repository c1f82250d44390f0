import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Agent traffic (docs/agent-traffic.md): a project's traffic sources, the logs uploaded to each, and the
 * daily rollups those logs are counted into. No table has a column for an address: a referral row keeps
 * its visitors as salted hashes whose salt is discarded daily, so that rows of the same day from several
 * logs are merged without counting a visitor twice.
 *
 * - `traffic_sources`: name, the site hosts counted (empty: every host), the log format and, for
 *   `ndjson`, its field map.
 * - `traffic_uploads`: one per distinct file sent to a source (`UNIQUE (source_id, sha256)`: the same
 *   file again is the same upload, counted once), with its processing status and what it held.
 * - `traffic_totals`, `traffic_agent_hits`, `traffic_unknown_bots`, `traffic_referrals`: the rollups, a
 *   row per source and key (src/Traffic/Rollup.ts), added to by each upload in one transaction.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE traffic_sources (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      name text NOT NULL,
      site_hosts text[] NOT NULL DEFAULT '{}',
      format text NOT NULL,
      field_map jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX traffic_sources_project_id_index ON traffic_sources (project_id, id)`
  yield* sql`
    CREATE TABLE traffic_uploads (
      id bigserial PRIMARY KEY,
      source_id bigint NOT NULL REFERENCES traffic_sources (id) ON DELETE CASCADE,
      sha256 text NOT NULL,
      bytes bigint NOT NULL,
      status text NOT NULL,
      error text,
      lines bigint NOT NULL DEFAULT 0,
      parsed bigint NOT NULL DEFAULT 0,
      ignored bigint NOT NULL DEFAULT 0,
      unparsed bigint NOT NULL DEFAULT 0,
      filtered bigint NOT NULL DEFAULT 0,
      own bigint NOT NULL DEFAULT 0,
      agent_hits bigint NOT NULL DEFAULT 0,
      unknown_bot_hits bigint NOT NULL DEFAULT 0,
      referral_visits bigint NOT NULL DEFAULT 0,
      first_time timestamptz,
      last_time timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz,
      UNIQUE (source_id, sha256)
    )`
  yield* sql`
    CREATE TABLE traffic_totals (
      source_id bigint NOT NULL REFERENCES traffic_sources (id) ON DELETE CASCADE,
      day date NOT NULL,
      requests bigint NOT NULL,
      html_requests bigint NOT NULL,
      PRIMARY KEY (source_id, day)
    )`
  yield* sql`
    CREATE TABLE traffic_agent_hits (
      source_id bigint NOT NULL REFERENCES traffic_sources (id) ON DELETE CASCADE,
      day date NOT NULL,
      agent text NOT NULL,
      verdict text NOT NULL,
      status_class text NOT NULL,
      page text NOT NULL,
      hits bigint NOT NULL,
      PRIMARY KEY (source_id, day, agent, verdict, status_class, page)
    )`
  yield* sql`
    CREATE TABLE traffic_unknown_bots (
      source_id bigint NOT NULL REFERENCES traffic_sources (id) ON DELETE CASCADE,
      day date NOT NULL,
      family text NOT NULL,
      hits bigint NOT NULL,
      sample_user_agent text NOT NULL,
      PRIMARY KEY (source_id, day, family)
    )`
  yield* sql`
    CREATE TABLE traffic_referrals (
      source_id bigint NOT NULL REFERENCES traffic_sources (id) ON DELETE CASCADE,
      day date NOT NULL,
      platform text NOT NULL,
      page text NOT NULL,
      visits bigint NOT NULL,
      visitor_hashes text[] NOT NULL,
      PRIMARY KEY (source_id, day, platform, page)
    )`
})
