import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { platforms } from "../Domain/Platform.ts"
import {
  answerStates,
  Citation,
  finishReasons,
  MAX_RETRIEVED_URLS,
  MAX_SEARCH_QUERIES,
  MAX_URL_LENGTH,
  Response,
  statuses
} from "../Domain/Response.ts"
import { guarded } from "../Http/Authorize.ts"
import * as ErrorSchemas from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { CursorQuery, ListSchema } from "../Http/Cursor.ts"
import { ExportQuery } from "../Integrations/HttpExport.ts"
import { listFilterQuery } from "../Analytics/HttpQuery.ts"
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

/** The largest token count stored (PostgreSQL's integer). */
const MAX_TOKENS = 2_147_483_647

/** A count of tokens: a whole number, 0 or more. */
const tokens = (field: string) => {
  const label = field.replaceAll("_", " ")
  return Schema.Number.annotations({ message: () => `The ${label} field must be an integer.` }).pipe(
    Schema.filter(Number.isInteger, { message: () => `The ${label} field must be an integer.` }),
    Schema.filter((n) => n >= 0, { message: () => `The ${label} field must be at least 0.` }),
    Schema.filter((n) => n <= MAX_TOKENS, { message: () => `The ${label} field must not be greater than ${MAX_TOKENS}.` })
  ).annotations({ jsonSchema: { type: "integer", minimum: 0, maximum: MAX_TOKENS } })
}

const costUsd = Schema.Number.annotations({ message: () => "The cost usd field must be a number." }).pipe(
  Schema.filter(Number.isFinite, { message: () => "The cost usd field must be a number." }),
  Schema.filter((n) => n >= 0, { message: () => "The cost usd field must be at least 0." })
).annotations({ jsonSchema: { type: "number", minimum: 0 } })

const searchQuery = Schema.String.annotations({ message: () => "The search query must be a string." }).pipe(
  Schema.filter(Fields.isValidText, { message: () => "The search query must be valid Unicode text without NUL characters." }),
  Schema.filter((query) => query.trim().length > 0, { message: () => "The search query must not be empty." }),
  Schema.filter((query) => [...query].length <= MAX_URL_LENGTH, {
    message: () => `The search query must not be greater than ${MAX_URL_LENGTH} characters.`
  })
)

const isWebUrl = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

const retrievedUrl = Schema.String.annotations({ message: () => "The retrieved URL must be a string." }).pipe(
  Schema.filter(Fields.isValidText, { message: () => "The retrieved URL must be valid Unicode text without NUL characters." }),
  Schema.filter((url) => url.length <= MAX_URL_LENGTH, { message: () => `The retrieved URL must not be greater than ${MAX_URL_LENGTH} characters.` }),
  Schema.filter(isWebUrl, { message: () => "The retrieved URL must be an http or https URL." })
)

/** What an ingested answer may say of itself beyond its text and citations (docs/api.md, "Answer details"). */
const answerDetailInput = {
  model: Fields.optional(Fields.text("model", 200).annotations({ description: "The model that answered." })),
  answer_state: Fields.optional(
    Fields.oneOf("answer_state", answerStates).annotations({ description: "Default `answered`; only `answered` responses count in analytics." })
  ),
  finish_reason: Fields.optional(Fields.oneOf("finish_reason", finishReasons).annotations({ description: "Why the platform stopped writing." })),
  input_tokens: Fields.optional(tokens("input_tokens")),
  output_tokens: Fields.optional(tokens("output_tokens")),
  cost_usd: Fields.optional(costUsd.annotations({ description: "The cost the platform reported, in US dollars." })),
  search_queries: Fields.optional(
    Fields.boundedArray("search_queries", searchQuery, MAX_SEARCH_QUERIES).annotations({
      description: `The web searches the platform ran, in order (at most ${MAX_SEARCH_QUERIES}).`
    })
  ),
  retrieved_urls: Fields.optional(
    Fields.boundedArray("retrieved_urls", retrievedUrl, MAX_RETRIEVED_URLS).annotations({
      description: `URLs the platform retrieved but did not cite (at most ${MAX_RETRIEVED_URLS}); a cited one is dropped from them.`
    })
  )
}

