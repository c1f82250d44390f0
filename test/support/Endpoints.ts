import type { HttpApiEndpoint } from "@effect/platform"
import { Option, SchemaAST } from "effect"
import { Api } from "../../src/Api.ts"
import type { TestServer } from "./TestServer.ts"

/** The resources an endpoint call acts on: made fresh for each call, so deletes never collide. */
export interface Fixture {
  readonly project: number
  readonly monitor: number
  readonly otherMonitor: number
  readonly prompt: number
  readonly tag: number
  readonly brand: number
  readonly segment: number
  /** An ingested response citing one URL, so the project has a source too. */
  readonly response: number
  readonly source: number
  /** A key of the organization granting only `keys:manage`: one any key manager may revoke. */
  readonly apiKey: number
  /** The brand suggestion the response's untracked brand makes (below the gate). */
  readonly suggestion: number
  /** A webhook of the project, to a public address (never sent to: no delivery loop runs in these tests). */
  readonly webhook: number
  /** A resource of each plain CRUD area (`plainAreas`), by its path parameter: `segment`. */
  readonly [resource: string]: number
}

export interface EndpointCase {
  readonly name: string
  readonly method: "GET" | "POST" | "PATCH" | "DELETE"
  readonly path: (f: Fixture) => string
  /** null: needs only a valid key. */
  readonly ability: string | null
  readonly projectScoped: boolean
  readonly body?: (f: Fixture) => unknown
  readonly success: number
}

let counter = 0

/** A webhook target the outbound checks accept without DNS: a public address, written as one. */
export const PUBLIC_WEBHOOK_URL = "https://93.184.215.14/bvm-webhook"
const unique = (prefix: string) => `${prefix} ${++counter}`

/** The seven days up to today (UTC), the window of the analytics endpoints. */
const analyticsWindow = () => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
  return `start_date=${day(-6)}&end_date=${day(0)}`
}

