import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The collector's record (docs/collector.md): one run per monitor per scheduled slot, one job per
 * prompt × platform of the monitor as they were when the run was created.
 *
 * The unique keys are what make a restart or a crash harmless: the scheduler's `INSERT ... ON CONFLICT
 * DO NOTHING` can run any number of times for a slot, and a prompt is asked on a platform at most once
 * per slot whichever monitor it sat under. A job names the response it stored (`response_id`), written
 * in the transaction that stored that response, so a stored answer and a succeeded job come together or
 * not at all.
 *
 * Like the rest of the schema, rows carry `project_id` tied to their parent by a composite key, and go
 * with their monitor, prompt or project. A deleted response only clears the job's link to it.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`
    CREATE TABLE collector_runs (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL,
      monitor_id bigint NOT NULL,
      slot timestamptz(3) NOT NULL,
      trigger varchar(16) NOT NULL CHECK (trigger IN ('schedule', 'manual', 'missed', 'backfill')),
      status varchar(16) NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed')),
      completed_at timestamptz(3),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (monitor_id, slot),
      UNIQUE (id, project_id),
      FOREIGN KEY (monitor_id, project_id) REFERENCES monitors (id, project_id) ON DELETE CASCADE
    )`
  yield* sql`CREATE INDEX collector_runs_monitor_id_slot_index ON collector_runs (monitor_id, slot DESC, id DESC)`

  yield* sql`
    CREATE TABLE collector_jobs (
      id bigserial PRIMARY KEY,
      project_id bigint NOT NULL,
      run_id bigint NOT NULL,
      prompt_id bigint NOT NULL,
      platform varchar(32) NOT NULL,
      slot timestamptz(3) NOT NULL,
      status varchar(16) NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'running', 'succeeded', 'failed', 'skipped')),
      attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      reason text,
      response_id bigint REFERENCES responses (id) ON DELETE SET NULL,
      simulated boolean,
      not_before timestamptz(3),
      deadline timestamptz(3),
      lease_expires_at timestamptz(3),
      started_at timestamptz(3),
      finished_at timestamptz(3),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now(),
      UNIQUE (prompt_id, platform, slot),
      FOREIGN KEY (run_id, project_id) REFERENCES collector_runs (id, project_id) ON DELETE CASCADE,
      FOREIGN KEY (prompt_id, project_id) REFERENCES prompts (id, project_id) ON DELETE CASCADE
    )`
  yield* sql`CREATE INDEX collector_jobs_run_id_index ON collector_jobs (run_id, status)`
  // The worker's queue: only unfinished jobs, so the index stays as small as the backlog.
  yield* sql`
    CREATE INDEX collector_jobs_queue_index ON collector_jobs (id)
    WHERE status IN ('pending', 'running')`
  yield* sql`CREATE INDEX collector_jobs_response_id_index ON collector_jobs (response_id) WHERE response_id IS NOT NULL`
})
