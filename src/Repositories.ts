import { Layer } from "effect"
import * as Analytics from "./Analytics/AnalyticsSql.ts"
import * as AnalyticsMemory from "./Analytics/AnalyticsMemory.ts"
import * as ApiKeys from "./ApiKeys/Repo.ts"
import * as ApiKeysMemory from "./ApiKeys/RepoMemory.ts"
import * as BrandMentions from "./BrandMentions/Repo.ts"
import * as BrandMentionsMemory from "./BrandMentions/RepoMemory.ts"
import * as Brands from "./Brands/Repo.ts"
import * as Runs from "./Collector/Runs/Repo.ts"
import * as RunsMemory from "./Collector/Runs/RepoMemory.ts"
import * as BrandsMemory from "./Brands/RepoMemory.ts"
import { MemoryStore } from "./Memory/Store.ts"
import * as Monitors from "./Monitors/Repo.ts"
import * as MonitorsMemory from "./Monitors/RepoMemory.ts"
import * as Organizations from "./Organizations/Repo.ts"
import * as OrganizationsMemory from "./Organizations/RepoMemory.ts"
import * as Projects from "./Projects/Repo.ts"
import * as ProjectsMemory from "./Projects/RepoMemory.ts"
import * as Prompts from "./Prompts/Repo.ts"
import * as PromptsMemory from "./Prompts/RepoMemory.ts"
import * as Responses from "./Responses/Repo.ts"
import * as ResponsesMemory from "./Responses/RepoMemory.ts"
import * as Segments from "./Segments/Repo.ts"
import * as SegmentsMemory from "./Segments/RepoMemory.ts"
import * as Sources from "./Sources/Repo.ts"
import * as SourcesMemory from "./Sources/RepoMemory.ts"
import * as Tags from "./Tags/Repo.ts"
import * as TagsMemory from "./Tags/RepoMemory.ts"

/** Every repository, on the SQL database (needs a `SqlClient`). */
export const layerSql = Layer.mergeAll(
  Organizations.layerSql,
  ApiKeys.layerSql,
  Projects.layerSql,
  Monitors.layerSql,
  Runs.layerSql,
  Prompts.layerSql,
  Tags.layerSql,
  Brands.layerSql,
  Segments.layerSql,
  Responses.layerSql,
  Sources.layerSql,
  BrandMentions.layerSql,
  Analytics.layerSql
)

/** Every repository, on one fresh in-memory store: the reference implementation for tests. */
export const layerMemory = Layer.mergeAll(
  OrganizationsMemory.layerMemory,
  ApiKeysMemory.layerMemory,
  ProjectsMemory.layerMemory,
  MonitorsMemory.layerMemory,
  RunsMemory.layerMemory,
  PromptsMemory.layerMemory,
  TagsMemory.layerMemory,
  BrandsMemory.layerMemory,
  SegmentsMemory.layerMemory,
  ResponsesMemory.layerMemory,
  SourcesMemory.layerMemory,
  BrandMentionsMemory.layerMemory,
  AnalyticsMemory.layerMemory
).pipe(Layer.provideMerge(MemoryStore.layer))
