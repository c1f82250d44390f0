import { Clock, Duration, Effect } from "effect"
import * as Area from "../Area.ts"
import { orNotFound, ValidationError } from "../Domain/Errors.ts"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { paginated } from "../Http/Responses.ts"
import { OutboundRefused, resolveTarget } from "../Integrations/OutboundUrl.ts"
import { generateSecret } from "../Integrations/StandardWebhooks.ts"
import { optionsFromSettings } from "./Delivery.ts"
import { WebhooksApi } from "./Api.ts"
import { layerSql, WebhooksRepo } from "./Repo.ts"
import { layerMemory } from "./RepoMemory.ts"
import * as SecretBox from "./SecretBox.ts"
import type { StoredWebhook, Webhook } from "./Webhook.ts"

/** How long the check of a URL may wait for DNS before the URL is refused as not resolving. */
const RESOLVE_TIMEOUT = Duration.seconds(5)

/** A webhook as the API shows it: without its secret and its run of failures. */
const shown = ({ consecutive_failures: _, failing_since: __, project_id: ___, secret: ____, ...webhook }: StoredWebhook): Webhook => webhook

export const WebhooksLive = ApiGroup.group(WebhooksApi, (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhooksRepo
    const options = yield* optionsFromSettings

    /** The webhook of the path, in the active project; another project's is not found. */
    const find = (id: number) => Effect.flatMap(CurrentProject, (project) => webhooks.find(project.id, id)).pipe(orNotFound("Webhook"))

    /** A URL deliveries may go to, by the policy of the settings, its host resolved now; a 422 on `url` otherwise. */
    const checkTarget = (url: string) =>
      Effect.promise(() => resolveTarget(url, options.policy)).pipe(
        Effect.timeoutTo({
          duration: RESOLVE_TIMEOUT,
          onSuccess: (checked) => checked,
          onTimeout: () => new OutboundRefused("unresolvable", "The URL's host does not resolve.")
        }),
        Effect.flatMap((checked) => checked instanceof OutboundRefused ? Effect.fail(ValidationError.field("url", checked.message)) : Effect.void)
      )

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentProject, (project) =>
          paginated(urlParams, (window) => Effect.map(webhooks.list(project.id, window), (page) => ({ ...page, rows: page.rows.map(shown) })))))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          yield* checkTarget(payload.url)
          // The secret exists in clear only in this answer and, sealed, in the database.
          const secret = generateSecret()
          const created = yield* webhooks.create(project.id, {
            url: payload.url,
            format: payload.format ?? "standard",
            events: payload.events,
            active: payload.active ?? true,
            secret: SecretBox.seal(secret, options.secretsKey)
          })
          return { data: { ...shown(created), secret } }
        }))
      .handle("get", ({ path }) => Effect.map(find(path.webhook), (webhook) => ({ data: shown(webhook) })))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          // Validation before the path resource (docs/api.md, order of checks).
          if (payload.url !== undefined) yield* checkTarget(payload.url)
          const webhook = yield* find(path.webhook)
          return { data: shown(yield* webhooks.update(webhook.id, payload)) }
        }))
      .handle("delete", ({ path }) => Effect.flatMap(find(path.webhook), (webhook) => webhooks.delete(webhook.id)))
      .handle("test", ({ path }) =>
        Effect.gen(function*() {
          const webhook = yield* find(path.webhook)
          const project = yield* CurrentProject
          const now = new Date(yield* Clock.currentTimeMillis)
          const delivery = yield* webhooks.enqueue(webhook, {
            type: "webhook.test",
            occurredAt: now,
            data: {
              project: { id: project.id, name: project.name },
              webhook_id: webhook.id,
              message: `A test message from Brand Visibility Monitoring for the webhook ${webhook.id} of ${project.name}.`
            }
          })
          return { data: delivery }
        }))
      .handle("deliveries", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const webhook = yield* find(path.webhook)
          return yield* paginated(urlParams, (window) => webhooks.deliveries(webhook.id, window))
        }))
  }))

/** The project's webhooks, their deliveries and attempts. */
export const WebhooksArea = Area.make({
  groups: [WebhooksApi],
  handlers: WebhooksLive,
  repositories: [Area.repository(WebhooksRepo, { sql: layerSql, memory: layerMemory })],
  abilities: ["webhooks:manage"]
})
