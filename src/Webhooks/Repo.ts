import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import { lockForWriting } from "../Database/ProjectLocks.ts"
import { decodeRows, orDefect, rowOf } from "../Database/Rows.ts"
import { Id, Timestamp } from "../Domain/Common.ts"
import { NotFound } from "../Domain/Errors.ts"
import type { Page, Window } from "../Domain/Page.ts"
import { afterAttempt } from "../Integrations/DeliverySchedule.ts"
import {
  deliveryStatuses,
  type StoredWebhook,
  subscribableEvents,
  Webhook,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookFormat,
  type SubscribableEvent
} from "./Webhook.ts"

/**
 * The storage of webhooks, their outbox of deliveries and the attempts made (the `webhooks` migration). Two
 * implementations: on the SQL database (here) and in memory (RepoMemory.ts), the reference.
 */

export interface NewWebhook {
  readonly url: string
  readonly format: WebhookFormat
  readonly events: ReadonlyArray<SubscribableEvent>
  readonly active: boolean
  /** Sealed (SecretBox.ts). */
  readonly secret: string
}

export interface WebhookPatch {
  readonly url?: string | undefined
  readonly format?: WebhookFormat | undefined
  readonly events?: ReadonlyArray<SubscribableEvent> | undefined
  readonly active?: boolean | undefined
}

/** An event to deliver: the envelope's type, when it happened and its `data`. */
export interface OutgoingEvent {
  readonly type: string
  readonly occurredAt: Date
  readonly data: unknown
}

/** A delivery claimed by a worker, with everything sending it needs. */
export interface DueDelivery {
  readonly id: number
  readonly webhookId: number
  readonly messageId: string
  readonly event: string
  readonly occurredAt: Date
  /** The event's `data`, as JSON text, exactly as written when the event happened. */
  readonly payload: string
  /** This claim's attempt number: the fencing token of `record`. */
  readonly attempt: number
  readonly url: string
  readonly format: WebhookFormat
  /** Sealed (SecretBox.ts). */
  readonly secret: string
}

/** One attempt and what follows it. */
export interface AttemptOutcome {
  readonly startedAt: Date
  readonly durationMs: number
  readonly statusCode: number | null
  readonly error: string | null
  readonly next: { readonly kind: "delivered" } | { readonly kind: "retry"; readonly at: Date } | { readonly kind: "failed" }
}

/**
 * What an attempt leaves, whichever store records it: the delivery's status, when it is tried next
 * (null when never), whether it was delivered, the webhook's run of failures, and whether this attempt
 * disables the webhook (once: a test message failing on an inactive webhook changes nothing more).
 */
export const settleAttempt = (
  webhook: { readonly active: boolean; readonly consecutive_failures: number; readonly failing_since: Date | null },
  outcome: AttemptOutcome,
  now: Date
) => {
  const delivered = outcome.next.kind === "delivered"
  const after = afterAttempt(
    { consecutiveFailures: webhook.consecutive_failures, failingSince: webhook.failing_since },
    delivered ? { ok: true, status: outcome.statusCode ?? 200 } : { ok: false, status: outcome.statusCode, error: outcome.error ?? "" },
    now
  )
  return {
    status: outcome.next.kind === "retry" ? "pending" as const : delivered ? "delivered" as const : "failed" as const,
    retryAt: outcome.next.kind === "retry" ? outcome.next.at : null,
    delivered,
    health: after.health,
    disable: after.disable && webhook.active
  }
}

/** The notice a delivery carries when its failure disabled its webhook. */
export const DISABLED_NOTICE =
  "The webhook was disabled after 15 failed attempts in a row over at least 24 hours. Set active to true to deliver to it again."

