import { Clock, Duration, Effect } from "effect"
import { Settings } from "../Config.ts"
import { nextStep } from "../Integrations/DeliverySchedule.ts"
import type { OutboundPolicy, Resolver } from "../Integrations/OutboundUrl.ts"
import { slackMessage } from "../Integrations/SlackMessage.ts"
import { webhookHeaders } from "../Integrations/StandardWebhooks.ts"
import type { WebhookEvent } from "../Integrations/WebhookEvents.ts"
import { type AttemptOutcome, type DueDelivery, WebhooksRepo } from "./Repo.ts"
import * as SecretBox from "./SecretBox.ts"
import { send } from "./Sender.ts"

/**
 * The delivery loop (docs/webhooks.md): every second, the deliveries that are due are claimed, sent
 * (at most `CONCURRENCY` at once) and their attempts recorded with what follows each: delivered,
 * tried again later on the schedule of Integrations/DeliverySchedule.ts, or given up. It runs in every
 * collector process (Collector/Collector.ts): the API server's own and `npm run worker`'s.
 */

/** Deliveries claimed at once, and sent at once. */
const BATCH = 20
const CONCURRENCY = 8
/** How long a claim holds a delivery: well beyond the 10 s an attempt may take. */
export const LEASE_MS = 60_000

export interface DeliveryOptions {
  readonly policy: OutboundPolicy
  readonly secretsKey: SecretBox.SecretsKey
  /** How names are resolved (tests give their own); the system's by default. */
  readonly resolver?: Resolver
  readonly timeoutMs?: number
  /** A number in [0, 1) for the jitter of retries. */
  readonly random?: () => number
}

/** The policy and secrets key of the settings. */
export const optionsFromSettings = Effect.map(Settings, (settings): DeliveryOptions => ({
  policy: { allowHttp: settings.webhookAllowPrivate, allowPrivate: settings.webhookAllowPrivate },
  secretsKey: settings.webhookSecretsKey
}))

/** The body of a delivery as sent: the envelope (`standard`) or the Slack message of the event. */
export const bodyOf = (delivery: Pick<DueDelivery, "event" | "occurredAt" | "payload" | "format">): string => {
  const event = { type: delivery.event, timestamp: delivery.occurredAt.toISOString(), data: JSON.parse(delivery.payload) } as WebhookEvent
  return JSON.stringify(delivery.format === "slack" ? slackMessage(event) : event)
}

/** One attempt of a claimed delivery, recorded. */
const attempt = (repo: WebhooksRepo["Type"], options: DeliveryOptions, delivery: DueDelivery, at: Date | undefined) =>
  Effect.gen(function*() {
    // The instant the pass was asked for (tests), or this attempt's own start.
    const startedAt = at ?? new Date(yield* Clock.currentTimeMillis)
    const body = bodyOf(delivery)
    let secret: string
    try {
      secret = SecretBox.open(delivery.secret, options.secretsKey)
    } catch (error) {
      return yield* recordFailure(repo, options, delivery, startedAt, 0, null, error instanceof Error ? error.message : "the secret cannot be read", null)
    }
    const headers = {
      ...webhookHeaders(secret, delivery.messageId, Math.floor(startedAt.getTime() / 1000), body),
      "user-agent": "brand-visibility-webhooks/1"
    }
    const sent = yield* Effect.promise(() =>
      send(delivery.url, body, headers, options.policy, {
        ...(options.resolver === undefined ? {} : { resolver: options.resolver }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        now: () => startedAt
      }))
    if (sent.result.ok) {
      const finishedAt = new Date(startedAt.getTime() + sent.durationMs)
      const outcome: AttemptOutcome = { startedAt, durationMs: sent.durationMs, statusCode: sent.result.status, error: null, next: { kind: "delivered" } }
      yield* repo.record(delivery, outcome, finishedAt)
      yield* Effect.logInfo("webhook delivered").pipe(
        Effect.annotateLogs({ webhook_id: delivery.webhookId, delivery_id: delivery.id, attempt: delivery.attempt, status_code: sent.result.status })
      )
      return
    }
    return yield* recordFailure(repo, options, delivery, startedAt, sent.durationMs, sent.result.status, sent.result.error, sent.retryAfterSeconds)
  })

const recordFailure = (
  repo: WebhooksRepo["Type"],
  options: DeliveryOptions,
  delivery: DueDelivery,
  startedAt: Date,
  durationMs: number,
  statusCode: number | null,
  error: string,
  retryAfterSeconds: number | null
) =>
  Effect.gen(function*() {
    const finishedAt = new Date(startedAt.getTime() + durationMs)
    const step = nextStep(delivery.attempt, finishedAt, (options.random ?? Math.random)(), retryAfterSeconds)
    const outcome: AttemptOutcome = {
      startedAt,
      durationMs,
      statusCode,
      error,
      next: step.kind === "retry" ? { kind: "retry", at: step.at } : { kind: "failed" }
    }
    yield* repo.record(delivery, outcome, finishedAt)
    // The URL never: it can hold a token. The webhook's id says which one.
    yield* Effect.logWarning("webhook delivery failed").pipe(
      Effect.annotateLogs({
        webhook_id: delivery.webhookId,
        delivery_id: delivery.id,
        attempt: delivery.attempt,
        status_code: statusCode ?? "none",
        error,
        next: step.kind === "retry" ? step.at.toISOString() : "given up"
      })
    )
  })

/**
 * Claims what is due at `at` (now by default), sends it and records the attempts; the number of
 * deliveries tried.
 */
export const deliverDue = (options: DeliveryOptions, at?: Date) =>
  Effect.gen(function*() {
    const repo = yield* WebhooksRepo
    const now = at ?? new Date(yield* Clock.currentTimeMillis)
    const due = yield* repo.claimDue(now, BATCH, LEASE_MS)
    yield* Effect.forEach(due, (delivery) => attempt(repo, options, delivery, at), { concurrency: CONCURRENCY, discard: true })
    return due.length
  })

/** The loop of a collector process: what is due, every `every`, until the process stops. */
export const loop = (every: Duration.DurationInput) =>
  Effect.gen(function*() {
    const options = yield* optionsFromSettings
    yield* deliverDue(options).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("webhook deliveries could not be sent", cause)),
      Effect.zipRight(Effect.sleep(every)),
      Effect.forever
    )
  })