/** The endpoints written out here, with their ability (docs/api.md); the plain CRUD areas' are derived below. */
const writtenOut: ReadonlyArray<EndpointCase> = [
  { name: "GET /me", method: "GET", path: () => "/api/v1/me", ability: null, projectScoped: false, success: 200 },
  { name: "GET /organization", method: "GET", path: () => "/api/v1/organization", ability: "organization:read", projectScoped: false, success: 200 },
  {
    name: "PATCH /organization",
    method: "PATCH",
    path: () => "/api/v1/organization",
    ability: "organization:manage",
    projectScoped: false,
    body: () => ({ name: "Renamed" }),
    success: 200
  },
  { name: "GET /projects", method: "GET", path: () => "/api/v1/projects", ability: "projects:read", projectScoped: false, success: 200 },
  {
    name: "POST /projects",
    method: "POST",
    path: () => "/api/v1/projects",
    ability: "projects:write",
    projectScoped: false,
    body: () => ({ name: unique("Project") }),
    success: 201
  },
  { name: "GET /projects/{project}", method: "GET", path: (f) => `/api/v1/projects/${f.project}`, ability: "projects:read", projectScoped: false, success: 200 },
  {
    name: "PATCH /projects/{project}",
    method: "PATCH",
    path: (f) => `/api/v1/projects/${f.project}`,
    ability: "projects:write",
    projectScoped: false,
    body: () => ({ name: "Renamed project" }),
    success: 200
  },
  { name: "DELETE /projects/{project}", method: "DELETE", path: (f) => `/api/v1/projects/${f.project}`, ability: "projects:write", projectScoped: false, success: 204 },
  { name: "GET /monitors", method: "GET", path: () => "/api/v1/monitors", ability: "monitors:read", projectScoped: true, success: 200 },
  {
    name: "POST /monitors",
    method: "POST",
    path: () => "/api/v1/monitors",
    ability: "monitors:write",
    projectScoped: true,
    body: () => ({ name: unique("Monitor"), country: "DE", platforms: ["gemini"] }),
    success: 201
  },
  { name: "GET /monitors/{monitor}", method: "GET", path: (f) => `/api/v1/monitors/${f.monitor}`, ability: "monitors:read", projectScoped: true, success: 200 },
  {
    name: "PATCH /monitors/{monitor}",
    method: "PATCH",
    path: (f) => `/api/v1/monitors/${f.monitor}`,
    ability: "monitors:write",
    projectScoped: true,
    body: () => ({ active: false }),
    success: 200
  },
  { name: "DELETE /monitors/{monitor}", method: "DELETE", path: (f) => `/api/v1/monitors/${f.monitor}`, ability: "monitors:write", projectScoped: true, success: 204 },
  { name: "GET /monitors/{monitor}/runs", method: "GET", path: (f) => `/api/v1/monitors/${f.monitor}/runs`, ability: "monitors:read", projectScoped: true, success: 200 },
  { name: "POST /monitors/{monitor}/runs", method: "POST", path: (f) => `/api/v1/monitors/${f.monitor}/runs`, ability: "monitors:write", projectScoped: true, success: 202 },
  { name: "GET /collector/health", method: "GET", path: () => "/api/v1/collector/health", ability: "monitors:read", projectScoped: true, success: 200 },
  { name: "GET /prompts", method: "GET", path: () => "/api/v1/prompts", ability: "prompts:read", projectScoped: true, success: 200 },
  {
    name: "POST /prompts",
    method: "POST",
    path: () => "/api/v1/prompts",
    ability: "prompts:write",
    projectScoped: true,
    body: (f) => ({ monitor_id: f.monitor, text: unique("Which CRM?"), tags: [f.tag] }),
    success: 201
  },
  { name: "GET /prompts/{prompt}", method: "GET", path: (f) => `/api/v1/prompts/${f.prompt}`, ability: "prompts:read", projectScoped: true, success: 200 },
  {
    name: "PATCH /prompts/{prompt}",
    method: "PATCH",
    path: (f) => `/api/v1/prompts/${f.prompt}`,
    ability: "prompts:write",
    projectScoped: true,
    body: (f) => ({ monitor_id: f.otherMonitor, tags: [f.tag] }),
    success: 200
  },
  { name: "DELETE /prompts/{prompt}", method: "DELETE", path: (f) => `/api/v1/prompts/${f.prompt}`, ability: "prompts:write", projectScoped: true, success: 204 },
  {
    name: "POST /prompts/{prompt}/tags/{tag}",
    method: "POST",
    path: (f) => `/api/v1/prompts/${f.prompt}/tags/${f.tag}`,
    ability: "prompts:write",
    projectScoped: true,
    success: 200
  },
  {
    name: "DELETE /prompts/{prompt}/tags/{tag}",
    method: "DELETE",
    path: (f) => `/api/v1/prompts/${f.prompt}/tags/${f.tag}`,
    ability: "prompts:write",
    projectScoped: true,
    success: 200
  },
  { name: "GET /tags", method: "GET", path: () => "/api/v1/tags", ability: "tags:read", projectScoped: true, success: 200 },
  {
    name: "POST /tags",
    method: "POST",
    path: () => "/api/v1/tags",
    ability: "tags:write",
    projectScoped: true,
    body: () => ({ name: unique("Tag") }),
    success: 201
  },
  { name: "GET /tags/{tag}", method: "GET", path: (f) => `/api/v1/tags/${f.tag}`, ability: "tags:read", projectScoped: true, success: 200 },
  {
    name: "PATCH /tags/{tag}",
    method: "PATCH",
    path: (f) => `/api/v1/tags/${f.tag}`,
    ability: "tags:write",
    projectScoped: true,
    body: () => ({ color: "#123456" }),
    success: 200
  },
  { name: "DELETE /tags/{tag}", method: "DELETE", path: (f) => `/api/v1/tags/${f.tag}`, ability: "tags:write", projectScoped: true, success: 204 },
  { name: "GET /brands", method: "GET", path: () => "/api/v1/brands", ability: "brands:read", projectScoped: true, success: 200 },
  {
    name: "POST /brands",
    method: "POST",
    path: () => "/api/v1/brands",
    ability: "brands:write",
    projectScoped: true,
    body: (f) => ({ name: unique("Brand"), aliases: ["Brand Inc."], domains: ["brand.example"], segment_ids: [f.segment] }),
    success: 201
  },
  { name: "GET /brands/{brand}", method: "GET", path: (f) => `/api/v1/brands/${f.brand}`, ability: "brands:read", projectScoped: true, success: 200 },
  {
    name: "PATCH /brands/{brand}",
    method: "PATCH",
    path: (f) => `/api/v1/brands/${f.brand}`,
    ability: "brands:write",
    projectScoped: true,
    body: (f) => ({ classification: "other", segment_ids: [f.segment] }),
    success: 200
  },
  { name: "DELETE /brands/{brand}", method: "DELETE", path: (f) => `/api/v1/brands/${f.brand}`, ability: "brands:write", projectScoped: true, success: 204 },
  {
    name: "POST /brands/{brand}/segments/{segment}",
    method: "POST",
    path: (f) => `/api/v1/brands/${f.brand}/segments/${f.segment}`,
    ability: "brands:write",
    projectScoped: true,
    success: 200
  },
  {
    name: "DELETE /brands/{brand}/segments/{segment}",
    method: "DELETE",
    path: (f) => `/api/v1/brands/${f.brand}/segments/${f.segment}`,
    ability: "brands:write",
    projectScoped: true,
    success: 200
  },
  {
    name: "GET /responses",
    method: "GET",
    path: (f) => `/api/v1/responses?prompt_id=${f.prompt}`,
    ability: "responses:read",
    projectScoped: true,
    success: 200
  },
  { name: "GET /responses/{response}", method: "GET", path: (f) => `/api/v1/responses/${f.response}`, ability: "responses:read", projectScoped: true, success: 200 },
  {
    name: "POST /responses",
    method: "POST",
    path: () => "/api/v1/responses",
    ability: "responses:write",
    projectScoped: true,
    body: (f) => ({ prompt_id: f.prompt, platform: "chatgpt", text: "Fixture answer.", citations: ["https://example.com/"] }),
    success: 201
  },
  {
    name: "GET /citations",
    method: "GET",
    path: (f) => `/api/v1/citations?response_id=${f.response}`,
    ability: "citations:read",
    projectScoped: true,
    success: 200
  },
  { name: "GET /sources", method: "GET", path: () => "/api/v1/sources", ability: "sources:read", projectScoped: true, success: 200 },
  { name: "GET /sources/{source}", method: "GET", path: (f) => `/api/v1/sources/${f.source}`, ability: "sources:read", projectScoped: true, success: 200 },
  {
    name: "GET /source-urls",
    method: "GET",
    path: (f) => `/api/v1/source-urls?source_id=${f.source}`,
    ability: "sources:read",
    projectScoped: true,
    success: 200
  },
  {
    name: "GET /brand-mentions",
    method: "GET",
    path: (f) => `/api/v1/brand-mentions?brand_id=${f.brand}&include=response.prompt,brand.project.organization`,
    ability: "brands:read",
    projectScoped: true,
    success: 200
  },
  {
    name: "GET /analytics/sources",
    method: "GET",
    path: (f) => `/api/v1/analytics/sources?${analyticsWindow()}&monitors[]=${f.monitor}&tags[]=${f.tag}`,
    ability: "analytics:read",
    projectScoped: true,
    success: 200
  },
  {
    name: "GET /analytics/source-urls",
    method: "GET",
    path: (f) => `/api/v1/analytics/source-urls?${analyticsWindow()}&platforms[]=chatgpt&monitors=${f.monitor}`,
    ability: "analytics:read",
    projectScoped: true,
    success: 200
  },
  {
    name: "GET /analytics/source-url-usage-time-series",
    method: "GET",
    path: (f) => `/api/v1/analytics/source-url-usage-time-series?${analyticsWindow()}&interval=day&tags[]=${f.tag}`,
    ability: "analytics:read",
    projectScoped: true,
    success: 200
  },
  {
    name: "GET /analytics/brands",
    method: "GET",
    path: (f) => `/api/v1/analytics/brands?${analyticsWindow()}&brands[]=${f.brand}&segments[]=${f.segment}&monitors[]=${f.monitor}`,
    ability: "analytics:read",
    projectScoped: true,
    success: 200
  },
  {
    name: "GET /analytics/brands/time-series",
    method: "GET",
    path: (f) => `/api/v1/analytics/brands/time-series?${analyticsWindow()}&interval=day&metric=share_of_voice&brands=${f.brand}&tags[]=${f.tag}`,
    ability: "analytics:read",
    projectScoped: true,
    success: 200
  },
  { name: "GET /brand-suggestions/{suggestion}", method: "GET", path: (f) => `/api/v1/brand-suggestions/${f.suggestion}`, ability: "brands:read", projectScoped: true, success: 200 },
  {
    name: "POST /brand-suggestions/{suggestion}/accept",
    method: "POST",
    path: (f) => `/api/v1/brand-suggestions/${f.suggestion}/accept`,
    ability: "brands:write",
    projectScoped: true,
    body: () => ({ name: unique("Accepted") }),
    success: 201
  },
  {
    name: "POST /brand-suggestions/{suggestion}/merge",
    method: "POST",
    path: (f) => `/api/v1/brand-suggestions/${f.suggestion}/merge`,
    ability: "brands:write",
    projectScoped: true,
    body: (f) => ({ brand_id: f.brand }),
    success: 200
  },
  { name: "POST /brand-suggestions/{suggestion}/dismiss", method: "POST", path: (f) => `/api/v1/brand-suggestions/${f.suggestion}/dismiss`, ability: "brands:write", projectScoped: true, success: 200 },
  { name: "POST /brand-suggestions/{suggestion}/ignore", method: "POST", path: (f) => `/api/v1/brand-suggestions/${f.suggestion}/ignore`, ability: "brands:write", projectScoped: true, success: 201 },
  {
    name: "GET /analytics/brands/untracked-share",
    method: "GET",
    path: (f) => `/api/v1/analytics/brands/untracked-share?${analyticsWindow()}&monitors[]=${f.monitor}&tags[]=${f.tag}`,
    ability: "analytics:read",
    projectScoped: true,
    success: 200
  },
  {
    name: "GET /brand-suggestions",
    method: "GET",
    path: (f) => `/api/v1/brand-suggestions?${analyticsWindow()}&monitors[]=${f.monitor}&status=dismissed`,
    ability: "brands:read",
    projectScoped: true,
    success: 200
  },
  {
    name: "GET /analytics/prompts",
    method: "GET",
    path: (f) => `/api/v1/analytics/prompts?${analyticsWindow()}&platforms[]=chatgpt&monitors[]=${f.monitor}&sort_by=text`,
    ability: "analytics:read",
    projectScoped: true,
    success: 200
  },
  { name: "GET /api-keys", method: "GET", path: () => "/api/v1/api-keys", ability: "keys:manage", projectScoped: false, success: 200 },
  {
    name: "POST /api-keys",
    method: "POST",
    path: () => "/api/v1/api-keys",
    ability: "keys:manage",
    projectScoped: false,
    body: () => ({ name: unique("Key"), abilities: ["keys:manage"], project_ids: null, expires_at: null }),
    success: 201
  },
  { name: "DELETE /api-keys/{api_key}", method: "DELETE", path: (f) => `/api/v1/api-keys/${f.apiKey}`, ability: "keys:manage", projectScoped: false, success: 204 },
  { name: "GET /webhooks", method: "GET", path: () => "/api/v1/webhooks", ability: "webhooks:manage", projectScoped: true, success: 200 },
  {
    name: "POST /webhooks",
    method: "POST",
    path: () => "/api/v1/webhooks",
    ability: "webhooks:manage",
    projectScoped: true,
    body: () => ({ url: PUBLIC_WEBHOOK_URL, events: ["run.completed"] }),
    success: 201
  },
  { name: "GET /webhooks/{webhook}", method: "GET", path: (f) => `/api/v1/webhooks/${f.webhook}`, ability: "webhooks:manage", projectScoped: true, success: 200 },
  {
    name: "PATCH /webhooks/{webhook}",
    method: "PATCH",
    path: (f) => `/api/v1/webhooks/${f.webhook}`,
    ability: "webhooks:manage",
    projectScoped: true,
    body: () => ({ events: ["run.completed", "alert.triggered"] }),
    success: 200
  },
  { name: "DELETE /webhooks/{webhook}", method: "DELETE", path: (f) => `/api/v1/webhooks/${f.webhook}`, ability: "webhooks:manage", projectScoped: true, success: 204 },
  { name: "POST /webhooks/{webhook}/test", method: "POST", path: (f) => `/api/v1/webhooks/${f.webhook}/test`, ability: "webhooks:manage", projectScoped: true, success: 202 },
  {
    name: "GET /webhooks/{webhook}/deliveries",
    method: "GET",
    path: (f) => `/api/v1/webhooks/${f.webhook}/deliveries`,
    ability: "webhooks:manage",
    projectScoped: true,
    success: 200
  }
]

