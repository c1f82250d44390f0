import { randomBytes } from "node:crypto"
import { Effect, Layer, Option } from "effect"
import { NotFound } from "../Domain/Errors.ts"
import { MemoryStore, pageOf } from "../Memory/Store.ts"
import { DISABLED_NOTICE, type DueDelivery, normalEvents, settleAttempt, WebhooksRepo } from "./Repo.ts"
import type { DeliveryStatus, StoredWebhook, WebhookAttempt, WebhookDelivery } from "./Webhook.ts"

interface DeliveryRow {
  readonly id: number
  readonly webhookId: number
  readonly messageId: string
  readonly event: string
  readonly occurredAt: Date
  readonly payload: string
  status: DeliveryStatus
  attempts: number
  nextAttemptAt: Date
  deliveredAt: Date | null
  notice: string | null
  readonly createdAt: Date
  readonly tried: Array<WebhookAttempt>
}

/** The in-memory twin of Repo.ts: the reference the SQL one is held to. */
export const layerMemory = Layer.effect(
  WebhooksRepo,
  Effect.map(MemoryStore, (db) => {
    const webhooks = new Map<number, StoredWebhook>()
    const deliveries = new Map<number, DeliveryRow>()
    let lastWebhook = 0
    let lastDelivery = 0
    const live = (webhook: StoredWebhook | undefined) => (webhook !== undefined && db.table("projects").has(webhook.project_id) ? webhook : undefined)
    const view = (row: DeliveryRow): WebhookDelivery => ({
      id: row.id,
      message_id: row.messageId,
      event: row.event,
      status: row.status,
      next_attempt_at: row.status === "pending" ? row.nextAttemptAt : null,
      delivered_at: row.deliveredAt,
      notice: row.notice,
      attempts: [...row.tried],
      created_at: row.createdAt
    })
    return WebhooksRepo.of({
      list: (projectId, window) =>
        Effect.sync(() => pageOf([...webhooks.values()].filter((webhook) => webhook.project_id === projectId && live(webhook)), window)),
      find: (projectId, id) =>
        Effect.sync(() => Option.fromNullable(live(webhooks.get(id))).pipe(Option.filter((webhook) => webhook.project_id === projectId))),
      create: (projectId, values) =>
        Effect.suspend(() => {
          if (!db.table("projects").has(projectId)) return Effect.fail(new NotFound({ resource: "Project" }))
          const now = db.now()
          const webhook: StoredWebhook = {
            id: ++lastWebhook,
            project_id: projectId,
            url: values.url,
            format: values.format,
            events: normalEvents(values.events),
            active: values.active,
            secret: values.secret,
            consecutive_failures: 0,
            failing_since: null,
            disabled_at: null,
            disabled_reason: null,
            created_at: now,
            updated_at: now
          }
          webhooks.set(webhook.id, webhook)
          return Effect.succeed(webhook)
        }),
      update: (id, patch) =>
        Effect.suspend(() => {
          const current = live(webhooks.get(id))
          if (current === undefined) return Effect.fail(new NotFound({ resource: "Webhook" }))
          const given = Object.values(patch).some((value) => value !== undefined)
          if (!given) return Effect.succeed(current)
          const enabled = patch.active === true
          const next: StoredWebhook = {
            ...current,
            url: patch.url ?? current.url,
            format: patch.format ?? current.format,
            events: patch.events === undefined ? current.events : normalEvents(patch.events),
            active: patch.active ?? current.active,
            consecutive_failures: enabled && !current.active ? 0 : current.consecutive_failures,
            failing_since: enabled && !current.active ? null : current.failing_since,
            disabled_at: enabled ? null : current.disabled_at,
            disabled_reason: enabled ? null : current.disabled_reason,
            updated_at: db.now()
          }
          webhooks.set(id, next)
          return Effect.succeed(next)
        }),
      delete: (id) =>
        Effect.sync(() => {
          webhooks.delete(id)
          for (const [key, row] of deliveries) if (row.webhookId === id) deliveries.delete(key)
        }),
      enqueue: (webhook, event) =>
        Effect.suspend(() => {
          if (live(webhooks.get(webhook.id)) === undefined) return Effect.fail(new NotFound({ resource: "Webhook" }))
          const now = db.now()
          const row: DeliveryRow = {
            id: ++lastDelivery,
            webhookId: webhook.id,
            messageId: `msg_${randomBytes(16).toString("hex")}`,
            event: event.type,
            occurredAt: event.occurredAt,
            payload: JSON.stringify(event.data),
            status: "pending",
            attempts: 0,
            nextAttemptAt: now,
            deliveredAt: null,
            notice: null,
            createdAt: now,
            tried: []
          }
          deliveries.set(row.id, row)
          return Effect.succeed(view(row))
        }),
      deliveries: (webhookId, window) =>
        Effect.sync(() => {
          const rows = [...deliveries.values()].filter((row) => row.webhookId === webhookId).sort((a, b) => b.id - a.id)
          const page = pageOf(rows, window)
          return { rows: page.rows.map(view), total: page.total }
        }),
      claimDue: (now, limit, leaseMs) =>
        Effect.sync(() => {
          const due = [...deliveries.values()]
            .filter((row) => {
              const webhook = live(webhooks.get(row.webhookId))
              return row.status === "pending" && row.nextAttemptAt <= now && webhook !== undefined && (webhook.active || row.event === "webhook.test")
            })
            .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id)
            .slice(0, limit)
          return due.map((row): DueDelivery => {
            row.attempts += 1
            row.nextAttemptAt = new Date(now.getTime() + leaseMs)
            const webhook = webhooks.get(row.webhookId)!
            return {
              id: row.id,
              webhookId: row.webhookId,
              messageId: row.messageId,
              event: row.event,
              occurredAt: row.occurredAt,
              payload: row.payload,
              attempt: row.attempts,
              url: webhook.url,
              format: webhook.format,
              secret: webhook.secret
            }
          })
        }),
      record: (delivery, outcome, now) =>
        Effect.sync(() => {
          const webhook = webhooks.get(delivery.webhookId)
          const row = deliveries.get(delivery.id)
          if (webhook === undefined || row === undefined || row.status !== "pending" || row.attempts !== delivery.attempt) return false
          const { status, retryAt, delivered, health, disable } = settleAttempt(webhook, outcome, now)
          if (!row.tried.some((attempt) => attempt.attempt === delivery.attempt)) {
            row.tried.push({
              attempt: delivery.attempt,
              started_at: outcome.startedAt,
              duration_ms: outcome.durationMs,
              status_code: outcome.statusCode,
              error: outcome.error,
              next_attempt_at: retryAt
            })
          }
          row.status = status
          row.nextAttemptAt = retryAt ?? now
          row.deliveredAt = delivered ? now : null
          row.notice = disable ? DISABLED_NOTICE : row.notice
          webhooks.set(webhook.id, {
            ...webhook,
            consecutive_failures: health.consecutiveFailures,
            failing_since: health.failingSince,
            ...(disable ? { active: false, disabled_at: now, disabled_reason: DISABLED_NOTICE } : {})
          })
          return true
        })
    })
  })
)
