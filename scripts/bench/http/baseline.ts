/**
 * The raw baseline of `npm run bench:http`: `node:http` and `pg`, no framework, doing the database work
 * a correct implementation of three endpoints needs, so that the service can be measured against it.
 * Run as its own process (`node --import tsx scripts/bench/http/baseline.ts`), so its RSS is its own.
 *
 *   GET  /api/v1/prompts/{id}   one prompt of the active project, with its tags
 *   GET  /api/v1/prompts        one page of the project's prompts (page, per_page) with their tags, and the count
 *   POST /api/v1/responses      an answer analysed (citations, sources, brand mentions) and stored
 *
 * Every request: the key looked up by the SHA-256 of the bearer key (revoked and expired keys refused),
 * one request of its budget spent (an in-memory token bucket, like the service without Redis), the
 * endpoint's ability checked, then the `Service-Project-Id` project looked up in the key's organization
 * (and its project list). The answers are byte for byte the service's (the bench compares them before
 * it measures); the pure parts are the service's own functions (pagination envelope, analysis, key
 * hashing), so that only the HTTP, middleware and SQL client stacks differ.
 *
 * Ingestion writes what the service writes, in one transaction and in the same order: the project's
 * lifecycle lock taken shared, the project checked, sources and source URLs found or made in key order,
 * the response, its citations and its mentions (the rollup triggers of the schema run on both sides).
 *
 * What it leaves out, on purpose: error answers beyond 401/403/404/422 in the documented shape (the
 * bench sends none), the other endpoints, the input limits' edge cases. Key use (`last_used_at`) is
 * written at most once a minute per key by this process, which is all the column's one-minute
 * precision needs; the service sends its conditional UPDATE on every request.
 *
 * Settings: DATABASE_URL (required), PORT (0: any free port), RATE_LIMIT_PER_MINUTE (600),
 * LOG_LEVEL (info: one JSON access-log line per request on stdout, as the service writes; warn and
 * above: none). `GET /health` answers 200 once it listens.
 */
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import pg from "pg"
import { type Ability, grants } from "../../../src/Domain/Ability.ts"
import { hashKey, KEY_PATTERN } from "../../../src/Domain/ApiKey.ts"
import { platforms } from "../../../src/Domain/Platform.ts"
import { isValidText } from "../../../src/Domain/Text.ts"
import { pgTypes } from "../../../src/Database/PgTypes.ts"
import { paginate, parsePageRequest } from "../../../src/Http/Pagination.ts"
import { analyze } from "../../../src/Responses/Analysis.ts"
import type { BrandForDetection } from "../../../src/Responses/Repo.ts"

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) {
  console.error("baseline: DATABASE_URL is required")
  process.exit(2)
}
const RATE_LIMIT = Number(process.env.RATE_LIMIT_PER_MINUTE ?? 600)
const LOGGING = !["warn", "warning", "error", "fatal", "none", "off"].includes((process.env.LOG_LEVEL ?? "info").toLowerCase())
const MAX_BODY_BYTES = 1024 * 1024

// The service's pool: 10 connections, the same type parsers (bigint ids as numbers).
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, types: pgTypes, application_name: "bench-http-baseline" })

class HttpError extends Error {
  constructor(readonly status: number, readonly body: Record<string, unknown>, readonly headers: Record<string, string> = {}) {
    super(String(body.message))
  }
}

interface Key {
  readonly id: number
  readonly organization_id: number
  readonly abilities: ReadonlyArray<string>
  readonly project_ids: ReadonlyArray<number> | null
  readonly expires_at: Date | null
  readonly revoked_at: Date | null
}

interface Project {
  readonly id: number
  readonly organization_id: number
  readonly name: string
  readonly domain: string | null
  readonly brand_id: number | null
  readonly created_at: Date
  readonly updated_at: Date
}

// ---------------------------------------------------------------------------
// Authentication, budget, project
// ---------------------------------------------------------------------------

/** When this process last recorded each key's use. */
const lastTouched = new Map<number, number>()

/** Token buckets per key: RATE_LIMIT a minute, refilled continuously. */
const buckets = new Map<number, { tokens: number; at: number }>()