export class WebhooksRepo extends Context.Tag("WebhooksRepo")<WebhooksRepo, {
  readonly list: (projectId: number, window: Window) => Effect.Effect<Page<StoredWebhook>>
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<StoredWebhook>>
  /** `NotFound` (Project) when the project was deleted after the request found it. */
  readonly create: (projectId: number, values: NewWebhook) => Effect.Effect<StoredWebhook, NotFound>
  /** Setting `active` to true starts the run of failures anew and clears `disabled_at`. */
  readonly update: (id: number, patch: WebhookPatch) => Effect.Effect<StoredWebhook, NotFound>
  /** Deletes the webhook with its deliveries and their attempts. */
  readonly delete: (id: number) => Effect.Effect<void>
  /** A delivery of `event` to this one webhook (`webhook.test`), due now. */
  readonly enqueue: (webhook: StoredWebhook, event: OutgoingEvent) => Effect.Effect<WebhookDelivery, NotFound>
  /** The webhook's deliveries, newest first, each with its attempts. */
  readonly deliveries: (webhookId: number, window: Window) => Effect.Effect<Page<WebhookDelivery>>
  /**
   * Claims up to `limit` deliveries due at `now`, oldest first, of active webhooks (a test message of an
   * inactive one too), and leases each until `now + leaseMs`: a worker that stops before recording
   * leaves it to be sent again once the lease ends (at least once). `FOR UPDATE SKIP LOCKED`: two
   * workers never claim the same delivery at once.
   */
  readonly claimDue: (now: Date, limit: number, leaseMs: number) => Effect.Effect<ReadonlyArray<DueDelivery>>
  /**
   * Records an attempt and what follows it, and the webhook's run of failures (disabling it at the end
   * of one), in one transaction; false, and nothing recorded, when this claim is no longer the
   * delivery's (its lease ended and another worker took it over).
   */
  readonly record: (delivery: DueDelivery, outcome: AttemptOutcome, now: Date) => Effect.Effect<boolean>
}>() {}

const WebhookRow = rowOf(Schema.Struct({
  ...Webhook.fields,
  project_id: Id,
  secret: Schema.String,
  consecutive_failures: Schema.Int,
  failing_since: Schema.NullOr(Timestamp)
}))

const DeliveryRow = rowOf(Schema.Struct({
  id: Id,
  webhook_id: Id,
  message_id: Schema.String,
  event: Schema.String,
  status: Schema.Literal(...deliveryStatuses),
  next_attempt_at: Schema.NullOr(Timestamp),
  delivered_at: Schema.NullOr(Timestamp),
  notice: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  total: Schema.Int
}))

const AttemptRow = rowOf(Schema.Struct({
  delivery_id: Id,
  attempt: Schema.Int,
  started_at: Timestamp,
  duration_ms: Schema.Int,
  status_code: Schema.NullOr(Schema.Int),
  error: Schema.NullOr(Schema.String),
  next_attempt_at: Schema.NullOr(Timestamp)
}))

const DueRow = rowOf(Schema.Struct({
  id: Id,
  webhook_id: Id,
  message_id: Schema.String,
  event_type: Schema.String,
  occurred_at: Timestamp,
  payload: Schema.String,
  attempts: Schema.Int,
  url: Schema.String,
  format: Schema.Literal("standard", "slack"),
  secret: Schema.String
}))

const HealthRow = rowOf(Schema.Struct({ active: Schema.Boolean, consecutive_failures: Schema.Int, failing_since: Schema.NullOr(Timestamp) }))

const columns = "id, project_id, url, format, events, active, secret, consecutive_failures, failing_since, disabled_at, disabled_reason, created_at, updated_at"

/** Events kept in the order of the list of events, without repeats. */
export const normalEvents = (events: ReadonlyArray<SubscribableEvent>): Array<SubscribableEvent> =>
  subscribableEvents.filter((event) => events.includes(event))

