import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Redacted } from "effect"
import { createServer } from "node:http"
import { ApiKeysRepo } from "../../src/ApiKeys/Repo.ts"
import { Settings } from "../../src/Config.ts"
import * as Database from "../../src/Database/Database.ts"
import * as Migrations from "../../src/Database/Migrations.ts"
import { generateKey, hashKey, keyPrefix } from "../../src/Domain/ApiKey.ts"
import type { Classification } from "../../src/Domain/Brand.ts"
import type { Platform } from "../../src/Domain/Platform.ts"
import type { AnswerState, ResponseStatus } from "../../src/Domain/Response.ts"
import * as Health from "../../src/Http/Health.ts"
import { requestLog } from "../../src/Http/RequestLog.ts"
import { MemoryStore, type MemoryTables } from "../../src/Memory/Store.ts"
import { OrganizationsRepo } from "../../src/Organizations/Repo.ts"
import * as Repositories from "../../src/Repositories.ts"
import { Analyzer } from "../../src/Responses/Analyzer.ts"
import { storedDetails } from "../../src/Responses/Repo.ts"
import { ApiLive } from "../../src/Server.ts"
import { type Backend, createDatabase, migratedSnapshot, type Reply, type RequestOptions } from "./TestServer.ts"

/**
 * Analytics datasets: one description, written row for row into the in-memory tables or into SQL
 * (plain INSERTs), so that both implementations see the same data. Ids are allocated by each store
 * (its sequences), in the order of the description, so they keep the same relative order everywhere.
 */

export interface DatasetSpec {
  /** Monitors, by country (upper-case) and platforms. */
  readonly monitors: ReadonlyArray<{ readonly country: string; readonly platforms?: ReadonlyArray<Platform> }>
  /** How many tags the project has (named `tag 0`, `tag 1`, ...). */
  readonly tags: number
  /** Prompts: their monitor and tags, as indexes into `monitors` and the tags. */
  readonly prompts: ReadonlyArray<{ readonly monitor: number; readonly tags: ReadonlyArray<number> }>
  /** Source domains. */
  readonly sources: ReadonlyArray<string>
  /** Exact URLs, each of a source (index into `sources`). */
  readonly urls: ReadonlyArray<{ readonly source: number; readonly url: string }>
  /** How many segments the project has (named `segment 0`, ...). */
  readonly segments?: number | undefined
  /** Brands: name, classification (default competitor), segments (indexes). */
  readonly brands?: ReadonlyArray<{
    readonly name: string
    readonly classification?: Classification | undefined
    readonly segments?: ReadonlyArray<number> | undefined
  }> | undefined
  /** The project's own brand (`brand_id`), as an index into `brands`. */
  readonly ownBrand?: number | undefined
  /**
   * Responses: prompt index, platform, country (default: the monitor's), status, time, cited URL indexes
   * in order, and brand mentions (a brand index at most once per response).
   */
  readonly responses: ReadonlyArray<{
    readonly prompt: number
    readonly platform: Platform
    readonly country?: string | undefined
    readonly status: ResponseStatus
    /** Default `answered`: only answers count in analytics. */
    readonly answer_state?: AnswerState | undefined
    readonly collected_at: Date | string
    readonly citations: ReadonlyArray<number>
    readonly mentions?: ReadonlyArray<MentionSpec> | undefined
  }>
}

/** A brand mention: the brand's index, its position and sentiment score. */
export interface MentionSpec {
  readonly brand: number
  readonly position: number
  readonly sentiment: number
}

/** The real ids of a loaded dataset, by the indexes of its description. */
export interface DatasetIds {
  readonly project: number
  readonly monitors: ReadonlyArray<number>
  readonly tags: ReadonlyArray<number>
  readonly prompts: ReadonlyArray<number>
  readonly sources: ReadonlyArray<number>
  readonly urls: ReadonlyArray<number>
  readonly responses: ReadonlyArray<number>
  readonly segments: ReadonlyArray<number>
  readonly brands: ReadonlyArray<number>
}

const instant = (value: Date | string) => (typeof value === "string" ? new Date(value) : value)

const countryOf = (spec: DatasetSpec, response: DatasetSpec["responses"][number]) =>
  response.country ?? spec.monitors[spec.prompts[response.prompt]!.monitor]!.country

/** Writes an organization into the in-memory tables. */
export const writeMemoryOrganization = (db: MemoryTables, name = "Analytics org"): number => {
  const now = db.now()
  const id = db.nextId("organizations")
  db.table("organizations").set(id, { id, name, created_at: now, updated_at: now })
  return id
}

