import { HttpApi, OpenApi } from "@effect/platform"
import * as ApiDocument from "./ApiDocument.ts"
import { AnalyticsApi } from "./Analytics/Api.ts"
import { ApiKeysApi } from "./ApiKeys/Api.ts"
import { BrandMentionsApi } from "./BrandMentions/Api.ts"
import { BrandsApi } from "./Brands/Api.ts"
import { CollectorApi } from "./Collector/Health/Api.ts"
import { RunsApi } from "./Collector/Runs/Api.ts"
import * as ErrorSchemas from "./Http/ErrorSchemas.ts"
import { cleanOpenApi } from "./Http/OpenApiCleanup.ts"
import { MeApi } from "./Me/Api.ts"
import { MonitorsApi } from "./Monitors/Api.ts"
import { OrganizationsApi } from "./Organizations/Api.ts"
import { ProjectApi, ProjectsApi } from "./Projects/Api.ts"
import { PromptsApi } from "./Prompts/Api.ts"
import { ResponsesApi } from "./Responses/Api.ts"
import { SegmentsApi } from "./Segments/Api.ts"
import { SourcesApi } from "./Sources/Api.ts"
import { SuggestionsApi } from "./Suggestions/Api.ts"
import { TagsApi } from "./Tags/Api.ts"
import { WebhooksApi } from "./Webhooks/Api.ts"

/** The whole API, declared once: it gives the server, the OpenAPI document and a typed client. */
export class Api extends HttpApi.make("brand-visibility")
  .add(MeApi)
  .add(OrganizationsApi)
  .add(ProjectsApi)
  .add(ProjectApi)
  .add(MonitorsApi)
  .add(RunsApi)
  .add(CollectorApi)
  .add(PromptsApi)
  .add(TagsApi)
  .add(BrandsApi)
  .add(SegmentsApi)
  .add(SuggestionsApi)
  .add(ResponsesApi)
  .add(SourcesApi)
  .add(BrandMentionsApi)
  .add(AnalyticsApi)
  .add(ApiKeysApi)
  .add(WebhooksApi)
  // Any endpoint may fail with these (ErrorResponse.ts); the other errors are declared where they arise.
  .addError(ErrorSchemas.ServerError)
  .addError(ErrorSchemas.ServiceUnavailable)
  .prefix("/api/v1")
  .annotate(OpenApi.Title, "Brand Visibility Monitoring API")
  .annotate(OpenApi.Version, "1")
  .annotate(OpenApi.License, ApiDocument.license)
  .annotate(OpenApi.Servers, ApiDocument.servers)
  .annotate(OpenApi.Transform, (spec) => ApiDocument.describeTags(cleanOpenApi(spec)))
  .annotate(
    OpenApi.Description,
    "Monitors how AI platforms answer the questions a brand's buyers ask. Authenticate with `Authorization: Bearer <key>`; " +
      "monitor, prompt, tag and other project-scoped endpoints also need `Service-Project-Id: <project id>`. " +
      "Lists use a Laravel-style pagination envelope (`data`, `links`, `meta`); single resources are wrapped in `data`."
  )
{}
