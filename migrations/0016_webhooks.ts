import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Webhooks (docs/webhooks.md): a project's endpoints, the outbox of their deliveries and each attempt.
 *
 * - `webhooks`: an endpoint of a project, its format, the events it takes, its signing secret (sealed
 *   with WEBHOOK_SECRETS_KEY when that is set: Webhooks/SecretBox.ts) and the run of failures it is in.
 * - `webhook_deliveries`: the outbox. One row per message and endpoint, written in the transaction of
 *   the event it carries, with the event itself (`payload`, as JSON text so it is sent as written), so a
 *   delivery never depends on rows that change or go later. `attempts` is the fencing token of the
 *   worker that holds it (Webhooks/Repo.ts), `next_attempt_at` when it is due (or its lease ends).
 * - `webhook_attempts`: one row per attempt, unique by delivery and attempt number: an attempt is
 *   recorded once, however often a worker that was stopped sends it again.
 * - `run.completed`: a trigger writes the deliveries when a run becomes `completed`, in the transaction
 *   that completes it, whichever path does (the last job finished, a slot settled, a run without jobs).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE webhooks (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      url text NOT NULL,
      format varchar(16) NOT NULL CHECK (format IN ('standard', 'slack')),
      events text[] NOT NULL,
      active boolean NOT NULL DEFAULT true,
      secret text NOT NULL,
      consecutive_failures integer NOT NULL DEFAULT 0,
      failing_since timestamptz(3),
      disabled_at timestamptz(3),
      disabled_reason text,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (id, project_id)
    )`
  yield* sql`CREATE INDEX webhooks_project_id_index ON webhooks (project_id, id)`
  yield* sql`
    CREATE TABLE webhook_deliveries (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL,
      webhook_id bigint NOT NULL,
      message_id varchar(64) NOT NULL DEFAULT ('msg_' || replace(gen_random_uuid()::text, '-', '')),
      event_type varchar(32) NOT NULL,
      occurred_at timestamptz(3) NOT NULL,
      payload json NOT NULL,
      status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz(3) NOT NULL DEFAULT now(),
      last_status_code integer,
      last_error text,
      delivered_at timestamptz(3),
      notice text,
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      FOREIGN KEY (webhook_id, project_id) REFERENCES webhooks (id, project_id) ON DELETE CASCADE
    )`
  yield* sql`CREATE INDEX webhook_deliveries_webhook_id_index ON webhook_deliveries (webhook_id, id DESC)`
  // The delivery loop's queue: only what is still to send, so the index stays as small as the backlog.
  yield* sql`CREATE INDEX webhook_deliveries_due_index ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending'`
  yield* sql`
    CREATE TABLE webhook_attempts (
      id bigserial PRIMARY KEY,
      delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
      attempt integer NOT NULL,
      started_at timestamptz(3) NOT NULL,
      duration_ms integer NOT NULL,
      status_code integer,
      error text,
      next_attempt_at timestamptz(3),
      UNIQUE (delivery_id, attempt)
    )`

  // run.completed, in the transaction that completes the run. The payload is the envelope's `data`
  // (Integrations/WebhookEvents.ts, RunCompleted), built here from the run's jobs.
  yield* sql.unsafe(`
    CREATE FUNCTION webhooks_run_completed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      data json;
      iso text := 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';
    BEGIN
      IF NOT EXISTS (
        SELECT 1 FROM webhooks w
        WHERE w.project_id = NEW.project_id AND w.active AND 'run.completed' = ANY (w.events)
      ) THEN
        RETURN NULL;
      END IF;
      SELECT json_build_object(
        'project', json_build_object('id', p.id, 'name', p.name),
        'run', json_build_object(
          'id', NEW.id,
          'monitor', json_build_object('id', m.id, 'name', m.name),
          'trigger', NEW.trigger,
          'slot', to_char(NEW.slot AT TIME ZONE 'UTC', iso),
          'status', CASE
            WHEN j.succeeded = 0 AND j.total > 0 THEN 'failed'
            WHEN j.succeeded < j.total THEN 'partial'
            ELSE 'completed' END,
          'started_at', to_char(NEW.created_at AT TIME ZONE 'UTC', iso),
          'finished_at', to_char(coalesce(NEW.completed_at, now()) AT TIME ZONE 'UTC', iso),
          'responses_count', j.succeeded,
          'failed_count', j.total - j.succeeded
        )
      ) INTO data
      FROM projects p, monitors m, LATERAL (
        SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = 'succeeded'))::int AS succeeded
        FROM collector_jobs WHERE run_id = NEW.id
      ) j
      WHERE p.id = NEW.project_id AND m.id = NEW.monitor_id;
      INSERT INTO webhook_deliveries (project_id, webhook_id, event_type, occurred_at, payload)
      SELECT w.project_id, w.id, 'run.completed', coalesce(NEW.completed_at, now()), data
      FROM webhooks w
      WHERE w.project_id = NEW.project_id AND w.active AND 'run.completed' = ANY (w.events)
      ORDER BY w.id;
      RETURN NULL;
    END
    $$`)
  yield* sql.unsafe(`
    CREATE TRIGGER webhooks_run_completed AFTER UPDATE OF status ON collector_runs
    FOR EACH ROW WHEN (OLD.status <> 'completed' AND NEW.status = 'completed')
    EXECUTE FUNCTION webhooks_run_completed()`)
})