export const layerSql = Layer.effect(
  WebhooksRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const selected = sql.literal(columns)
    const one = (rows: ReadonlyArray<StoredWebhook>) =>
      rows[0] === undefined ? Effect.fail(new NotFound({ resource: "Webhook" })) : Effect.succeed(rows[0])

    /** The attempts of these deliveries, by delivery. */
    const attemptsOf = (ids: ReadonlyArray<number>) =>
      ids.length === 0
        ? Effect.succeed(new Map<number, Array<WebhookAttempt>>())
        : Effect.map(
          decodeRows(AttemptRow, sql`
            SELECT delivery_id, attempt, started_at, duration_ms, status_code, error, next_attempt_at
            FROM webhook_attempts WHERE delivery_id IN ${sql.in(ids)} ORDER BY delivery_id, attempt`),
          (rows) => {
            const byDelivery = new Map<number, Array<WebhookAttempt>>()
            for (const { delivery_id, ...attempt } of rows) {
              const list = byDelivery.get(delivery_id) ?? []
              list.push(attempt)
              byDelivery.set(delivery_id, list)
            }
            return byDelivery
          }
        )

    const deliveryColumns = sql`
      d.id, d.webhook_id, d.message_id, d.event_type AS event, d.status,
      CASE WHEN d.status = 'pending' THEN d.next_attempt_at END AS next_attempt_at, d.delivered_at, d.notice, d.created_at`

    const withAttempts = (rows: ReadonlyArray<typeof DeliveryRow.Type>) =>
      Effect.map(attemptsOf(rows.map((row) => row.id)), (attempts) =>
        rows.map(({ total: _, webhook_id: __, ...row }): WebhookDelivery => ({ ...row, attempts: attempts.get(row.id) ?? [] })))

    return WebhooksRepo.of({
      list: (projectId, window) =>
        Effect.gen(function*() {
          const rows = yield* decodeRows(WebhookRow, sql`
            SELECT ${selected} FROM webhooks WHERE project_id = ${projectId} ORDER BY id LIMIT ${window.limit} OFFSET ${window.offset}`)
          const [count] = yield* sql<{ total: number }>`SELECT count(*)::int AS total FROM webhooks WHERE project_id = ${projectId}`
          return { rows, total: count?.total ?? 0 }
        }).pipe(orDefect),
      find: (projectId, id) =>
        decodeRows(WebhookRow, sql`SELECT ${selected} FROM webhooks WHERE id = ${id} AND project_id = ${projectId}`).pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          orDefect
        ),
      create: (projectId, values) =>
        lockForWriting(sql, projectId).pipe(
          Effect.zipRight(decodeRows(WebhookRow, sql`
            INSERT INTO webhooks (project_id, url, format, events, active, secret)
            VALUES (${projectId}, ${values.url}, ${values.format}, ${normalEvents(values.events)}::text[], ${values.active}, ${values.secret})
            RETURNING ${selected}`)),
          Effect.flatMap(one),
          sql.withTransaction,
          orDefect
        ),
      update: (id, patch) => {
        const changes: Record<string, unknown> = changesOf({ ...patch, events: undefined })
        const events = patch.events === undefined ? undefined : normalEvents(patch.events)
        const read = decodeRows(WebhookRow, sql`SELECT ${selected} FROM webhooks WHERE id = ${id}`)
        if (isEmpty(changes) && events === undefined) return read.pipe(Effect.flatMap(one), orDefect)
        return decodeRows(WebhookRow, sql`
          UPDATE webhooks SET
            url = coalesce(${patch.url ?? null}, url),
            format = coalesce(${patch.format ?? null}, format),
            events = coalesce(${events ?? null}::text[], events),
            active = coalesce(${patch.active ?? null}, active),
            consecutive_failures = CASE WHEN ${patch.active === true} AND NOT active THEN 0 ELSE consecutive_failures END,
            failing_since = CASE WHEN ${patch.active === true} AND NOT active THEN NULL ELSE failing_since END,
            disabled_at = CASE WHEN ${patch.active === true} THEN NULL ELSE disabled_at END,
            disabled_reason = CASE WHEN ${patch.active === true} THEN NULL ELSE disabled_reason END,
            updated_at = now()
          WHERE id = ${id} RETURNING ${selected}`).pipe(Effect.flatMap(one), orDefect)
      },
      delete: (id) => sql`DELETE FROM webhooks WHERE id = ${id}`.pipe(Effect.asVoid, orDefect),
      enqueue: (webhook, event) =>
        Effect.gen(function*() {
          const rows = yield* decodeRows(DeliveryRow, sql`
            WITH d AS (
              INSERT INTO webhook_deliveries (project_id, webhook_id, event_type, occurred_at, payload)
              SELECT project_id, id, ${event.type}, ${event.occurredAt}, ${JSON.stringify(event.data)}::json
              FROM webhooks WHERE id = ${webhook.id}
              RETURNING *
            )
            SELECT ${deliveryColumns}, 0 AS total FROM d`)
          if (rows[0] === undefined) return yield* new NotFound({ resource: "Webhook" })
          return (yield* withAttempts(rows))[0]!
        }).pipe(orDefect),
      deliveries: (webhookId, window) =>
        Effect.gen(function*() {
          const rows = yield* decodeRows(DeliveryRow, sql`
            SELECT ${deliveryColumns}, count(*) OVER ()::int AS total
            FROM webhook_deliveries d WHERE d.webhook_id = ${webhookId}
            ORDER BY d.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`)
          const total = rows[0]?.total ?? (window.offset === 0
            ? 0
            : (yield* sql<{ total: number }>`SELECT count(*)::int AS total FROM webhook_deliveries WHERE webhook_id = ${webhookId}`)[0]?.total ?? 0)
          return { rows: yield* withAttempts(rows), total }
        }).pipe(orDefect),
      claimDue: (now, limit, leaseMs) =>
        decodeRows(DueRow, sql`
          WITH claimed AS (
            UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ${new Date(now.getTime() + leaseMs)}, updated_at = ${now}
            WHERE id IN (
              SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
              WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} AND (w.active OR d.event_type = 'webhook.test')
              ORDER BY d.next_attempt_at, d.id LIMIT ${limit}
              FOR UPDATE OF d SKIP LOCKED
            )
            RETURNING id, webhook_id, message_id, event_type, occurred_at, payload::text AS payload, attempts
          )
          SELECT c.*, w.url, w.format, w.secret FROM claimed c JOIN webhooks w ON w.id = c.webhook_id ORDER BY c.id`).pipe(
          Effect.map((rows) =>
            rows.map((row): DueDelivery => ({
              id: row.id,
              webhookId: row.webhook_id,
              messageId: row.message_id,
              event: row.event_type,
              occurredAt: row.occurred_at,
              payload: row.payload,
              attempt: row.attempts,
              url: row.url,
              format: row.format,
              secret: row.secret
            }))
          ),
          orDefect
        ),
      record: (delivery, outcome, now) =>
        Effect.gen(function*() {
          // The webhook first, then the delivery: the order of a webhook's deletion, which cascades to them.
          // NO KEY UPDATE: events written meanwhile (KEY SHARE on the webhook) do not wait for this.
          const [health] = yield* decodeRows(HealthRow, sql`
            SELECT active, consecutive_failures, failing_since FROM webhooks WHERE id = ${delivery.webhookId} FOR NO KEY UPDATE`)
          if (health === undefined) return false
          const held = yield* sql`
            SELECT id FROM webhook_deliveries WHERE id = ${delivery.id} AND status = 'pending' AND attempts = ${delivery.attempt} FOR UPDATE`
          if (held.length === 0) return false
          const { status, retryAt, delivered, health: after, disable } = settleAttempt(health, outcome, now)
          yield* sql`
            INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, next_attempt_at)
            VALUES (${delivery.id}, ${delivery.attempt}, ${outcome.startedAt}, ${outcome.durationMs}, ${outcome.statusCode}, ${outcome.error}, ${retryAt})
            ON CONFLICT (delivery_id, attempt) DO NOTHING`
          yield* sql`
            UPDATE webhook_deliveries SET
              status = ${status},
              next_attempt_at = ${retryAt ?? now},
              last_status_code = ${outcome.statusCode}, last_error = ${outcome.error},
              delivered_at = ${delivered ? now : null},
              notice = coalesce(${disable ? DISABLED_NOTICE : null}, notice),
              updated_at = ${now}
            WHERE id = ${delivery.id}`
          yield* sql`
            UPDATE webhooks SET
              consecutive_failures = ${after.consecutiveFailures}, failing_since = ${after.failingSince},
              ${disable ? sql`active = false, disabled_at = ${now}, disabled_reason = ${DISABLED_NOTICE},` : sql``}
              updated_at = updated_at
            WHERE id = ${delivery.webhookId}`
          return true
        }).pipe(sql.withTransaction, orDefect)
    })
  })
)
