import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { platforms } from "../Domain/Platform.ts"
import { Citation, Response, statuses } from "../Domain/Response.ts"
import { guarded } from "../Http/Authorize.ts"
import * as ErrorSchemas from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { listFilterQuery } from "../Http/FilterQuery.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"
import { responseSortColumns } from "./Repo.ts"

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
  collected_at: Fields.optional(Fields.dateTimeFrom(
    "collected_at",
    "2000-01-01T00:00:00Z",
    "When the answer was collected (default: now): from 2000-01-01T00:00:00Z to 5 minutes from now."
  )),
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
  sort_by: Fields.optional(Fields.oneOf("sort_by", responseSortColumns).annotations({ description: "Default `id`." })),
  sort_order: Fields.optional(Fields.oneOf("sort_order", ["asc", "desc"] as const).annotations({ description: "Default `asc`." })),
  ...listFilterQuery
})

export const CitationsQuery = Fields.input({
  ...PageQuery,
  response_id: Fields.optional(Fields.idQuery("response_id")),
  ...listFilterQuery
})

const responseParam = HttpApiSchema.param("response", Fields.PathId)

export class ResponsesApi extends HttpApiGroup.make("responses")
  .add(
    HttpApiEndpoint.get("list", "/responses")
      .setUrlParams(ResponsesQuery)
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Response))
      .pipe(guarded(
        "responses:read",
        "List responses",
        "The responses of the active project, by id (oldest first) unless `sort_by` (`id` or `collected_at`) and `sort_order` " +
          "(`asc` or `desc`) say otherwise; id in the same direction breaks ties. Filters `monitor_id`, `prompt_id`, `platform`, " +
          "`status`, and those of the analytics: `start_date` and `end_date` (UTC days of `collected_at`, inclusive, together), " +
          "`platforms[]`, `countries[]`, `monitors[]`, `tags[]` (the prompt carries any of them now)."
      ))
  )
  .add(
    HttpApiEndpoint.get("get")`/responses/${responseParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Response))
      .pipe(guarded("responses:read", "Read a response", "One response of the active project."))
  )
  .add(
    HttpApiEndpoint.post("create", "/responses")
      .setPayload(CreateResponse)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Response), { status: 201 })
      .pipe(guarded("responses:write", "Ingest a response", "Stores an answer and analyses it before answering: citations (from `citations`, or the URLs of the text), their sources and source URLs, and the brands mentioned, with position and sentiment. Answers the analyzed response."))
  )
  .add(
    HttpApiEndpoint.get("citations", "/citations")
      .setUrlParams(CitationsQuery)
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(Citation))
      .pipe(guarded(
        "citations:read",
        "List citations",
        "The citations of the active project's responses, by id (so a response's come in the platform's order); `response_id` narrows " +
          "to one response, and the filters of the responses (`start_date` and `end_date` on `collected_at`, `platforms[]`, " +
          "`countries[]`, `monitors[]`, `tags[]`) to theirs."
      ))
  )
  .middleware(ProjectContext)
  .addError(ErrorSchemas.NotFound)
  .addError(ErrorSchemas.ValidationError)
  .annotate(OpenApi.Title, "Responses")
{}