const spend = (keyId: number): number => {
  const now = Date.now()
  const bucket = buckets.get(keyId) ?? { tokens: RATE_LIMIT, at: now }
  bucket.tokens = Math.min(RATE_LIMIT, bucket.tokens + ((now - bucket.at) * RATE_LIMIT) / 60_000)
  bucket.at = now
  buckets.set(keyId, bucket)
  if (bucket.tokens < 1) {
    const retryAfter = Math.max(1, Math.ceil(((1 - bucket.tokens) * 60) / RATE_LIMIT))
    throw new HttpError(429, { message: "Too Many Requests" }, { "retry-after": String(retryAfter), "x-ratelimit-remaining": "0" })
  }
  bucket.tokens -= 1
  return Math.floor(bucket.tokens)
}

const unauthenticated = () => new HttpError(401, { message: "Unauthenticated." }, { "www-authenticate": "Bearer" })

const authenticate = async (request: IncomingMessage, headers: Record<string, string>, ability: Ability): Promise<Key> => {
  const authorization = request.headers.authorization ?? ""
  if (!/^bearer /i.test(authorization)) throw unauthenticated()
  const token = authorization.slice(7).trim()
  if (!KEY_PATTERN.test(token)) throw unauthenticated()
  const { rows } = await pool.query<Key>(
    "SELECT id, organization_id, abilities, project_ids, expires_at, revoked_at FROM api_keys WHERE key_hash = $1",
    [hashKey(token)]
  )
  const key = rows[0]
  const now = Date.now()
  if (key === undefined || key.revoked_at !== null || (key.expires_at !== null && key.expires_at.getTime() <= now)) {
    throw unauthenticated()
  }
  if (now - (lastTouched.get(key.id) ?? 0) >= 60_000) {
    lastTouched.set(key.id, now)
    await pool.query(
      "UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')",
      [key.id, new Date(now)]
    )
  }
  headers["x-ratelimit-limit"] = String(RATE_LIMIT)
  headers["x-ratelimit-remaining"] = String(spend(key.id))
  if (!grants(key.abilities, ability)) throw new HttpError(403, { message: "This action is unauthorized." })
  return key
}

const activeProject = async (request: IncomingMessage, key: Key): Promise<Project> => {
  const header = request.headers["service-project-id"]
  if (typeof header !== "string") throw new HttpError(400, { message: "The Service-Project-Id header is required." })
  const value = header.trim()
  if (!/^[1-9][0-9]*$/.test(value)) throw new HttpError(400, { message: "The Service-Project-Id header must be a positive integer." })
  const id = Number(value)
  const { rows } = key.project_ids === null
    ? await pool.query<Project>(
      "SELECT id, organization_id, name, domain, brand_id, created_at, updated_at FROM projects WHERE id = $1 AND organization_id = $2",
      [id, key.organization_id]
    )
    : await pool.query<Project>(
      "SELECT id, organization_id, name, domain, brand_id, created_at, updated_at FROM projects WHERE id = $1 AND organization_id = $2 AND id = ANY($3::bigint[])",
      [id, key.organization_id, key.project_ids]
    )
  if (rows[0] === undefined) throw new HttpError(404, { message: "Project not found." })
  return rows[0]
}

// ---------------------------------------------------------------------------
// Prompts
// ---------------------------------------------------------------------------

interface PromptRow {
  readonly id: number
  readonly monitor_id: number
  readonly text: string
  readonly created_at: Date
  readonly updated_at: Date
}

/** The prompts with their tags (one query for all of them), in the API's field order. */
const withTags = async (rows: ReadonlyArray<PromptRow>) => {
  if (rows.length === 0) return []
  const tags = await pool.query<{ prompt_id: number; id: number; name: string; color: string; created_at: Date; updated_at: Date }>(
    `SELECT pt.prompt_id, t.id, t.name, t.color, t.created_at, t.updated_at
     FROM prompt_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.prompt_id = ANY($1::bigint[]) ORDER BY t.id`,
    [rows.map((row) => row.id)]
  )
  const byPrompt = new Map<number, Array<unknown>>()
  for (const tag of tags.rows) {
    const list = byPrompt.get(tag.prompt_id) ?? []
    list.push({ id: tag.id, name: tag.name, color: tag.color, created_at: tag.created_at, updated_at: tag.updated_at })
    byPrompt.set(tag.prompt_id, list)
  }
  return rows.map((row) => ({
    id: row.id,
    monitor_id: row.monitor_id,
    text: row.text,
    tags: byPrompt.get(row.id) ?? [],
    created_at: row.created_at,
    updated_at: row.updated_at
  }))
}

