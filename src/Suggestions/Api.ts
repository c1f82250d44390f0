import { HttpApiEndpoint, HttpApiGroup, type HttpMethod, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ConfidenceInterval } from "../Analytics/Api.ts"
import { filterQuery, listFilterQuery, rawQuery } from "../Analytics/HttpQuery.ts"
import { Brand, classifications } from "../Domain/Brand.ts"
import { Id } from "../Domain/Common.ts"
import { Platform } from "../Domain/Platform.ts"
import { guarded } from "../Http/Authorize.ts"
import * as ErrorSchemas from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"
import { suggestionStatuses } from "./Repo.ts"

const DateOnly = Schema.String.annotations({ description: "A UTC calendar date, `YYYY-MM-DD`.", examples: ["2026-11-21"] })

const Backfill = Schema.Struct({
  status: Schema.Literal("running", "done").annotations({ description: "`running` while the brand's mentions are detected over the stored answers, then `done`." }),
  backfilled_responses: Schema.Int.annotations({ description: "Stored answers found so far to mention the brand." })
}).annotations({ identifier: "SuggestionBackfill" })

export const BrandSuggestion = Schema.Struct({
  id: Id,
  key: Schema.String.annotations({ description: "What its spellings share (lower case, no spaces, legal suffixes and category words dropped).", examples: ["pipedrive"] }),
  name: Schema.String.annotations({ description: "Its most used spelling in the window.", examples: ["Pipedrive"] }),
  status: Schema.Literal(...suggestionStatuses),
  variants: Schema.Array(Schema.Struct({ name: Schema.String, answers: Schema.Int })).annotations({ description: "Spellings with the answers using each, most used first." }),
  domains: Schema.Array(Schema.Struct({ domain: Schema.String, answers: Schema.Int })).annotations({ description: "Its domains (links, citations, written) with their answers." }),
  answers_count: Schema.Int.annotations({ description: "Answers of the window naming or citing it." }),
  responses_count: Schema.Int.annotations({ description: "Analyzed answers of the window (after the filters): the denominator of `rate`." }),
  rate: Schema.Number.annotations({ description: "100 × answers_count / responses_count, 2 places.", examples: [15] }),
  rate_ci: ConfidenceInterval,
  prompts_count: Schema.Int,
  platforms: Schema.Array(Platform),
  list_share: Schema.Number.annotations({ description: "Share of its answers naming it in a list item, heading or table row (2 places)." }),
  lift: Schema.NullOr(Schema.Number).annotations({
    description: "P(named | a tracked competitor is named) / P(named) over the window's answers, 2 places; null without a denominator."
  }),
  average_order: Schema.Number.annotations({ description: "Mean order of its first appearance among the brands of its answers (1 = first), 2 places." }),
  passes_gate: Schema.Boolean.annotations({ description: "At least 3 answers in 2 prompts, and 2 platforms or a list share of at least 0.5." }),
  gate_failures: Schema.Array(Schema.String).annotations({ description: "The gate's checks it fails, in words." }),
  why: Schema.String.annotations({ description: "Its figures in words." }),
  examples: Schema.Array(Schema.Struct({
    response_id: Id,
    platform: Platform,
    day: DateOnly,
    snippet: Schema.String,
    highlight: Schema.Struct({ start: Schema.Int, end: Schema.Int }).annotations({ description: "Where the name is in the snippet, [start, end)." }),
    offset: Schema.Int.annotations({ description: "Where the snippet starts in the answer's text." })
  })).annotations({ description: "The three latest answers naming it, with the passage around the name." }),
  first_seen_on: Schema.NullOr(DateOnly),
  last_seen_on: Schema.NullOr(DateOnly),
  brand_id: Schema.NullOr(Id).annotations({ description: "The brand it became (accepted, ignored) or joined (merged)." }),
  backfill: Schema.NullOr(Backfill).annotations({ description: "The detection of the brand's mentions over the stored answers, after accept or merge." })
}).annotations({ identifier: "BrandSuggestion" })

export const Decision = Schema.Struct({ brand: Brand, backfill: Schema.NullOr(Backfill) }).annotations({ identifier: "BrandSuggestionDecision" })

export const UntrackedShare = Schema.Struct({
  responses_count: Schema.Int.annotations({ description: "Analyzed answers of the window (after the filters)." }),
  candidates_count: Schema.Int.annotations({ description: "Open suggestions passing the gate in the window." }),
  untracked_mentions: Schema.Int.annotations({ description: "Mentions (one brand in one answer) of those suggestions." }),
  tracked_mentions: Schema.Int.annotations({ description: "Mentions of the counted brands (not `ignored`), as in brand analytics." }),
  total_mentions: Schema.Int.annotations({ description: "untracked_mentions + tracked_mentions." }),
  share: Schema.NullOr(Schema.Number).annotations({ description: "100 × untracked_mentions / total_mentions, 2 places; null without a mention.", examples: [23.08] }),
  share_ci: Schema.NullOr(ConfidenceInterval)
}).annotations({ identifier: "UntrackedShare" })

const statusQuery = rawQuery("`open` (default), `dismissed`, `accepted`, `merged` or `ignored`.", { type: "string", enum: suggestionStatuses, default: "open" })

