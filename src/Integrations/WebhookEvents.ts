import type { AlertCondition, AlertMetric, Measured } from "./AlertRule.ts"
import type { WeeklyDigest } from "./WeeklyDigest.ts"

/**
 * The events webhooks carry. A `standard` endpoint receives the JSON envelope the Standard Webhooks
 * specification recommends, `{ "type", "timestamp", "data" }`; a `slack` endpoint receives the same
 * event rendered as a message (SlackMessage.ts).
 */
export const webhookEventTypes = ["run.completed", "alert.triggered", "alert.resolved", "digest.weekly", "webhook.test"] as const
export type WebhookEventType = (typeof webhookEventTypes)[number]

export interface ProjectRef {
  readonly id: number
  readonly name: string
}

export interface RunCompleted {
  readonly project: ProjectRef
  readonly run: {
    readonly id: number
    readonly monitor: { readonly id: number; readonly name: string }
    readonly status: "completed" | "failed" | "partial"
    readonly started_at: string
    readonly finished_at: string
    readonly responses_count: number
    readonly failed_count: number
  }
}

export interface AlertChange {
  readonly project: ProjectRef
  readonly alert: {
    readonly id: number
    readonly name: string
    readonly metric: AlertMetric
    readonly subject: { readonly kind: "brand" | "source" | "url"; readonly id: number; readonly name: string }
    readonly condition: AlertCondition
    readonly threshold: number
    readonly window_days: number
    readonly significant_only: boolean
  }
  readonly window: { readonly start_date: string; readonly end_date: string }
  readonly previous_window: { readonly start_date: string; readonly end_date: string }
  readonly value: number | null
  readonly previous_value: number | null
  readonly change: number | null
  readonly interval: { readonly low: number; readonly high: number } | null
  readonly significant: boolean | null
  /** The counts behind both values: a proportion's count and total, or a mean's sum and count. */
  readonly counts: { readonly current: Measured["current"]; readonly previous: Measured["previous"] }
}

export interface WebhookTest {
  readonly project: ProjectRef
  readonly webhook_id: number
  readonly message: string
}

export type WebhookEvent =
  | { readonly type: "run.completed"; readonly timestamp: string; readonly data: RunCompleted }
  | { readonly type: "alert.triggered" | "alert.resolved"; readonly timestamp: string; readonly data: AlertChange }
  | { readonly type: "digest.weekly"; readonly timestamp: string; readonly data: WeeklyDigest }
  | { readonly type: "webhook.test"; readonly timestamp: string; readonly data: WebhookTest }

/** The body of a `standard` delivery: the envelope as compact JSON, signed exactly as sent. */
export const standardBody = (event: WebhookEvent): string => JSON.stringify(event)