const getPrompt = async (project: Project, id: number) => {
  const { rows } = await pool.query<PromptRow>(
    "SELECT id, monitor_id, text, created_at, updated_at FROM prompts WHERE id = $1 AND project_id = $2",
    [id, project.id]
  )
  const [prompt] = await withTags(rows)
  if (prompt === undefined) throw new HttpError(404, { message: "Prompt not found." })
  return { data: prompt }
}

const listPrompts = async (request: IncomingMessage, project: Project) => {
  const url = new URL(request.url ?? "/", `http://${request.headers.host ?? "localhost"}`)
  const window = parsePageRequest({ page: url.searchParams.getAll("page"), per_page: url.searchParams.getAll("per_page") })
  const { rows } = await pool.query<PromptRow>(
    "SELECT id, monitor_id, text, created_at, updated_at FROM prompts WHERE project_id = $1 ORDER BY id LIMIT $2 OFFSET $3",
    [project.id, window.limit, window.offset]
  )
  const data = await withTags(rows)
  const total = await pool.query<{ total: number }>("SELECT count(*) AS total FROM prompts WHERE project_id = $1", [project.id])
  return paginate(url, window, total.rows[0]!.total, data)
}

// ---------------------------------------------------------------------------
// Ingestion
// ---------------------------------------------------------------------------

interface Payload {
  readonly prompt_id: number
  readonly platform: (typeof platforms)[number]
  readonly text: string
  readonly citations?: ReadonlyArray<string>
  readonly collected_at?: string
}

/** The body's checks that a well-formed request meets (the bench sends no bad body). */
const validate = (body: unknown): Payload => {
  const errors: Record<string, Array<string>> = {}
  const b = (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>
  if (!Number.isSafeInteger(b.prompt_id) || (b.prompt_id as number) < 1) errors.prompt_id = ["The prompt id field must be an integer."]
  if (typeof b.platform !== "string" || !(platforms as ReadonlyArray<string>).includes(b.platform)) {
    errors.platform = ["The selected platform is invalid."]
  }
  if (typeof b.text !== "string" || b.text.length > 200_000 || !isValidText(b.text)) errors.text = ["The text field must be a string."]
  if (b.citations !== undefined) {
    if (!Array.isArray(b.citations) || b.citations.length > 100) errors.citations = ["The citations field must be an array."]
    else {
      b.citations.forEach((url, i) => {
        if (typeof url !== "string" || url.length > 2048 || !isValidText(url)) errors[`citations.${i}`] = ["The citation must be a string."]
      })
    }
  }
  if (b.collected_at !== undefined && (typeof b.collected_at !== "string" || Number.isNaN(Date.parse(b.collected_at)))) {
    errors.collected_at = ["The collected at field must be a valid date."]
  }
  if (Object.keys(errors).length > 0) throw new HttpError(422, { message: Object.values(errors)[0]![0], errors })
  return b as unknown as Payload
}

const sortedByKey = <A extends { readonly key: string }>(rows: ReadonlyArray<A>) =>
  [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))