const window = filterQuery({
  start: "First day of the window (inclusive, UTC), `YYYY-MM-DD`.",
  end: "Last day of the window (inclusive, UTC), `YYYY-MM-DD`: on or after `start_date`, not after today."
})

const gatedQuery = rawQuery("`true` (default): open and dismissed suggestions only when they pass the gate; `false`: every candidate of the window.", {
  type: "boolean",
  default: true
})

export const ListQuery = Fields.input({ ...window, status: statusQuery, gated: gatedQuery, ...PageQuery })
export const OneQuery = Fields.input(listFilterQuery)
export const ShareQuery = Fields.input(window)

export const AcceptBody = Fields.input({
  name: Fields.optional(Fields.text("name", 255)),
  aliases: Fields.optional(Fields.textList("aliases", 255, 50)),
  domains: Fields.optional(Fields.domainList("domains", 50)),
  classification: Fields.optional(Fields.oneOf("classification", classifications))
}).annotations({ examples: [{ name: "Pipedrive", aliases: ["Pipedrive CRM"], domains: ["pipedrive.com"], classification: "competitor" }] })

export const MergeBody = Fields.input({ brand_id: Fields.id("brand_id") }).annotations({ examples: [{ brand_id: 3 }] })

const path = Fields.pathIds("suggestion")

const projectEndpoint = <Name extends string, Method extends HttpMethod.HttpMethod, Path, UrlParams, Payload, Headers, Success, Error, R, RE>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, Headers, Success, Error, R, RE>
) => endpoint.setHeaders(ProjectHeader).addError(ErrorSchemas.ValidationError)

const WINDOW = "The window is `start_date`..`end_date` (UTC days, inclusive), narrowed by `platforms[]`, `countries[]`, `monitors[]` and `tags[]`."

export class SuggestionsApi extends HttpApiGroup.make("brandSuggestions")
  .add(
    projectEndpoint(HttpApiEndpoint.get("list", "/brand-suggestions").setUrlParams(ListQuery).addSuccess(PaginatedSchema(BrandSuggestion)))
      .pipe(guarded(
        "brands:read",
        "List brand suggestions",
        "The brands the window's answers name or cite that the project does not track, with their evidence: open and dismissed ones " +
          "when they pass the gate (3 answers in 2 prompts, and 2 platforms or a list share of 0.5), ranked by the lower bound of " +
          `\`rate_ci\`, then answers; decided ones (\`accepted\`, \`merged\`, \`ignored\`) whenever the window names them. ${WINDOW}`
      ))
  )
  .add(
    projectEndpoint(HttpApiEndpoint.get("get", "/brand-suggestions/:suggestion").setPath(path).setUrlParams(OneQuery).addSuccess(DataOf(BrandSuggestion)))
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded("brands:read", "Read a brand suggestion", "One suggestion with its evidence (every stored answer, or the optional window), gate or not, and its backfill."))
  )
  .add(
    projectEndpoint(HttpApiEndpoint.post("accept", "/brand-suggestions/:suggestion/accept").setPath(path).setPayload(AcceptBody)
      .addSuccess(DataOf(Decision), { status: 201 }))
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded(
        "brands:write",
        "Accept a brand suggestion",
        "Creates the brand (its most used spelling, the others as aliases, its domains, `competitor`; each replaceable by the body) " +
          "and detects its mentions over every stored answer of the project in the background, in short chunks: follow " +
          "`backfill` on `GET /brand-suggestions/{suggestion}`. 201."
      ))
  )
  .add(
    projectEndpoint(HttpApiEndpoint.post("merge", "/brand-suggestions/:suggestion/merge").setPath(path).setPayload(MergeBody)
      .addSuccess(DataOf(Decision)))
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded(
        "brands:write",
        "Merge a brand suggestion into a brand",
        "Adds the suggestion's spellings as aliases of the brand `brand_id` (of the active project) and detects its mentions again over " +
          "the stored answers in the background, as accept does."
      ))
  )
  .add(
    projectEndpoint(HttpApiEndpoint.post("dismiss", "/brand-suggestions/:suggestion/dismiss").setPath(path).addSuccess(DataOf(BrandSuggestion)))
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded(
        "brands:write",
        "Dismiss a brand suggestion",
        "Remembered: the suggestion stays dismissed unless the lower bound of its rate over every stored answer later doubles."
      ))
  )
  .add(
    projectEndpoint(HttpApiEndpoint.post("ignore", "/brand-suggestions/:suggestion/ignore").setPath(path).addSuccess(DataOf(Decision), { status: 201 }))
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded("brands:write", "Ignore a brand suggestion", "Creates the brand as `ignored` (never counted, never suggested again). 201."))
  )
  .add(
    projectEndpoint(HttpApiEndpoint.get("untrackedShare", "/analytics/brands/untracked-share").setUrlParams(ShareQuery).addSuccess(DataOf(UntrackedShare)))
      .pipe(guarded(
        "analytics:read",
        "Untracked share",
        "Of the brand mentions of the window (counted brands' and open suggestions' passing the gate), the share that went to the " +
          `suggestions, with its counts and 95% Wilson interval. ${WINDOW}`
      ))
  )
  .middleware(ProjectContext)
  .annotate(OpenApi.Title, "Brand suggestions")
{}