/** Writes a dataset as a new project of the organization into the in-memory tables. */
export const writeMemory = (db: MemoryTables, organizationId: number, spec: DatasetSpec): DatasetIds => {
  const now = db.now()
  const project = db.nextId("projects")
  db.table("projects").set(project, { id: project, organization_id: organizationId, name: `Project ${project}`, domain: null, brand_id: null, created_at: now, updated_at: now })
  const monitors = spec.monitors.map((monitor, index) => {
    const id = db.nextId("monitors")
    db.table("monitors").set(id, {
      id,
      project_id: project,
      name: `Monitor ${index}`,
      country: monitor.country,
      platforms: monitor.platforms ?? ["chatgpt"],
      schedule: "daily",
      active: true,
      simulated: false,
      created_at: now,
      updated_at: now
    })
    return id
  })
  const tags = Array.from({ length: spec.tags }, (_, index) => {
    const id = db.nextId("tags")
    db.table("tags").set(id, { id, project_id: project, name: `tag ${index}`, color: "#6b7280", created_at: now, updated_at: now })
    return id
  })
  const prompts = spec.prompts.map((prompt, index) => {
    const id = db.nextId("prompts")
    db.table("prompts").set(id, { id, project_id: project, monitor_id: monitors[prompt.monitor]!, text: `Prompt ${index}`, created_at: now, updated_at: now })
    for (const tag of new Set(prompt.tags)) db.table("prompt_tags").add(`${id}:${tags[tag]!}`)
    return id
  })
  const sources = spec.sources.map((domain) => {
    const id = db.nextId("sources")
    db.table("sources").set(id, { id, project_id: project, domain, created_at: now })
    return id
  })
  const urls = spec.urls.map((url) => {
    const id = db.nextId("source_urls")
    db.table("source_urls").set(id, { id, project_id: project, source_id: sources[url.source]!, url: url.url, created_at: now })
    return id
  })
  const segments = Array.from({ length: spec.segments ?? 0 }, (_, index) => {
    const id = db.nextId("segments")
    db.table("segments").set(id, { id, project_id: project, name: `segment ${index}`, created_at: now, updated_at: now })
    return id
  })
  const brands = (spec.brands ?? []).map((brand) => {
    const id = db.nextId("brands")
    db.table("brands").set(id, {
      id,
      project_id: project,
      name: brand.name,
      aliases: [],
      domains: [],
      classification: brand.classification ?? "competitor",
      created_at: now,
      updated_at: now
    })
    for (const segment of new Set(brand.segments ?? [])) db.table("brand_segments").add(`${id}:${segments[segment]!}`)
    return id
  })
  if (spec.ownBrand !== undefined) db.table("projects").set(project, { ...db.table("projects").get(project)!, brand_id: brands[spec.ownBrand]! })
  const responses = spec.responses.map((response) => {
    const id = db.nextId("responses")
    const prompt = spec.prompts[response.prompt]!
    const collected = instant(response.collected_at)
    db.table("responses").set(id, {
      id,
      project_id: project,
      monitor_id: monitors[prompt.monitor]!,
      prompt_id: prompts[response.prompt]!,
      platform: response.platform,
      country: countryOf(spec, response),
      text: "An answer.",
      status: response.status,
      ...storedDetails({ answer_state: response.answer_state }),
      collected_at: collected,
      analyzed_at: response.status === "analyzed" ? collected : null,
      created_at: now,
      updated_at: now
    })
    response.citations.forEach((url, position) => {
      const citation = db.nextId("citations")
      db.table("citations").set(citation, {
        id: citation,
        response_id: id,
        source_id: sources[spec.urls[url]!.source]!,
        source_url_id: urls[url]!,
        url: spec.urls[url]!.url,
        position: position + 1,
        created_at: now
      })
    })
    for (const mention of response.mentions ?? []) {
      const mentionId = db.nextId("brand_mentions")
      db.table("brand_mentions").set(mentionId, {
        id: mentionId,
        project_id: project,
        response_id: id,
        brand_id: brands[mention.brand]!,
        position: mention.position,
        sentiment_score: mention.sentiment,
        created_at: now,
        updated_at: now
      })
    }
    return id
  })
  return { project, monitors, tags, prompts, sources, urls, responses, segments, brands }
}

/** Writes an organization with plain SQL. */
export const writeSqlOrganization = (name = "Analytics org") =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: number }>`INSERT INTO organizations (name) VALUES (${name}) RETURNING id`.pipe(Effect.map((rows) => rows[0]!.id)))

/**
 * Writes a dataset as a new project of the organization with plain SQL: ids are drawn from each
 * table's sequence in one statement, then every table is one multi-row INSERT.
 */