export { detailsOf } from "./Ingestion.ts"

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
  country: Fields.optional(Fields.country("country").annotations({ description: "Default: the monitor's country." })),
  ...answerDetailInput
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
  ...CursorQuery,
  ...ExportQuery,
  monitor_id: Fields.optional(Fields.idQuery("monitor_id")),
  prompt_id: Fields.optional(Fields.idQuery("prompt_id")),
  platform: Fields.optional(Fields.oneOf("platform", platforms)),
  status: Fields.optional(Fields.oneOf("status", statuses)),
  sort_by: Fields.optional(Fields.oneOf("sort_by", responseSortColumns).annotations({ description: "Default `id`." })),
  sort_order: Fields.optional(Fields.oneOf("sort_order", ["asc", "desc"] as const).annotations({ description: "Default `asc`." })),
  q: Fields.optional(Fields.text("q", 200).annotations({
    description: "Search in the answer's text: the responses whose text contains every word of `q` (split on spaces), in any case. " +
      "1 to 200 characters, trimmed."
  })),
  ...listFilterQuery
})

export const CitationsQuery = Fields.input({
  ...PageQuery,
  ...CursorQuery,
  ...ExportQuery,
  response_id: Fields.optional(Fields.idQuery("response_id")),
  ...listFilterQuery
})

const responseParam = HttpApiSchema.param("response", Fields.PathId)

export class ResponsesApi extends HttpApiGroup.make("responses")
  .add(
    HttpApiEndpoint.get("list", "/responses")
      .setUrlParams(ResponsesQuery)
      .setHeaders(ProjectHeader)
      .addSuccess(ListSchema(Response))
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded(
        "responses:read",
        "List responses",
        "The responses of the active project, by id (oldest first) unless `sort_by` (`id` or `collected_at`) and `sort_order` " +
          "(`asc` or `desc`) say otherwise; id in the same direction breaks ties. Filters `monitor_id`, `prompt_id`, `platform`, " +
          "`status`, and those of the analytics: `start_date` and `end_date` (UTC days of `collected_at`, inclusive, together), " +
          "`platforms[]`, `countries[]`, `monitors[]`, `tags[]` (the prompt carries any of them now), and `q` (every word in the text, " +
          "in any case). `cursor` reads the list by cursor instead of by page (docs: \"Reading a whole list: cursors\"). " +
          "`format=csv` or `ndjson` downloads every row."
      ))
  )
  .add(
    HttpApiEndpoint.get("get")`/responses/${responseParam}`
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Response))
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded("responses:read", "Read a response", "One response of the active project."))
  )
  .add(
    HttpApiEndpoint.post("create", "/responses")
      .setPayload(CreateResponse)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Response), { status: 201 })
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded("responses:write", "Ingest a response", "Stores an answer and analyses it before answering: citations (from `citations`, or the URLs of the text), their sources and source URLs, and the brands mentioned, with position and sentiment. The answer details (`model`, `answer_state`, `finish_reason`, `input_tokens`, `output_tokens`, `cost_usd`, `search_queries`, `retrieved_urls`) are optional; a response that is not `answered` is stored but not counted in analytics. Answers the analyzed response."))
  )
  .add(
    HttpApiEndpoint.get("citations", "/citations")
      .setUrlParams(CitationsQuery)
      .setHeaders(ProjectHeader)
      .addSuccess(ListSchema(Citation))
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded(
        "citations:read",
        "List citations",
        "The citations of the active project's responses, by id (so a response's come in the platform's order); `response_id` narrows " +
          "to one response, and the filters of the responses (`start_date` and `end_date` on `collected_at`, `platforms[]`, " +
          "`countries[]`, `monitors[]`, `tags[]`) to theirs. `cursor` reads the list by cursor instead of by page. `format=csv` or " +
          "`ndjson` downloads every row."
      ))
  )
  .middleware(ProjectContext)
  .annotate(OpenApi.Title, "Responses")
{}
