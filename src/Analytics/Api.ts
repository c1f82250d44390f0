import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Id, Timestamp } from "../Domain/Common.ts"
import { platforms } from "../Domain/Platform.ts"
import { requires } from "../Http/Authorize.ts"
import { BadRequest } from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"
import { intervals, MAX_BUCKETS, measureKeys, sortOrders } from "./Analytics.ts"

// ---------------------------------------------------------------------------
// Query parameters
// ---------------------------------------------------------------------------

/**
 * Every analytics parameter is declared as text (one value or repeated) and never fails to decode:
 * the handlers check the query themselves (Query.ts), after the project header, so that a 422 lists
 * every failing field under the names of docs/api.md (`platforms.0`, whatever form was sent).
 */
const raw = (description: string, jsonSchema: object) =>
  Fields.optional(
    Schema.Union(Schema.String, Schema.Array(Schema.String)).annotations({
      description,
      jsonSchema: { ...jsonSchema, description }
    })
  )

const list = (description: string, items: object) => {
  const schema = { type: "array", items }
  return {
    bracketed: raw(`${description} Repeated: \`name[]=a&name[]=b\`.`, schema),
    plain: raw(`${description} Same as the bracketed form: \`name=a&name=b\`.`, schema)
  }
}

const platformList = list("Only responses of these platforms.", { type: "string", enum: platforms })
const countryList = list("Only responses collected in these countries (ISO 3166-1 alpha-2, any case).", {
  type: "string",
  minLength: 2,
  maxLength: 2
})
const monitorList = list("Only responses of these monitors of the active project.", { type: "integer", minimum: 1 })
const tagList = list("Only responses whose prompt carries any of these tags of the active project (now).", {
  type: "integer",
  minimum: 1
})

const CommonQuery = {
  start_date: raw("First day of the window (inclusive, UTC), `YYYY-MM-DD`.", { type: "string", format: "date" }),
  end_date: raw("Last day of the window (inclusive, UTC), `YYYY-MM-DD`: on or after `start_date`, not after today.", {
    type: "string",
    format: "date"
  }),
  "platforms[]": platformList.bracketed,
  platforms: platformList.plain,
  "countries[]": countryList.bracketed,
  countries: countryList.plain,
  "monitors[]": monitorList.bracketed,
  monitors: monitorList.plain,
  "tags[]": tagList.bracketed,
  tags: tagList.plain
}

const sortQuery = (nameKey: "domain" | "url") => ({
  sort_by: raw("Default `used_percentage`. Ties: " + `\`${nameKey}\` ascending, then id.`, {
    type: "string",
    enum: [...measureKeys, nameKey],
    default: "used_percentage"
  }),
  sort_order: raw("`asc` or `desc` (default).", { type: "string", enum: sortOrders, default: "desc" })
})

export const SourcesQuery = Fields.input({ ...CommonQuery, ...sortQuery("domain"), ...PageQuery })
export const SourceUrlsQuery = Fields.input({ ...CommonQuery, ...sortQuery("url"), ...PageQuery })
export const SeriesQuery = Fields.input({
  ...CommonQuery,
  interval: raw(`Bucket granularity: UTC days, ISO weeks (Monday), calendar months or years; at most ${MAX_BUCKETS} buckets.`, {
    type: "string",
    enum: intervals
  }),
  top_n: raw("Most series returned: 1 to 50, clamped (default 20; a value that is not an integer counts as 20).", {
    type: "integer",
    minimum: 1,
    maximum: 50,
    default: 20
  })
})

// ---------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------

const DateOnly = Schema.String.annotations({ description: "A UTC calendar date, `YYYY-MM-DD`.", examples: ["2026-11-21"] })

/** The measures of a row, in the order docs/api.md shows them. */
const measures = {
  used_count: Schema.Int.annotations({ description: "Distinct analyzed responses in the window citing it." }),
  used_count_change: Schema.Int.annotations({ description: "`used_count` minus its value over the previous period." }),
  used_percentage: Schema.Int.annotations({ description: "round(100 × used_count / analyzed responses in the window); 0 when none." }),
  used_percentage_change: Schema.Int.annotations({ description: "`used_percentage` minus its value over the previous period." }),
  average_citations: Schema.Number.annotations({
    description: "Citations of it per analyzed response in the window, rounded to 2 places; 0 when none.",
    examples: [0.57]
  }),
  average_citations_change: Schema.Number.annotations({
    description: "`average_citations` minus its value over the previous period (2 places).",
    examples: [-0.12]
  }),
  first_seen_on: DateOnly.annotations({ description: "Earliest date any analyzed response of the project cited it (no filter, no window)." }),
  last_seen_on: DateOnly.annotations({ description: "Latest date any analyzed response of the project cited it (no filter, no window)." })
}

