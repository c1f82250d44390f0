import { HttpApiEndpoint, HttpApiGroup, type HttpMethod, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Id, Timestamp } from "../Domain/Common.ts"
import { guarded } from "../Http/Authorize.ts"
import * as ErrorSchemas from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { arrayQuery, filterQuery, rawQuery } from "./HttpQuery.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"
import { Classification } from "../Domain/Brand.ts"
import { brandMetrics, brandSortKeys, intervals, MAX_BUCKETS, measureKeys, promptSortKeys, sortOrders } from "./Analytics.ts"

// ---------------------------------------------------------------------------
// Query parameters
// ---------------------------------------------------------------------------

const raw = rawQuery

const CommonQuery = filterQuery({
  start: "First day of the window (inclusive, UTC), `YYYY-MM-DD`.",
  end: "Last day of the window (inclusive, UTC), `YYYY-MM-DD`: on or after `start_date`, not after today."
})

const sortQuery = (nameKey: "domain" | "url") => ({
  sort_by: raw("Default `used_percentage`. Ties: " + `\`${nameKey}\` ascending, then id.`, {
    type: "string",
    enum: [...measureKeys, nameKey],
    default: "used_percentage"
  }),
  sort_order: raw("`asc` or `desc` (default).", { type: "string", enum: sortOrders, default: "desc" })
})

const brandList = arrayQuery("Only rows (or series) of these brands of the active project; never changes a denominator.", {
  type: "integer",
  minimum: 1
})
const segmentList = arrayQuery("Only rows (or series) of brands in any of these segments of the active project; never changes a denominator.", {
  type: "integer",
  minimum: 1
})

/** `brands[]` and `segments[]`: which brands are shown, never what is counted. */
const SelectionQuery = {
  "brands[]": brandList.bracketed,
  brands: brandList.plain,
  "segments[]": segmentList.bracketed,
  segments: segmentList.plain
}

const intervalQuery = raw(`Bucket granularity: UTC days, ISO weeks (Monday), calendar months or years; at most ${MAX_BUCKETS} buckets.`, {
  type: "string",
  enum: intervals
})

const topNQuery = raw("Most series returned: 1 to 50, clamped (default 20; a value that is not an integer counts as 20).", {
  type: "integer",
  minimum: 1,
  maximum: 50,
  default: 20
})

export const SourcesQuery = Fields.input({ ...CommonQuery, ...sortQuery("domain"), ...PageQuery })
export const SourceUrlsQuery = Fields.input({ ...CommonQuery, ...sortQuery("url"), ...PageQuery })
export const SeriesQuery = Fields.input({ ...CommonQuery, interval: intervalQuery, top_n: topNQuery })

export const BrandsQuery = Fields.input({
  ...CommonQuery,
  ...SelectionQuery,
  sort_by: raw("Any numeric field of a row, or `name`; default `visibility`. Nulls come last in either order; ties by name (code point order), then id.", {
    type: "string",
    enum: brandSortKeys,
    default: "visibility"
  }),
  sort_order: raw("`asc` or `desc` (default).", { type: "string", enum: sortOrders, default: "desc" }),
  ...PageQuery
})

export const BrandSeriesQuery = Fields.input({
  ...CommonQuery,
  ...SelectionQuery,
  interval: intervalQuery,
  metric: raw("What each point measures: `visibility` (default), `share_of_voice`, `average_position` or `average_sentiment`.", {
    type: "string",
    enum: brandMetrics,
    default: "visibility"
  }),
  top_n: topNQuery
})

