import { type Context, Effect, Layer } from "effect"
import { Analytics as AnalyticsService } from "./Analytics/Analytics.ts"
import { KeyCache } from "./ApiKeys/KeyCache.ts"
import { ApiKeysRepo } from "./ApiKeys/Repo.ts"
import { BrandMentionsRepo } from "./BrandMentions/Repo.ts"
import { BrandsRepo } from "./Brands/Repo.ts"
import { RunsRepo } from "./Collector/Runs/Repo.ts"
import { WorkersRepo } from "./Collector/Workers.ts"
import { MonitorsRepo } from "./Monitors/Repo.ts"
import { traced } from "./Observability/Tracing.ts"
import { OrganizationsRepo } from "./Organizations/Repo.ts"
import { ProjectsRepo } from "./Projects/Repo.ts"
import { PromptsRepo } from "./Prompts/Repo.ts"
import { ResponsesRepo } from "./Responses/Repo.ts"
import { SegmentsRepo } from "./Segments/Repo.ts"
import { SourcesRepo } from "./Sources/Repo.ts"
import { SuggestionsRepo } from "./Suggestions/Repo.ts"
import { TagsRepo } from "./Tags/Repo.ts"
import { WebhooksRepo } from "./Webhooks/Repo.ts"
import * as Webhooks from "./Webhooks/Repo.ts"
import * as WebhooksMemory from "./Webhooks/RepoMemory.ts"
import * as Analytics from "./Analytics/AnalyticsSql.ts"
import * as AnalyticsMemory from "./Analytics/AnalyticsMemory.ts"
import * as ApiKeys from "./ApiKeys/Repo.ts"
import * as ApiKeysMemory from "./ApiKeys/RepoMemory.ts"
import * as BrandMentions from "./BrandMentions/Repo.ts"
import * as BrandMentionsMemory from "./BrandMentions/RepoMemory.ts"
import * as Brands from "./Brands/Repo.ts"
import * as Runs from "./Collector/Runs/Repo.ts"
import * as RunsMemory from "./Collector/Runs/RepoMemory.ts"
import * as Workers from "./Collector/Workers.ts"
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
import * as Suggestions from "./Suggestions/Repo.ts"
import * as SuggestionsMemory from "./Suggestions/RepoMemory.ts"
import * as Tags from "./Tags/Repo.ts"
import * as TagsMemory from "./Tags/RepoMemory.ts"

/** A repository whose every call is a span named after it (`TagsRepo.list`): Observability/Tracing.ts. */
const withSpans = <I, S extends object, E, R>(tag: Context.Tag<I, S>, layer: Layer.Layer<I, E, R>) =>
  Layer.effect(tag, Effect.map(tag, (service) => traced(tag.key, service))).pipe(Layer.provide(layer))

/** Every repository, on the SQL database (needs a `SqlClient` and a `KeyCache`). */
const repositoriesSql = Layer.mergeAll(
  withSpans(WorkersRepo, Workers.layerSql),
  withSpans(OrganizationsRepo, Organizations.layerSql),
  withSpans(ApiKeysRepo, ApiKeys.layerSql),
  withSpans(ProjectsRepo, Projects.layerSql),
  withSpans(MonitorsRepo, Monitors.layerSql),
  withSpans(RunsRepo, Runs.layerSql.pipe(Layer.provide(Workers.layerSql))),
  withSpans(PromptsRepo, Prompts.layerSql),
  withSpans(TagsRepo, Tags.layerSql),
  withSpans(BrandsRepo, Brands.layerSql),
  withSpans(SegmentsRepo, Segments.layerSql),
  withSpans(ResponsesRepo, Responses.layerSql),
  withSpans(SourcesRepo, Sources.layerSql),
  withSpans(BrandMentionsRepo, BrandMentions.layerSql),
  withSpans(AnalyticsService, Analytics.layerSql),
  withSpans(SuggestionsRepo, Suggestions.layerSql),
  withSpans(WebhooksRepo, Webhooks.layerSql)
)

/** Every repository on the SQL database, for what authenticates no request (the CLI, workers): no key cache. */
export const layerSql = repositoriesSql.pipe(Layer.provide(KeyCache.off))

/**
 * Every repository on the SQL database, for an API server: on PostgreSQL, keys are cached while the
 * database announces their changes (ApiKeys/KeyCache.ts).
 */
export const layerSqlServing = repositoriesSql.pipe(Layer.provide(KeyCache.layer))

/** Every repository, on one fresh in-memory store: the reference implementation for tests. */
export const layerMemory = Layer.mergeAll(
  withSpans(WorkersRepo, Workers.layerMemory),
  withSpans(OrganizationsRepo, OrganizationsMemory.layerMemory),
  withSpans(ApiKeysRepo, ApiKeysMemory.layerMemory),
  withSpans(ProjectsRepo, ProjectsMemory.layerMemory),
  withSpans(MonitorsRepo, MonitorsMemory.layerMemory),
  withSpans(RunsRepo, RunsMemory.layerMemory.pipe(Layer.provide(Workers.layerMemory))),
  withSpans(PromptsRepo, PromptsMemory.layerMemory),
  withSpans(TagsRepo, TagsMemory.layerMemory),
  withSpans(BrandsRepo, BrandsMemory.layerMemory),
  withSpans(SegmentsRepo, SegmentsMemory.layerMemory),
  withSpans(ResponsesRepo, ResponsesMemory.layerMemory),
  withSpans(SourcesRepo, SourcesMemory.layerMemory),
  withSpans(BrandMentionsRepo, BrandMentionsMemory.layerMemory),
  withSpans(AnalyticsService, AnalyticsMemory.layerMemory),
  withSpans(SuggestionsRepo, SuggestionsMemory.layerMemory),
  withSpans(WebhooksRepo, WebhooksMemory.layerMemory)
).pipe(Layer.provideMerge(MemoryStore.layer))
