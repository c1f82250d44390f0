import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The whole data model of docs/api.md.
 *
 * Ownership runs organization → projects → (monitors → prompts → responses → citations, brand mentions;
 * tags, segments, brands, sources → source URLs), every link ON DELETE CASCADE, so deleting an
 * organization or a project is one statement inside one transaction. Rows that name their project
 * (prompts, responses, brand mentions, source URLs) carry `project_id` next to the parent id, tied
 * to the parent by a composite foreign key: tenant checks and per-project list orders are then one
 * index lookup, and the row can never disagree with its parent about the project.
 *
 * Timestamps are timestamptz(3): the API shows milliseconds, so storing them keeps what is stored
 * and what is shown (and ordered by) identical.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE organizations (
      id bigserial PRIMARY KEY,
      name varchar(255) NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    )`

  yield* sql`
    CREATE TABLE api_keys (
      id bigserial PRIMARY KEY,
      organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name varchar(255) NOT NULL,
      prefix char(8) NOT NULL,
      key_hash char(64) NOT NULL,
      abilities text[] NOT NULL,
      project_ids bigint[],
      expires_at timestamptz(3),
      revoked_at timestamptz(3),
      last_used_at timestamptz(3),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE UNIQUE INDEX api_keys_key_hash_unique ON api_keys (key_hash)`
  yield* sql`CREATE INDEX api_keys_organization_id_index ON api_keys (organization_id, id)`

  yield* sql`
    CREATE TABLE projects (
      id bigserial PRIMARY KEY,
      organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name varchar(255) NOT NULL,
      domain varchar(255),
      brand_id bigint,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX projects_organization_id_index ON projects (organization_id, id)`

  yield* sql`
    CREATE TABLE monitors (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      name varchar(255) NOT NULL,
      country char(2) NOT NULL,
      platforms text[] NOT NULL,
      schedule varchar(16) NOT NULL DEFAULT 'daily' CHECK (schedule IN ('daily', 'weekly', 'manual')),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (id, project_id)
    )`
  yield* sql`CREATE INDEX monitors_project_id_index ON monitors (project_id, id)`
  yield* sql`CREATE INDEX monitors_project_id_country_index ON monitors (project_id, country)`

  yield* sql`
    CREATE TABLE prompts (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL,
      monitor_id bigint NOT NULL,
      text varchar(2000) NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (id, project_id),
      FOREIGN KEY (monitor_id, project_id) REFERENCES monitors (id, project_id) ON DELETE CASCADE
    )`
  yield* sql`CREATE INDEX prompts_project_id_index ON prompts (project_id, id)`
  yield* sql`CREATE INDEX prompts_monitor_id_index ON prompts (monitor_id, id)`

  yield* sql`
    CREATE TABLE tags (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      name varchar(100) NOT NULL,
      color char(7) NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE UNIQUE INDEX tags_project_id_name_unique ON tags (project_id, lower(name))`
  yield* sql`CREATE INDEX tags_project_id_index ON tags (project_id, id)`

  yield* sql`
    CREATE TABLE prompt_tags (
      prompt_id bigint NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
      tag_id bigint NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (prompt_id, tag_id)
    )`
  yield* sql`CREATE INDEX prompt_tags_tag_id_index ON prompt_tags (tag_id, prompt_id)`

  yield* sql`
    CREATE TABLE brands (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      name varchar(255) NOT NULL,
      aliases text[] NOT NULL DEFAULT '{}',
      domains text[] NOT NULL DEFAULT '{}',
      classification varchar(16) NOT NULL DEFAULT 'competitor'
        CHECK (classification IN ('competitor', 'other', 'ignored')),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX brands_project_id_index ON brands (project_id, id)`
  // The project's own brand: a brand deleted on its own leaves the project without one.
  yield* sql`
    ALTER TABLE projects
      ADD CONSTRAINT projects_brand_id_foreign FOREIGN KEY (brand_id) REFERENCES brands (id) ON DELETE SET NULL`
  yield* sql`CREATE INDEX projects_brand_id_index ON projects (brand_id)`

  yield* sql`
    CREATE TABLE segments (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      name varchar(255) NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX segments_project_id_index ON segments (project_id, id)`

  yield* sql`
    CREATE TABLE brand_segments (
      brand_id bigint NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
      segment_id bigint NOT NULL REFERENCES segments (id) ON DELETE CASCADE,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      PRIMARY KEY (brand_id, segment_id)
    )`
  yield* sql`CREATE INDEX brand_segments_segment_id_index ON brand_segments (segment_id, brand_id)`

  yield* sql`
    CREATE TABLE sources (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      domain varchar(255) NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (project_id, domain),
      UNIQUE (id, project_id)
    )`
  yield* sql`CREATE INDEX sources_project_id_index ON sources (project_id, id)`

  yield* sql`
    CREATE TABLE source_urls (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL,
      source_id bigint NOT NULL,
      url text NOT NULL,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (project_id, url),
      FOREIGN KEY (source_id, project_id) REFERENCES sources (id, project_id) ON DELETE CASCADE
    )`
  yield* sql`CREATE INDEX source_urls_project_id_index ON source_urls (project_id, id)`
  yield* sql`CREATE INDEX source_urls_source_id_index ON source_urls (source_id, id)`

  yield* sql`
    CREATE TABLE responses (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL,
      monitor_id bigint NOT NULL,
      prompt_id bigint NOT NULL,
      platform varchar(32) NOT NULL,
      country char(2) NOT NULL,
      text text NOT NULL,
      status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'analyzed', 'failed')),
      collected_at timestamptz(3) NOT NULL,
      analyzed_at timestamptz(3),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      FOREIGN KEY (monitor_id, project_id) REFERENCES monitors (id, project_id) ON DELETE CASCADE,
      FOREIGN KEY (prompt_id, project_id) REFERENCES prompts (id, project_id) ON DELETE CASCADE
    )`
  yield* sql`CREATE INDEX responses_project_id_index ON responses (project_id, id)`
  yield* sql`CREATE INDEX responses_project_id_collected_at_index ON responses (project_id, collected_at)`
  yield* sql`CREATE INDEX responses_monitor_id_index ON responses (monitor_id, id)`
  yield* sql`CREATE INDEX responses_prompt_id_index ON responses (prompt_id, id)`

  yield* sql`
    CREATE TABLE citations (
      id bigserial PRIMARY KEY,
      response_id bigint NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
      source_id bigint NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
      source_url_id bigint NOT NULL REFERENCES source_urls (id) ON DELETE CASCADE,
      url text NOT NULL,
      position integer NOT NULL CHECK (position >= 1),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (response_id, position)
    )`
  yield* sql`CREATE INDEX citations_source_id_index ON citations (source_id, response_id)`
  yield* sql`CREATE INDEX citations_source_url_id_index ON citations (source_url_id, response_id)`

  yield* sql`
    CREATE TABLE brand_mentions (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      response_id bigint NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
      brand_id bigint NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
      position integer NOT NULL CHECK (position >= 1),
      sentiment_score integer NOT NULL CHECK (sentiment_score BETWEEN 0 AND 100),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (response_id, brand_id)
    )`
  yield* sql`CREATE INDEX brand_mentions_project_id_created_at_index ON brand_mentions (project_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX brand_mentions_brand_id_index ON brand_mentions (brand_id, id)`
})