/** Finds or makes rows by their unique key, in key order, without locking the existing ones: key → id. */
const upsertIds = async (
  client: pg.PoolClient,
  table: "sources" | "source_urls",
  projectId: number,
  rows: ReadonlyArray<{ readonly key: string; readonly sourceId?: number }>
) => {
  const ids = new Map<string, number>()
  if (rows.length === 0) return ids
  const sorted = sortedByKey(rows)
  const keys = sorted.map((row) => row.key)
  const inserted = table === "sources"
    ? await client.query<{ id: number; key: string }>(
      `INSERT INTO sources (project_id, domain) SELECT $1, unnest($2::text[])
       ON CONFLICT (project_id, domain) DO NOTHING RETURNING id, domain AS key`,
      [projectId, keys]
    )
    : await client.query<{ id: number; key: string }>(
      `INSERT INTO source_urls (project_id, source_id, url) SELECT $1, s, u FROM unnest($2::bigint[], $3::text[]) AS t (s, u)
       ON CONFLICT (project_id, url) DO NOTHING RETURNING id, url AS key`,
      [projectId, sorted.map((row) => row.sourceId), keys]
    )
  for (const row of inserted.rows) ids.set(row.key, row.id)
  const existing = keys.filter((key) => !ids.has(key))
  if (existing.length > 0) {
    const found = await client.query<{ id: number; key: string }>(
      table === "sources"
        ? "SELECT id, domain AS key FROM sources WHERE project_id = $1 AND domain = ANY($2::text[])"
        : "SELECT id, url AS key FROM source_urls WHERE project_id = $1 AND url = ANY($2::text[])",
      [projectId, existing]
    )
    for (const row of found.rows) ids.set(row.key, row.id)
  }
  return ids
}

const RESPONSE_COLUMNS = "id, monitor_id, prompt_id, platform, country, text, status, collected_at, analyzed_at, created_at, updated_at"

const createResponse = async (project: Project, body: unknown) => {
  const payload = validate(body)
  // What the answer needs of its prompt: the monitor's platforms and country, in one query.
  const prompts = await pool.query<{ id: number; monitor_id: number; country: string; platforms: ReadonlyArray<string> }>(
    `SELECT p.id, p.monitor_id, m.country, m.platforms FROM prompts p JOIN monitors m ON m.id = p.monitor_id
     WHERE p.id = $1 AND p.project_id = $2`,
    [payload.prompt_id, project.id]
  )
  const prompt = prompts.rows[0]
  if (prompt === undefined) {
    throw new HttpError(422, { message: "The selected prompt id is invalid.", errors: { prompt_id: ["The selected prompt id is invalid."] } })
  }
  if (!prompt.platforms.includes(payload.platform)) {
    const message = `The selected platform is not one of the monitor's platforms (${prompt.platforms.join(", ")}).`
    throw new HttpError(422, { message, errors: { platform: [message] } })
  }
  const brands = await pool.query<BrandForDetection>(
    "SELECT id, name, aliases, domains, classification FROM brands WHERE project_id = $1 ORDER BY id",
    [project.id]
  )
  const analyzed = analyze({
    monitor_id: prompt.monitor_id,
    prompt_id: prompt.id,
    platform: payload.platform,
    country: prompt.country,
    text: payload.text,
    collected_at: payload.collected_at === undefined ? new Date() : new Date(payload.collected_at),
    citations: payload.citations
  }, brands.rows)
  if (analyzed._tag === "Left") {
    throw new HttpError(422, { message: Object.values(analyzed.left)[0]![0], errors: analyzed.left })
  }
  const response = analyzed.right
  for (let attempt = 1;; attempt++) {
    const client = await pool.connect()
    try {
      await client.query("BEGIN")
      await client.query("SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))", [`bvm:project_lifecycle:${project.id}`])
      const exists = await client.query("SELECT 1 FROM projects WHERE id = $1", [project.id])
      if (exists.rowCount === 0) throw new HttpError(404, { message: "Project not found." })
      const domains = [...new Set(response.citations.map((c) => c.domain))]
      const sourceIds = await upsertIds(client, "sources", project.id, domains.map((key) => ({ key })))
      const urls = new Map(response.citations.map((c) => [c.normalized, c.domain] as const))
      const urlIds = await upsertIds(client, "source_urls", project.id, [...urls].map(([key, domain]) => ({ key, sourceId: sourceIds.get(domain)! })))
      const analyzedAt = new Date()
      const stored = await client.query(
        `INSERT INTO responses (project_id, monitor_id, prompt_id, platform, country, text, status, collected_at, analyzed_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'analyzed', $7, $8, $8, $8) RETURNING ${RESPONSE_COLUMNS}`,
        [project.id, response.monitor_id, response.prompt_id, response.platform, response.country, response.text, response.collected_at, analyzedAt]
      )
      const row = stored.rows[0]
      if (response.citations.length > 0) {
        await client.query(
          `INSERT INTO citations (project_id, response_id, source_id, source_url_id, url, position)
           SELECT $6, $1, s, u, t, p FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::int[]) AS c (s, u, t, p)`,
          [
            row.id,
            response.citations.map((c) => sourceIds.get(c.domain)),
            response.citations.map((c) => urlIds.get(c.normalized)),
            response.citations.map((c) => c.url),
            response.citations.map((_, i) => i + 1),
            project.id
          ]
        )
      }
      if (response.mentions.length > 0) {
        await client.query(
          `INSERT INTO brand_mentions (project_id, response_id, brand_id, position, sentiment_score)
           SELECT $1, $2, b, p, s FROM unnest($3::bigint[], $4::int[], $5::int[]) AS m (b, p, s)`,
          [project.id, row.id, response.mentions.map((m) => m.brand_id), response.mentions.map((m) => m.position), response.mentions.map((m) => m.sentiment_score)]
        )
      }
      await client.query("COMMIT")
      client.release()
      return { data: row }
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {})
      client.release()
      const code = (error as { code?: unknown }).code
      // A deadlock or serialization failure: run the transaction again, as the service does (3 times).
      if ((code === "40P01" || code === "40001") && attempt <= 3) {
        await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt * Math.random()))
        continue
      }
      throw error
    }
  }
}