/**
 * The areas that are plain CRUD resources of the project (`projectResourceApi`: list, create, get, update,
 * delete, nothing else) and are not written out above, read from the API: their endpoints, abilities and
 * bodies (the examples of their create and update schemas) need no line here. Segments are one.
 */
export const plainAreas = Object.values(Api.groups).flatMap((group) => {
  const byName = group.endpoints as unknown as Record<string, HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>
  const names = Object.keys(byName).sort().join(",")
  if (names !== "create,delete,get,list,update") return []
  const collection = byName.list!.path.replace(/^\/api\/v1/, "")
  if (writtenOut.some((endpoint) => endpoint.name === `GET ${collection}`)) return []
  const param = /:(\w+)$/.exec(byName.get!.path)![1]!
  const ability = (name: string) => [...byName[name]!.middlewares].map((tag) => /^Authorize\/(.+)$/.exec(tag.key)?.[1]).find(Boolean) ?? null
  const example = (name: string) =>
    Option.flatMap(byName[name]!.payloadSchema, (schema) => SchemaAST.getExamplesAnnotation(schema.ast)).pipe(
      Option.map((examples) => examples[0] as unknown),
      Option.getOrThrowWith(() => new Error(`${name} ${collection}: no example in its payload schema`))
    )
  return [{
    collection,
    param,
    resource: param.charAt(0).toUpperCase() + param.slice(1),
    create: example("create"),
    cases: [
      { name: `GET ${collection}`, method: "GET", path: () => `/api/v1${collection}`, ability: ability("list"), success: 200 },
      { name: `POST ${collection}`, method: "POST", path: () => `/api/v1${collection}`, ability: ability("create"), body: () => example("create"), success: 201 },
      { name: `GET ${collection}/{${param}}`, method: "GET", path: (f: Fixture) => `/api/v1${collection}/${f[param]}`, ability: ability("get"), success: 200 },
      {
        name: `PATCH ${collection}/{${param}}`,
        method: "PATCH",
        path: (f: Fixture) => `/api/v1${collection}/${f[param]}`,
        ability: ability("update"),
        body: () => example("update"),
        success: 200
      },
      { name: `DELETE ${collection}/{${param}}`, method: "DELETE", path: (f: Fixture) => `/api/v1${collection}/${f[param]}`, ability: ability("delete"), success: 204 }
    ].map((endpoint): EndpointCase => ({ ...endpoint, method: endpoint.method as EndpointCase["method"], projectScoped: true }))
  }]
})