export const writeSql = (organizationId: number, spec: DatasetSpec): Effect.Effect<DatasetIds, SqlError.SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const allocate = (table: string, count: number) =>
      count === 0
        ? Effect.succeed<Array<number>>([])
        : sql<{ id: number }>`SELECT nextval(${`${table}_id_seq`}) AS id FROM generate_series(1, ${count}) ORDER BY 1`.pipe(
          Effect.map((rows) => rows.map((row) => row.id))
        )
    const insert = (table: string, rows: ReadonlyArray<Record<string, unknown>>) =>
      rows.length === 0 ? Effect.void : sql`INSERT INTO ${sql(table)} ${sql.insert(rows as Array<Record<string, any>>)}`.pipe(Effect.asVoid)

    const [project] = yield* allocate("projects", 1)
    yield* insert("projects", [{ id: project, organization_id: organizationId, name: `Project ${project}` }])
    const monitors = yield* allocate("monitors", spec.monitors.length)
    yield* insert(
      "monitors",
      spec.monitors.map((monitor, index) => ({
        id: monitors[index],
        project_id: project,
        name: `Monitor ${index}`,
        country: monitor.country,
        platforms: [...(monitor.platforms ?? ["chatgpt"])]
      }))
    )
    const tags = yield* allocate("tags", spec.tags)
    yield* insert("tags", tags.map((id, index) => ({ id, project_id: project, name: `tag ${index}`, color: "#6b7280" })))
    const prompts = yield* allocate("prompts", spec.prompts.length)
    yield* insert(
      "prompts",
      spec.prompts.map((prompt, index) => ({ id: prompts[index], project_id: project, monitor_id: monitors[prompt.monitor], text: `Prompt ${index}` }))
    )
    yield* insert(
      "prompt_tags",
      spec.prompts.flatMap((prompt, index) => [...new Set(prompt.tags)].map((tag) => ({ prompt_id: prompts[index], tag_id: tags[tag] })))
    )
    const sources = yield* allocate("sources", spec.sources.length)
    yield* insert("sources", spec.sources.map((domain, index) => ({ id: sources[index], project_id: project, domain })))
    const urls = yield* allocate("source_urls", spec.urls.length)
    yield* insert(
      "source_urls",
      spec.urls.map((url, index) => ({ id: urls[index], project_id: project, source_id: sources[url.source], url: url.url }))
    )
    const segments = yield* allocate("segments", spec.segments ?? 0)
    yield* insert("segments", segments.map((id, index) => ({ id, project_id: project, name: `segment ${index}` })))
    const brandSpecs = spec.brands ?? []
    const brands = yield* allocate("brands", brandSpecs.length)
    yield* insert(
      "brands",
      brandSpecs.map((brand, index) => ({ id: brands[index], project_id: project, name: brand.name, classification: brand.classification ?? "competitor" }))
    )
    yield* insert(
      "brand_segments",
      brandSpecs.flatMap((brand, index) => [...new Set(brand.segments ?? [])].map((segment) => ({ brand_id: brands[index], segment_id: segments[segment] })))
    )
    if (spec.ownBrand !== undefined) yield* sql`UPDATE projects SET brand_id = ${brands[spec.ownBrand]!} WHERE id = ${project!}`
    const responses = yield* allocate("responses", spec.responses.length)
    const withStates = spec.responses.some((response) => response.answer_state !== undefined)
    yield* insert(
      "responses",
      spec.responses.map((response, index) => {
        const prompt = spec.prompts[response.prompt]!
        const collected = instant(response.collected_at).toISOString()
        return {
          id: responses[index],
          project_id: project,
          monitor_id: monitors[prompt.monitor],
          prompt_id: prompts[response.prompt],
          platform: response.platform,
          country: countryOf(spec, response),
          text: "An answer.",
          status: response.status,
          // Only when the spec names answer states: the migrations' own tests write data before 0012.
          ...(withStates ? { answer_state: response.answer_state ?? "answered" } : {}),
          collected_at: collected,
          analyzed_at: response.status === "analyzed" ? collected : null
        }
      })
    )
    // Citations carry their project since migration 0014; the migrations' own tests write data before it.
    const citationProject = (yield* sql`
      SELECT 1 FROM information_schema.columns WHERE table_name = 'citations' AND column_name = 'project_id'`).length > 0
    const citations = spec.responses.flatMap((response, index) =>
      response.citations.map((url, position) => ({
        ...(citationProject ? { project_id: project } : {}),
        response_id: responses[index],
        source_id: sources[spec.urls[url]!.source],
        source_url_id: urls[url],
        url: spec.urls[url]!.url,
        position: position + 1
      }))
    )
    // Large datasets stay under the 65535 parameters of one statement.
    for (let start = 0; start < citations.length; start += 5000) yield* insert("citations", citations.slice(start, start + 5000))
    const mentions = spec.responses.flatMap((response, index) =>
      (response.mentions ?? []).map((mention) => ({
        project_id: project,
        response_id: responses[index],
        brand_id: brands[mention.brand],
        position: mention.position,
        sentiment_score: mention.sentiment
      }))
    )
    for (let start = 0; start < mentions.length; start += 5000) yield* insert("brand_mentions", mentions.slice(start, start + 5000))
    return { project: project!, monitors, tags, prompts, sources, urls, responses, segments, brands }
  })

