import { type Context, Effect, Layer } from "effect"
import { type Area, mergeAll, type Repository } from "./Area.ts"
import { areas } from "./Areas.ts"
import { KeyCache } from "./ApiKeys/KeyCache.ts"
import * as Workers from "./Collector/Workers.ts"
import { WorkersRepo } from "./Collector/Workers.ts"
import { MemoryStore } from "./Memory/Store.ts"
import { traced } from "./Observability/Tracing.ts"

/** A repository whose every call is a span named after it (`TagsRepo.list`): Observability/Tracing.ts. */
const withSpans = <I, S extends object, E, R>(tag: Context.Tag<I, S>, layer: Layer.Layer<I, E, R>) =>
  Layer.effect(tag, Effect.map(tag, (service) => traced(tag.key, service))).pipe(Layer.provide(layer))

/** The repositories of every area (src/Areas.ts). */
type AreaRepository = Area.Repositories<(typeof areas)[number]>
const repositories = areas.flatMap((area): ReadonlyArray<AreaRepository> => area.repositories)

// Each layer is its repository's, with spans: the union of their types, which TypeScript does not follow through `map`.
const spanned = <L>(repository: Repository.Any, layer: "sql" | "memory") => withSpans(repository.tag, repository[layer]) as L

/** Every repository, on the SQL database (needs a `SqlClient` and a `KeyCache`): the collector's workers, and the areas'. */
const repositoriesSql = Layer.merge(
  withSpans(WorkersRepo, Workers.layerSql),
  mergeAll(repositories.map((repository) => spanned<Repository.Sql<AreaRepository>>(repository, "sql")))
)

/** Every repository on the SQL database, for what authenticates no request (the CLI, workers): no key cache. */
export const layerSql = repositoriesSql.pipe(Layer.provide(KeyCache.off))

/**
 * Every repository on the SQL database, for an API server: on PostgreSQL, keys are cached while the
 * database announces their changes (ApiKeys/KeyCache.ts).
 */
export const layerSqlServing = repositoriesSql.pipe(Layer.provide(KeyCache.layer))

/** Every repository, on one fresh in-memory store: the reference implementation for tests. */
export const layerMemory = Layer.merge(
  withSpans(WorkersRepo, Workers.layerMemory),
  mergeAll(repositories.map((repository) => spanned<Repository.Memory<AreaRepository>>(repository, "memory")))
).pipe(Layer.provideMerge(MemoryStore.layer))