export const SourceRef = Schema.Struct({ id: Id, domain: Schema.String }).annotations({ identifier: "SourceRef" })

export const SourceUrlRef = Schema.Struct({ id: Id, source_id: Id, url: Schema.String }).annotations({ identifier: "SourceUrlRef" })

export const SourceAnalyticsRow = Schema.Struct({ source: SourceRef, ...measures }).annotations({
  identifier: "SourceAnalyticsRow",
  description: "One source (domain) cited in the window."
})

export const SourceUrlAnalyticsRow = Schema.Struct({ source_url: SourceUrlRef, ...measures }).annotations({
  identifier: "SourceUrlAnalyticsRow",
  description: "One exact URL cited in the window."
})

export const TimeSeriesPoint = Schema.Struct({
  timestamp: Timestamp.annotations({ description: "Start of the bucket (UTC)." }),
  value: Schema.Int.annotations({ description: "Percentage of the bucket's analyzed responses citing the URL; 0 for an empty bucket." })
}).annotations({ identifier: "TimeSeriesPoint" })

export const SourceUrlUsageSeries = Schema.Struct({
  source_url: SourceUrlRef,
  data: Schema.Array(TimeSeriesPoint).annotations({ description: "Every bucket of the window, in order." })
}).annotations({ identifier: "SourceUrlUsageSeries" })

export const SourceUrlUsage = Schema.Struct({
  interval: Schema.Literal(...intervals),
  series: Schema.Array(SourceUrlUsageSeries).annotations({ description: "The top URLs, most cited first." })
}).annotations({ identifier: "SourceUrlUsageTimeSeries" })

// ---------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------

/**
 * The document marks the required parameters as required: they are declared optional so that their
 * absence is reported by the handler together with every other failing field.
 */
const requiredParameters = (...names: ReadonlyArray<string>) => (operation: Record<string, any>): Record<string, any> => ({
  ...operation,
  parameters: (operation.parameters ?? []).map((parameter: Record<string, any>) =>
    parameter.in === "query" && names.includes(parameter.name) ? { ...parameter, required: true } : parameter
  )
})

const COMMON = "The window is `start_date`..`end_date` (UTC days, inclusive); the previous period is the same number of days right before it. " +
  "Only analyzed responses of the active project count, narrowed by `platforms[]`, `countries[]`, `monitors[]` and `tags[]`."

export class AnalyticsApi extends HttpApiGroup.make("analytics")
  .add(
    HttpApiEndpoint.get("sources", "/analytics/sources")
      .setUrlParams(SourcesQuery)
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(SourceAnalyticsRow))
      .middleware(requires("analytics:read"))
      .annotate(OpenApi.Summary, "Source analytics")
      .annotate(OpenApi.Transform, requiredParameters("start_date", "end_date"))
      .annotate(
        OpenApi.Description,
        `The sources (domains) cited in the window: share of analyzed responses citing each, average citations per response, ` +
          `changes against the previous period, lifetime first and last dates. ${COMMON} Ability \`analytics:read\`.`
      )
  )
  .add(
    HttpApiEndpoint.get("sourceUrls", "/analytics/source-urls")
      .setUrlParams(SourceUrlsQuery)
      .setHeaders(ProjectHeader)
      .addSuccess(PaginatedSchema(SourceUrlAnalyticsRow))
      .middleware(requires("analytics:read"))
      .annotate(OpenApi.Summary, "Source-URL analytics")
      .annotate(OpenApi.Transform, requiredParameters("start_date", "end_date"))
      .annotate(
        OpenApi.Description,
        `The same measures per exact URL cited in the window. ${COMMON} Ability \`analytics:read\`.`
      )
  )
  .add(
    HttpApiEndpoint.get("sourceUrlUsage", "/analytics/source-url-usage-time-series")
      .setUrlParams(SeriesQuery)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(SourceUrlUsage))
      .middleware(requires("analytics:read"))
      .annotate(OpenApi.Summary, "Source-URL usage time series")
      .annotate(OpenApi.Transform, requiredParameters("start_date", "end_date", "interval"))
      .annotate(
        OpenApi.Description,
        `For the \`top_n\` URLs most cited in the window (ties by URL), the percentage of analyzed responses citing each, per bucket; ` +
          `every bucket from the one holding \`start_date\` to the one holding \`end_date\` is present. ${COMMON} ` +
          "Ability `analytics:read`."
      )
  )
  .middleware(ProjectContext)
  .addError(BadRequest)
  .annotate(OpenApi.Title, "Analytics")
{}