// ---------------------------------------------------------------------------
// A server whose data the test can write
// ---------------------------------------------------------------------------

export interface AnalyticsServer {
  readonly backend: Backend
  readonly request: (method: string, path: string, options?: RequestOptions) => Promise<Reply>
  readonly createOrganization: (name?: string) => Promise<number>
  readonly createKey: (organizationId: number, abilities: ReadonlyArray<string>, projectIds?: ReadonlyArray<number> | null) => Promise<string>
  /** Writes a dataset as a new project of the organization, straight into the server's store. */
  readonly load: (organizationId: number, spec: DatasetSpec) => Promise<DatasetIds>
  readonly close: () => Promise<void>
}

/**
 * The whole server stack, as test/support/TestServer.ts builds it, with a handle on its store: the
 * in-memory tables or the SQL database, so that responses and citations (which the API only makes
 * through ingestion) can be written as they are, failed and pending ones included.
 */
export const startAnalyticsServer = async (backend: Backend): Promise<AnalyticsServer> => {
  let drop = async () => {}
  let dataLayer: Layer.Layer<any, any, any>
  if (backend === "memory") {
    dataLayer = Layer.merge(Repositories.layerMemory, Health.Readiness.layerAlways)
  } else {
    const client = backend === "embedded"
      ? Database.layerEmbedded(undefined, undefined, migratedSnapshot())
      : await createDatabase(process.env.DATABASE_URL!).then((db) => {
        drop = db.drop
        return Database.layerServer(Redacted.make(db.url))
      })
    dataLayer = Layer.mergeAll(Repositories.layerSql, Health.Readiness.layerSql).pipe(
      Layer.provideMerge(Migrations.layer),
      Layer.provideMerge(client)
    )
  }
  const layer = HttpApiBuilder.serve(requestLog).pipe(
    Layer.provide(ApiLive),
    Layer.provide(Analyzer.inProcess),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(dataLayer),
    Layer.provideMerge(Settings.layerWith({ rateLimitPerMinute: 1_000_000 })),
    Layer.provide(Logger.minimumLogLevel(process.env.TEST_LOG ? LogLevel.All : LogLevel.None))
  ) as Layer.Layer<HttpServer.HttpServer | OrganizationsRepo | ApiKeysRepo, never, never>
  const runtime = ManagedRuntime.make(layer)
  const address = await runtime.runPromise(HttpServer.addressWith(Effect.succeed))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const baseUrl = `http://127.0.0.1:${address.port}`
  const run = <A>(effect: Effect.Effect<A, unknown, any>) => runtime.runPromise(effect.pipe(Effect.orDie) as Effect.Effect<A>)

  return {
    backend,
    request: async (method, path, options = {}) => {
      const headers: Record<string, string> = { accept: "application/json", ...options.headers }
      if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
      if (options.project !== undefined) headers["service-project-id"] = String(options.project)
      if (options.body !== undefined) headers["content-type"] = "application/json"
      const body = options.body === undefined ? undefined : JSON.stringify(options.body)
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body })
      const text = await response.text()
      let parsed: unknown = undefined
      try {
        parsed = text === "" ? undefined : JSON.parse(text)
      } catch {
        parsed = undefined
      }
      return { status: response.status, headers: response.headers, body: parsed, text }
    },
    createOrganization: (name) => run(Effect.flatMap(OrganizationsRepo, (repo) => repo.create(name ?? "Organization")).pipe(Effect.map((o) => o.id))),
    createKey: (organizationId, abilities, projectIds = null) => {
      const key = generateKey()
      return run(
        Effect.flatMap(ApiKeysRepo, (repo) =>
          repo.create({
            organization_id: organizationId,
            name: "analytics key",
            key_hash: hashKey(key),
            prefix: keyPrefix(key),
            abilities,
            project_ids: projectIds,
            expires_at: null
          }))
      ).then(() => key)
    },
    load: (organizationId, spec) =>
      backend === "memory"
        ? run(Effect.map(MemoryStore, (db) => writeMemory(db, organizationId, spec)))
        : run(writeSql(organizationId, spec)),
    close: async () => {
      await runtime.dispose()
      await drop()
    }
  }
}
