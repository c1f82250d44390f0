import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { guarded } from "../Http/Authorize.ts"
import * as ErrorSchemas from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"
import { MAX_URL_LENGTH } from "../Integrations/OutboundUrl.ts"
import { CreatedWebhook, subscribableEvents, Webhook, WebhookDelivery, webhookFormats } from "./Webhook.ts"

const events = Fields.boundedArray("events", Fields.oneOf("events item", subscribableEvents), subscribableEvents.length * 2).pipe(
  Schema.minItems(1, { message: () => "The events field must have at least 1 item." })
).annotations({ description: `The events to receive: ${subscribableEvents.map((event) => `\`${event}\``).join(", ")}.` })

const url = Fields.text("url", MAX_URL_LENGTH).annotations({
  description: "`https://` (or `http://` with WEBHOOK_ALLOW_PRIVATE), no user name or password; its host must resolve to public addresses only."
})

export const CreateWebhook = Fields.input({
  url,
  format: Fields.optional(Fields.oneOf("format", webhookFormats)).annotations({ description: "`standard` (default) or `slack`." }),
  events,
  active: Fields.optional(Fields.boolean("active")).annotations({ description: "Default true." })
}).annotations({ examples: [{ url: "https://hooks.example.com/bvm", format: "standard", events: ["run.completed"] }] })

export const UpdateWebhook = Fields.input({
  url: Fields.optional(url),
  format: Fields.optional(Fields.oneOf("format", webhookFormats)),
  events: Fields.optional(events),
  active: Fields.optional(Fields.boolean("active"))
}).annotations({ examples: [{ active: true }] })

const webhookPath = Fields.pathIds("webhook")
const ability = "webhooks:manage"

/** The project's webhooks, their test messages and their deliveries (docs/webhooks.md). */
export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("list", "/webhooks")
      .setUrlParams(Fields.input(PageQuery))
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Webhook))
      .pipe(guarded(ability, "List webhooks", "The webhooks of the active project, by id; never their secrets."))
  )
  .add(
    HttpApiEndpoint.post("create", "/webhooks")
      .setPayload(CreateWebhook)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(CreatedWebhook), { status: 201 })
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded(
        ability,
        "Create a webhook",
        "Answers the webhook with its signing `secret`, shown this once. A URL whose host is or resolves to a loopback, private, " +
          "link-local or metadata address is refused (422) unless the service runs with WEBHOOK_ALLOW_PRIVATE=true."
      ))
  )
  .add(
    HttpApiEndpoint.get("get", "/webhooks/:webhook")
      .setPath(webhookPath)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Webhook))
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded(ability, "Read a webhook", "One webhook of the active project, without its secret."))
  )
  .add(
    HttpApiEndpoint.patch("update", "/webhooks/:webhook")
      .setPath(webhookPath)
      .setPayload(UpdateWebhook)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Webhook))
      .addError(ErrorSchemas.NotFound)
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded(
        ability,
        "Update a webhook",
        "Optional `url`, `format`, `events`, `active`; omitted, a field keeps its value. `active: true` turns a webhook the service " +
          "disabled back on, with a new run of failures, and its pending deliveries go out again. The secret does not change."
      ))
  )
  .add(
    HttpApiEndpoint.del("delete", "/webhooks/:webhook")
      .setPath(webhookPath)
      .setHeaders(ProjectHeader)
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded(ability, "Delete a webhook", "Removes the webhook with its deliveries; what is pending is not sent. 204."))
  )
  .add(
    HttpApiEndpoint.post("test", "/webhooks/:webhook/test")
      .setPath(webhookPath)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(WebhookDelivery), { status: 202 })
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded(
        ability,
        "Send a test message",
        "Queues a `webhook.test` message to this webhook, even when it is not active, and answers its delivery (202); " +
          "`GET /webhooks/{webhook}/deliveries` shows how it went."
      ))
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/webhooks/:webhook/deliveries")
      .setPath(webhookPath)
      .setUrlParams(Fields.input(PageQuery))
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(WebhookDelivery))
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded(
        ability,
        "List a webhook's deliveries",
        "Newest first, each with its attempts: status code, duration and error of each, and when the next one is due."
      ))
  )
  .middleware(ProjectContext)
  .annotate(OpenApi.Title, "Webhooks")
{}
