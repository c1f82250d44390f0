import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What a request's authentication reads (a key, the projects it reaches) announces its changes on the
 * channel `bvm_auth_changed`, so that a process caching keys (src/ApiKeys/KeyCache.ts) forgets them as
 * soon as another process, or the CLI, revokes a key or changes a project. A key's use (`last_used_at`)
 * is no change: it would otherwise announce one a minute per key in use. A brand's deletion sets its
 * project's `brand_id` to NULL, an update of `projects`, and an organization's deletion cascades to both
 * tables: both are announced too.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE FUNCTION auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('bvm_auth_changed', TG_TABLE_NAME);
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE TRIGGER api_keys_auth_changed AFTER UPDATE ON api_keys FOR EACH ROW
    WHEN ((OLD.key_hash, OLD.organization_id, OLD.abilities, OLD.project_ids, OLD.expires_at, OLD.revoked_at)
      IS DISTINCT FROM (NEW.key_hash, NEW.organization_id, NEW.abilities, NEW.project_ids, NEW.expires_at, NEW.revoked_at))
    EXECUTE FUNCTION auth_changed()`
  yield* sql`CREATE TRIGGER api_keys_auth_deleted AFTER DELETE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION auth_changed()`
  yield* sql`CREATE TRIGGER projects_auth_changed AFTER UPDATE OR DELETE ON projects FOR EACH STATEMENT EXECUTE FUNCTION auth_changed()`
})
