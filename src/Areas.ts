import { AnalyticsArea } from "./Analytics/Http.ts"
import { ApiKeysArea } from "./ApiKeys/Http.ts"
import { BrandMentionsArea } from "./BrandMentions/Http.ts"
import { BrandsArea } from "./Brands/Http.ts"
import { CollectorHealthArea } from "./Collector/Health/Http.ts"
import { RunsArea } from "./Collector/Runs/Http.ts"
import { MeArea } from "./Me/Http.ts"
import { MonitorsArea } from "./Monitors/Http.ts"
import { OrganizationsArea } from "./Organizations/Http.ts"
import { ProjectsArea } from "./Projects/Http.ts"
import { PromptsArea } from "./Prompts/Http.ts"
import { ResponsesArea } from "./Responses/Http.ts"
import { SegmentsArea } from "./Segments/Http.ts"
import { SourcesArea } from "./Sources/Http.ts"
import { SuggestionsArea } from "./Suggestions/Http.ts"
import { TagsArea } from "./Tags/Http.ts"
import { WebhooksArea } from "./Webhooks/Http.ts"

/**
 * Every area of the API, in the order of the API document (src/Area.ts). The API, the server's handlers
 * and the repositories are folds over this list: a new area is one line here.
 */
export const areas = [
  MeArea,
  OrganizationsArea,
  ProjectsArea,
  MonitorsArea,
  RunsArea,
  CollectorHealthArea,
  PromptsArea,
  TagsArea,
  BrandsArea,
  SegmentsArea,
  SuggestionsArea,
  ResponsesArea,
  SourcesArea,
  BrandMentionsArea,
  AnalyticsArea,
  ApiKeysArea,
  WebhooksArea
] as const