export const PromptsQuery = Fields.input({
  ...CommonQuery,
  sort_by: raw(
    "`own_visibility` (default: where the own brand is missing first), `responses_count`, `brands_mentioned` or `text`. " +
      "Nulls come last in either order; ties by prompt id.",
    { type: "string", enum: promptSortKeys, default: "own_visibility" }
  ),
  sort_order: raw("`asc` (default) or `desc`.", { type: "string", enum: sortOrders, default: "asc" }),
  ...PageQuery
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
// Brand analytics rows
// ---------------------------------------------------------------------------

const Percentage = (description: string, example: number) =>
  Schema.NullOr(Schema.Number).annotations({ description, examples: [example] })

const Count = (description: string, example: number) => Schema.Int.annotations({ description, examples: [example] })

export const ConfidenceInterval = Schema.Struct({
  low: Schema.Number.annotations({ description: "Lower bound, a percentage (2 places).", examples: [23.66] }),
  high: Schema.Number.annotations({ description: "Upper bound, a percentage (2 places).", examples: [76.34] })
}).annotations({
  identifier: "ConfidenceInterval",
  description: "The Wilson score interval at 95% (z = 1.959963984540054) of a proportion, as percentages rounded to 2 places."
})

export const BrandRef = Schema.Struct({
  id: Id,
  name: Schema.String.annotations({ examples: ["Acme"] }),
  classification: Classification,
  is_own: Schema.Boolean.annotations({ description: "Whether it is the project's own brand (`brand_id` of the project)." })
}).annotations({ identifier: "BrandRef" })

const Change = (description: string, example: number) => Schema.NullOr(Schema.Number).annotations({ description, examples: [example] })

const Significant = (description: string) => Schema.Boolean.annotations({ description })

export const BrandAnalyticsRow = Schema.Struct({
  brand: BrandRef,
  responses_count: Count("Analyzed responses in the window (after the filters): the denominator of visibility.", 480),
  mentioned_count: Count("Responses in the window mentioning the brand.", 156),
  visibility: Percentage("100 × mentioned_count / responses_count, 2 places; null when there is no response.", 32.5),
  visibility_ci: Schema.NullOr(ConfidenceInterval),
  visibility_change: Change("Visibility minus its value over the previous period, from the unrounded values (2 places); null when either is null.", 4.17),
  visibility_change_significant: Significant(
    "Whether the change passes a two-sided two-proportion z-test with the pooled proportion at 95%; false when either period has no response."
  ),
  total_mentions: Count("Mentions in the window of all counted brands (not classified `ignored`): the denominator of share of voice.", 1210),
  share_of_voice: Percentage("100 × mentioned_count / total_mentions, 2 places; null when there is no mention.", 12.89),
  share_of_voice_ci: Schema.NullOr(ConfidenceInterval),
  share_of_voice_change: Change("Share of voice minus its value over the previous period, from the unrounded values (2 places); null when either is null.", -1.5),
  share_of_voice_change_significant: Significant(
    "Whether the change passes a two-sided two-proportion z-test with the pooled proportion at 95%; false when either period has no mention."
  ),
  average_position: Percentage("Mean position of the brand's mentions in the window (1 = named first), 2 places; null without a mention.", 1.84),
  average_position_change: Change("Average position minus its value over the previous period (2 places); null when either is null.", -0.21),
  average_sentiment: Percentage("Mean sentiment score (0-100, 50 neutral) of the brand's mentions in the window, 2 places; null without a mention.", 61.3),
  average_sentiment_change: Change("Average sentiment minus its value over the previous period (2 places); null when either is null.", 2.05),
  first_seen_on: Schema.NullOr(DateOnly).annotations({ description: "Earliest date of the brand's mentions on analyzed responses of the project (no filter, no window); null if never mentioned." }),
  last_seen_on: Schema.NullOr(DateOnly).annotations({ description: "Latest date of the brand's mentions on analyzed responses of the project (no filter, no window); null if never mentioned." }),
  previous_responses_count: Count(
    "Analyzed responses in the previous period (the same number of days right before the window, same filters): the denominator of the previous visibility; 0 when there is none.",
    480
  ),
  previous_mentioned_count: Count("Responses in the previous period mentioning the brand; 0 when there is none.", 126),
  previous_total_mentions: Count(
    "Mentions in the previous period of all counted brands: the denominator of the previous share of voice; 0 when there is none.",
    1061
  )
}).annotations({
  identifier: "BrandAnalyticsRow",
  description: "One counted brand of the project over the window, with what each measure is made of.",
  examples: [{
    brand: { id: 3, name: "Acme", classification: "competitor", is_own: true },
    responses_count: 480,
    mentioned_count: 156,
    visibility: 32.5,
    visibility_ci: { low: 28.46, high: 36.81 },
    visibility_change: 6.25,
    visibility_change_significant: true,
    total_mentions: 1210,
    share_of_voice: 12.89,
    share_of_voice_ci: { low: 11.12, high: 14.9 },
    share_of_voice_change: 1.02,
    share_of_voice_change_significant: false,
    average_position: 1.84,
    average_position_change: -0.21,
    average_sentiment: 61.3,
    average_sentiment_change: 2.05,
    first_seen_on: "2026-05-26",
    last_seen_on: "2026-11-21",
    previous_responses_count: 480,
    previous_mentioned_count: 126,
    previous_total_mentions: 1061
  }]
})

export const BrandSeriesPoint = Schema.Struct({
  timestamp: Timestamp.annotations({ description: "Start of the bucket (UTC)." }),
  value: Schema.NullOr(Schema.Number).annotations({
    description: "The metric over the bucket (2 places); null when its denominator (or, for a mean, its sample) is 0.",
    examples: [33.33]
  }),
  count: Count("The numerator of a proportion (responses mentioning the brand), or the sample size of a mean (its mentions).", 4),
  total: Schema.NullOr(Schema.Int).annotations({
    description: "The denominator of a proportion (responses, or mentions of counted brands); null for a mean.",
    examples: [12]
  })
}).annotations({
  identifier: "BrandSeriesPoint",
  examples: [{ timestamp: new Date("2026-11-16T00:00:00.000Z"), value: 33.33, count: 4, total: 12 }]
})

export const BrandSeries = Schema.Struct({
  brand: BrandRef,
  data: Schema.Array(BrandSeriesPoint).annotations({ description: "Every bucket of the window, in order." })
}).annotations({ identifier: "BrandSeries" })

export const BrandTimeSeries = Schema.Struct({
  interval: Schema.Literal(...intervals),
  metric: Schema.Literal(...brandMetrics),
  series: Schema.Array(BrandSeries).annotations({ description: "The top brands, most mentioned in the window first." })
}).annotations({ identifier: "BrandTimeSeries" })

export const PromptRef = Schema.Struct({
  id: Id,
  text: Schema.String.annotations({ examples: ["What is the best CRM for a small agency?"] }),
  monitor_id: Id
}).annotations({ identifier: "PromptRef" })

export const PromptAnalyticsRow = Schema.Struct({
  prompt: PromptRef,
  responses_count: Count("Analyzed responses to the prompt in the window (after the filters).", 24),
  own: Schema.NullOr(Schema.Struct({
    mentioned_count: Count("Responses to the prompt mentioning the own brand.", 6),
    visibility: Percentage("100 × mentioned_count / responses_count, 2 places.", 25),
    visibility_ci: Schema.NullOr(ConfidenceInterval),
    average_position: Percentage("Mean position of the own brand's mentions, 2 places; null without a mention.", 2.17)
  })).annotations({ description: "The project's own brand; null when the project has none (or it is classified `ignored`)." }),
  top_competitor: Schema.NullOr(Schema.Struct({
    brand: BrandRef,
    mentioned_count: Count("Responses to the prompt mentioning it.", 15),
    visibility: Percentage("100 × mentioned_count / responses_count, 2 places.", 62.5)
  })).annotations({
    description: "The counted brand other than the own one mentioned by most responses (ties by name, then id); null when none is mentioned."
  }),
  brands_mentioned: Count("Counted brands mentioned at least once in the prompt's responses.", 5)
}).annotations({
  identifier: "PromptAnalyticsRow",
  description: "One prompt answered in the window.",
  examples: [{
    prompt: { id: 12, text: "What is the best CRM for a small agency?", monitor_id: 2 },
    responses_count: 24,
    own: { mentioned_count: 6, visibility: 25, visibility_ci: { low: 12, high: 44.9 }, average_position: 2.17 },
    top_competitor: { brand: { id: 5, name: "Globex", classification: "competitor", is_own: false }, mentioned_count: 15, visibility: 62.5 },
    brands_mentioned: 5
  }]
})

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

const BRANDS = "Counted brands are the project's brands not classified `ignored` (now); the own brand is the project's `brand_id`. " +
  "Percentages and means have 2 places and are null where their denominator is 0."

const COMMON = "The window is `start_date`..`end_date` (UTC days, inclusive); the previous period is the same number of days right before it. " +
  "Only analyzed responses of the active project count, narrowed by `platforms[]`, `countries[]`, `monitors[]` and `tags[]`."

/**
 * An analytics endpoint: behind the project header and `analytics:read`, a 422 when its query is wrong,
 * and the query parameters the OpenAPI document marks as required.
 */
const analyticsEndpoint = <Name extends string, Method extends HttpMethod.HttpMethod, Path, UrlParams, Payload, Headers, Success, Error, R, RE>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>,
  required: ReadonlyArray<string>,
  summary: string,
  description: string
) =>
  endpoint.setHeaders(ProjectHeader)
    .addError(ErrorSchemas.ValidationError)
    .pipe(guarded("analytics:read", summary, description))
    .annotate(OpenApi.Transform, requiredParameters(...required))

export class AnalyticsApi extends HttpApiGroup.make("analytics")
  .add(
    analyticsEndpoint(
      HttpApiEndpoint.get("sources", "/analytics/sources").setUrlParams(SourcesQuery).addSuccess(PaginatedSchema(SourceAnalyticsRow)),
      ["start_date", "end_date"],
      "Source analytics",
        `The sources (domains) cited in the window: share of analyzed responses citing each, average citations per response, ` +
          `changes against the previous period, lifetime first and last dates. ${COMMON}`
    )
  )
  .add(
    analyticsEndpoint(
      HttpApiEndpoint.get("sourceUrls", "/analytics/source-urls").setUrlParams(SourceUrlsQuery).addSuccess(PaginatedSchema(SourceUrlAnalyticsRow)),
      ["start_date", "end_date"],
      "Source-URL analytics",
        `The same measures per exact URL cited in the window. ${COMMON}`
    )
  )
  .add(
    analyticsEndpoint(
      HttpApiEndpoint.get("sourceUrlUsage", "/analytics/source-url-usage-time-series").setUrlParams(SeriesQuery).addSuccess(DataOf(SourceUrlUsage)),
      ["start_date", "end_date", "interval"],
      "Source-URL usage time series",
        `For the \`top_n\` URLs most cited in the window (ties by URL), the percentage of analyzed responses citing each, per bucket; ` +
          `every bucket from the one holding \`start_date\` to the one holding \`end_date\` is present. ${COMMON}`
    )
  )
  .add(
    analyticsEndpoint(
      HttpApiEndpoint.get("brands", "/analytics/brands").setUrlParams(BrandsQuery).addSuccess(PaginatedSchema(BrandAnalyticsRow)),
      ["start_date", "end_date"],
      "Brand analytics",
        "Every counted brand of the project (zero counts included): visibility (share of analyzed responses mentioning it), " +
          "share of voice (share of the counted brands' mentions), average position and sentiment, each with the counts it is made of, " +
          "95% Wilson intervals on the two proportions, changes against the previous period and whether the proportions' changes " +
          "are significant (two-proportion z-test), and the lifetime first and last dates. `brands[]` and `segments[]` choose the rows, " +
          `never the denominators. ${BRANDS} ${COMMON}`
    )
  )
  .add(
    analyticsEndpoint(
      HttpApiEndpoint.get("brandSeries", "/analytics/brands/time-series").setUrlParams(BrandSeriesQuery).addSuccess(DataOf(BrandTimeSeries)),
      ["start_date", "end_date", "interval"],
      "Brand time series",
        "One metric per bucket for the `top_n` counted brands (or those of `brands[]` / `segments[]`) most mentioned in the window " +
          "(ties by name, then id), every point with its numerator and denominator (or sample size); every bucket from the one " +
          `holding \`start_date\` to the one holding \`end_date\` is present. ${BRANDS} ${COMMON}`
    )
  )
  .add(
    analyticsEndpoint(
      HttpApiEndpoint.get("prompts", "/analytics/prompts").setUrlParams(PromptsQuery).addSuccess(PaginatedSchema(PromptAnalyticsRow)),
      ["start_date", "end_date"],
      "Prompt analytics",
        "Every prompt with at least one analyzed response in the window: the own brand's visibility with its interval and average " +
          "position, the competitor mentioned most, and how many counted brands were mentioned. By default the prompts where the own " +
          `brand is least visible come first. ${BRANDS} ${COMMON}`
    )
  )
  .middleware(ProjectContext)
  .annotate(OpenApi.Title, "Analytics")
{}
