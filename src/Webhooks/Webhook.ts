import { Schema } from "effect"
import { Id, Timestamp, Timestamps } from "../Domain/Common.ts"

/** How a webhook's messages are written: the Standard Webhooks envelope, or a Slack incoming-webhook message. */
export const webhookFormats = ["standard", "slack"] as const
export type WebhookFormat = (typeof webhookFormats)[number]

/**
 * The events an endpoint subscribes to. `webhook.test` is not among them: it goes to the one endpoint
 * `POST /webhooks/{id}/test` names, whatever it subscribes to.
 */
export const subscribableEvents = ["run.completed", "alert.triggered", "alert.resolved", "digest.weekly"] as const
export type SubscribableEvent = (typeof subscribableEvents)[number]

/** A webhook as the API shows it: never its secret. */
export const Webhook = Schema.Struct({
  id: Id,
  url: Schema.String.annotations({ description: "Where deliveries are posted.", examples: ["https://hooks.example.com/bvm"] }),
  format: Schema.Literal(...webhookFormats).annotations({
    description: "`standard` (a signed JSON envelope, Standard Webhooks) or `slack` (an incoming-webhook message)."
  }),
  events: Schema.Array(Schema.Literal(...subscribableEvents)).annotations({ description: "The events it receives." }),
  active: Schema.Boolean.annotations({
    description: "Whether events are delivered to it. Turned off by the service after a run of failures (`disabled_reason` says so)."
  }),
  disabled_at: Schema.NullOr(Timestamp).annotations({ description: "When the service turned it off after failing deliveries; null otherwise." }),
  disabled_reason: Schema.NullOr(Schema.String),
  ...Timestamps
}).annotations({ identifier: "Webhook" })
export type Webhook = typeof Webhook.Type

/** A webhook just made: the only answer that holds its secret. */
export const CreatedWebhook = Schema.Struct({
  ...Webhook.fields,
  secret: Schema.String.annotations({
    description: "The signing secret, `whsec_` and the base64 of 32 random bytes: shown this once.",
    examples: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"]
  })
}).annotations({ identifier: "CreatedWebhook" })

/** A webhook as stored: with its project, its sealed secret and the run of failures it is in. */
export interface StoredWebhook extends Webhook {
  readonly project_id: number
  /** Sealed (SecretBox.ts). */
  readonly secret: string
  readonly consecutive_failures: number
  readonly failing_since: Date | null
}

export const deliveryStatuses = ["pending", "delivered", "failed"] as const
export type DeliveryStatus = (typeof deliveryStatuses)[number]

export const WebhookAttempt = Schema.Struct({
  attempt: Schema.Int.annotations({ description: "1 for the first attempt." }),
  started_at: Timestamp,
  duration_ms: Schema.Int.annotations({ description: "From the start of the request to its answer's status, or to the error." }),
  status_code: Schema.NullOr(Schema.Int).annotations({ description: "The receiver's HTTP status; null when there was no answer." }),
  error: Schema.NullOr(Schema.String).annotations({ description: "Why the attempt failed; null when it succeeded." }),
  next_attempt_at: Schema.NullOr(Timestamp).annotations({ description: "When the next attempt was planned after this one; null when none was." })
}).annotations({ identifier: "WebhookAttempt" })
export type WebhookAttempt = typeof WebhookAttempt.Type

export const WebhookDelivery = Schema.Struct({
  id: Id,
  message_id: Schema.String.annotations({ description: "The `webhook-id` header: the same on every attempt, for receivers to drop duplicates." }),
  event: Schema.String.annotations({ examples: ["run.completed"] }),
  status: Schema.Literal(...deliveryStatuses).annotations({
    description: "`pending` (to be tried, or tried again), `delivered` (a 2xx answer), `failed` (given up after the last attempt)."
  }),
  next_attempt_at: Schema.NullOr(Timestamp).annotations({ description: "When it is tried next; null unless pending." }),
  delivered_at: Schema.NullOr(Timestamp),
  notice: Schema.NullOr(Schema.String).annotations({ description: "What happened to the webhook on this delivery (it was disabled)." }),
  attempts: Schema.Array(WebhookAttempt).annotations({ description: "Every attempt, first first." }),
  created_at: Timestamp
}).annotations({ identifier: "WebhookDelivery" })
export type WebhookDelivery = typeof WebhookDelivery.Type
