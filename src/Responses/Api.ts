import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { platforms } from "../Domain/Platform.ts"
import { Citation, Response, statuses } from "../Domain/Response.ts"
import { requires } from "../Http/Authorize.ts"
import { BadRequest } from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"

/** Citations are URLs; at most 2048 characters each, as browsers allow. */
const citationUrl = Schema.String.annotations({ message: () => "The citation must be a string." }).pipe(
  Schema.filter(Fields.isValidText, { message: () => "The citation must be valid Unicode text without NUL characters." }),
  Schema.filter((url) => url.length <= 2048, { message: () => "The citation must not be greater than 2048 characters." })
)

/** Citations of one answer: platforms cite a few dozen at most. */
export const MAX_CITATIONS = 100

export const CreateResponse = Fields.input({
  prompt_id: Fields.id("prompt_id").annotations({ description: "A prompt of the active project." }),
  platform: Fields.oneOf("platform", platforms).annotations({ description: "One of the platforms of the prompt's monitor." }),
  text: Fields.rawText("text", 200_000).annotations({ description: "The answer, as the platform gave it." }),
  citations: Fields.optional(
    Fields.boundedArray("citations", citationUrl, MAX_CITATIONS).annotations({
      description: `The URLs the platform cited, in its order (at most ${MAX_CITATIONS}). Absent: the URLs found in the text.`
    })
  ),
  collected_at: Fields.optional(Fields.dateTime("collected_at").annotations({ description: "When the answer was collected (default: now)." })),
  country: Fields.optional(Fields.country("country").annotations({ description: "Default: the monitor's country." }))
}).annotations({
  examples: [{
    prompt_id: 1,
    platform: "perplexity",
    text: "For a small agency, [HubSpot](https://www.hubspot.com/crm) is the easiest start; Pipedrive is a close second.",
    citations: ["https://www.hubspot.com/crm?utm_source=perplexity", "https://www.pipedrive.com/"]
  }]
})

export const ResponsesQuery = Fields.input({
  ...PageQuery,
  monitor_id: Fields.optional(Fields.idQuery("monitor_id")),
  prompt_id: Fields.optional(Fields.idQuery("prompt_id")),
  platform: Fields.optional(Fields.oneOf("platform", platforms)),
  status: Fields.optional(Fields.oneOf("status", statuses)),
  start_date: Fields.optional(Fields.calendarDate("start_date").annotations({ description: "Collected on or after this UTC date." })),
  end_date: Fields.optional(Fields.calendarDate("end_date").annotations({ description: "Collected on or before this UTC date." }))
})

export const CitationsQuery = Fields.input({
  ...PageQuery,
  response_id: Fields.optional(Fields.idQuery("response_id"))
})

const responseParam = HttpApiSchema.param("response", Fields.PathId)

export class ResponsesApi extends HttpApiGroup.make("responses")
  .add(
    HttpApiEndpoint.get("list", "/responses")
      .setUrlParams(ResponsesQuery)
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Response))
      .middleware(requires("responses:read"))
      .annotate(OpenApi.Summary, "List responses")
      .annotate(
        OpenApi.Description,
        "The responses of the active project, by id; filters `monitor_id`, `prompt_id`, `platform`, `status`, `start_date`/`end_date` (UTC dates of `collected_at`, inclusive). Ability `responses:read`."
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/responses/${responseParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Response))
      .middleware(requires("responses:read"))
      .annotate(OpenApi.Summary, "Read a response")
      .annotate(OpenApi.Description, "One response of the active project. Ability `responses:read`.")
  )
  .add(
    HttpApiEndpoint.post("create", "/responses")
      .setPayload(CreateResponse)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Response), { status: 201 })
      .middleware(requires("responses:write"))
      .annotate(OpenApi.Summary, "Ingest a response")
      .annotate(
        OpenApi.Description,
        "Stores an answer and analyses it before answering: citations (from `citations`, or the URLs of the text), their sources and source URLs, and the brands mentioned, with position and sentiment. Answers the analyzed response. Ability `responses:write`."
      )
  )
  .add(
    HttpApiEndpoint.get("citations", "/citations")
      .setUrlParams(CitationsQuery)
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Citation))
      .middleware(requires("citations:read"))
      .annotate(OpenApi.Summary, "List citations")
      .annotate(
        OpenApi.Description,
        "The citations of the active project's responses, by id (so a response's come in the platform's order); `response_id` narrows to one response. Ability `citations:read`."
      )
  )
  .middleware(ProjectContext)
  .addError(BadRequest)
  .annotate(OpenApi.Title, "Responses")
{}