/** Every endpoint of the API, with its ability (docs/api.md). */
export const endpoints: ReadonlyArray<EndpointCase> = [...writtenOut, ...plainAreas.flatMap((area) => area.cases)]

/** The resources of the project a path can name, by their collection in the path. */
const pathCollections: Readonly<Record<string, string>> = {
  monitors: "Monitor",
  prompts: "Prompt",
  tags: "Tag",
  brands: "Brand",
  segments: "Segment",
  responses: "Response",
  sources: "Source",
  webhooks: "Webhook",
  ...Object.fromEntries(plainAreas.map((area) => [area.collection.slice(1), area.resource]))
}

export type PathResource = string

/** The fixture field that holds each resource a path can name. */
export const fixtureField = {
  Monitor: "monitor",
  Prompt: "prompt",
  Tag: "tag",
  Brand: "brand",
  Segment: "segment",
  Response: "response",
  Source: "source",
  Webhook: "webhook",
  ...Object.fromEntries(plainAreas.map((area) => [area.resource, area.param]))
} as Readonly<Record<PathResource, string>>

/**
 * The endpoints that name a resource of the project in their path, with that resource's name: once for
 * each resource they name (attach and detach name two).
 */
export const pathResources: ReadonlyArray<{ readonly endpoint: EndpointCase; readonly resource: PathResource }> =
  endpoints.flatMap((endpoint) => {
    if (!endpoint.projectScoped) return []
    return [...endpoint.name.matchAll(/\/([a-z-]+)\/\{/g)].flatMap((match) => {
      const resource = pathCollections[match[1]!]
      return resource === undefined ? [] : [{ endpoint, resource }]
    })
  })

/**
 * A project with two monitors, a prompt, a tag, a segment and a brand in that segment, and a key of the
 * organization, made through the API with an all-abilities key.
 */
export const makeFixture = async (server: TestServer, key: string, projectId?: number): Promise<Fixture> => {
  const ok = async (method: string, path: string, project: number | undefined, body: unknown) => {
    const reply = await server.request(method, path, { key, project, body })
    if (reply.status !== 201) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`)
    return reply.body.data.id as number
  }
  const project = projectId ?? await ok("POST", "/api/v1/projects", undefined, { name: unique("Fixture project") })
  const monitor = await ok("POST", "/api/v1/monitors", project, { name: "Main", country: "US", platforms: ["chatgpt"] })
  const otherMonitor = await ok("POST", "/api/v1/monitors", project, { name: "Second", country: "GB", platforms: ["claude"] })
  const tag = await ok("POST", "/api/v1/tags", project, { name: unique("fixture tag") })
  const prompt = await ok("POST", "/api/v1/prompts", project, { monitor_id: monitor, text: "Best CRM for startups?" })
  const segment = await ok("POST", "/api/v1/segments", project, { name: unique("fixture segment") })
  const brand = await ok("POST", "/api/v1/brands", project, { name: unique("Fixture brand"), segment_ids: [segment] })
  const response = await ok("POST", "/api/v1/responses", project, {
    prompt_id: prompt,
    platform: "chatgpt",
    text: "The fixture brand is a fine choice. **Zylomatic** is another.",
    citations: ["https://fixture.example/review"]
  })
  const sources = await server.request("GET", "/api/v1/sources", { key, project })
  const source = sources.body.data.at(-1).id as number
  const apiKey = await ok("POST", "/api/v1/api-keys", undefined, { name: unique("fixture key"), abilities: ["keys:manage"], project_ids: null, expires_at: null })
  const suggestions = await server.request("GET", `/api/v1/brand-suggestions?${analyticsWindow()}&gated=false`, { key, project })
  const suggestion = suggestions.body.data.find((s: { key: string }) => s.key === "zylomatic").id as number
  const webhook = await ok("POST", "/api/v1/webhooks", project, { url: PUBLIC_WEBHOOK_URL, events: ["run.completed"] })
  // One resource of each plain CRUD area that has none above, made from its create example.
  const plain: Record<string, number> = {}
  for (const area of plainAreas) {
    if (area.param !== "segment") plain[area.param] = await ok("POST", `/api/v1${area.collection}`, project, area.create)
  }
  return { project, monitor, otherMonitor, prompt, tag, brand, segment, response, source, apiKey, suggestion, webhook, ...plain }
}

export const call = (server: TestServer, endpoint: EndpointCase, key: string, fixture: Fixture) =>
  server.request(endpoint.method, endpoint.path(fixture), {
    key,
    project: endpoint.projectScoped ? fixture.project : undefined,
    body: endpoint.body?.(fixture)
  })