// ---------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------

const readBody = (request: IncomingMessage): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) reject(new HttpError(413, { message: "The request body is too large." }))
      else chunks.push(chunk)
    })
    request.on("end", () => {
      if (!/^application\/json\b/i.test(request.headers["content-type"] ?? "")) {
        return reject(new HttpError(415, { message: "The request body must be JSON (Content-Type: application/json)." }))
      }
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")))
      } catch {
        reject(new HttpError(400, { message: "The request body is not valid JSON." }))
      }
    })
    request.on("error", reject)
  })

const PROMPT_PATH = /^\/api\/v1\/prompts\/([1-9][0-9]{0,15})$/

const route = async (request: IncomingMessage, headers: Record<string, string>): Promise<readonly [number, unknown]> => {
  const path = (request.url ?? "/").split("?")[0]!
  if (request.method === "GET" && path === "/health") return [200, { status: "ok" }]
  const one = PROMPT_PATH.exec(path)
  if (request.method === "GET" && one !== null) {
    const key = await authenticate(request, headers, "prompts:read")
    return [200, await getPrompt(await activeProject(request, key), Number(one[1]))]
  }
  if (request.method === "GET" && path === "/api/v1/prompts") {
    const key = await authenticate(request, headers, "prompts:read")
    return [200, await listPrompts(request, await activeProject(request, key))]
  }
  if (request.method === "POST" && path === "/api/v1/responses") {
    const key = await authenticate(request, headers, "responses:write")
    const project = await activeProject(request, key)
    return [201, await createResponse(project, await readBody(request))]
  }
  throw new HttpError(404, { message: "Not Found" })
}

let requests = 0

const server = createServer((request, response: ServerResponse) => {
  const started = Date.now()
  const incoming = request.headers["x-request-id"]
  const requestId = typeof incoming === "string" && /^[A-Za-z0-9._:-]{1,128}$/.test(incoming) ? incoming : randomUUID()
  const headers: Record<string, string> = { "x-request-id": requestId }
  const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
    const json = JSON.stringify(body)
    response.writeHead(status, { ...headers, ...extra, "content-type": "application/json", "content-length": Buffer.byteLength(json) })
    response.end(json)
    if (LOGGING) {
      process.stdout.write(`${JSON.stringify({
        message: "request",
        logLevel: "INFO",
        timestamp: new Date().toISOString(),
        annotations: { request_id: requestId, path: (request.url ?? "/").split("?")[0], status, method: request.method, duration_ms: Date.now() - started },
        spans: {},
        fiberId: `#${++requests}`
      })}\n`)
    }
  }
  route(request, headers).then(
    ([status, body]) => send(status, body),
    (error: unknown) => {
      if (error instanceof HttpError) return send(error.status, error.body, error.headers)
      console.error(error)
      send(500, { message: "Server Error" })
    }
  )
})

server.keepAliveTimeout = 5_000
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1")

const stop = () => {
  server.close(() => void pool.end().then(() => process.exit(0)))
  server.closeIdleConnections()
  setTimeout(() => process.exit(0), 3_000).unref()
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
