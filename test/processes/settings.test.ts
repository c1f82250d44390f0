import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Redis } from "ioredis"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest"
import { generateKey, hashKey, keyPrefix } from "../../src/Domain/ApiKey.ts"
import { freePort, type Proc, processGroup } from "../support/Processes.ts"
import { createDatabase } from "../support/TestServer.ts"

/**
 * The built processes (`node dist/server/main.js` and `.../worker.js`, as `npm start` and `npm run
 * worker` run them) started with every documented setting that changes what they load, since the
 * bundle loads some modules only when a setting asks for them, and one such module once failed there
 * only (`OTLPTraceExporter is not a constructor`: tracing stopped the built server at start, while the
 * sources under tsx worked). One start each, the settings combined:
 * - the API with tracing (OTEL_EXPORTER_OTLP_ENDPOINT, to an OTLP receiver this file runs), METRICS=on
 *   with a token, REDIS_URL (the test's Redis, or a port where none listens: the store is loaded all
 *   the same, and requests pass), the collector in the process (WORKER=on) and the simulated platform;
 * - a worker with tracing on;
 * - a worker with tracing turned off although an endpoint is set (OTEL_SDK_DISABLED=true).
 * They share one database: PostgreSQL when DATABASE_URL is set, else the API's embedded one. Tracing
 * off without any OTEL_ setting (the default) is how test/processes/multiprocess.test.ts starts its
 * four processes, and test/processes/shutdown.test.ts `npm start`.
 */

const backend = process.env.DATABASE_URL ? "postgres" : "embedded"
const PLATFORMS = ["chatgpt", "claude"]

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface ReceivedSpan {
  readonly service: string
  readonly name: string
  readonly attributes: Readonly<Record<string, unknown>>
}

type OtlpValue = { readonly stringValue?: string; readonly intValue?: string | number; readonly boolValue?: boolean }
type OtlpAttribute = { readonly key: string; readonly value: OtlpValue }
interface OtlpTraces {
  readonly resourceSpans?: ReadonlyArray<{
    readonly resource?: { readonly attributes?: ReadonlyArray<OtlpAttribute> }
    readonly scopeSpans?: ReadonlyArray<{ readonly spans?: ReadonlyArray<{ readonly name: string; readonly attributes?: ReadonlyArray<OtlpAttribute> }> }>
  }>
}

const valueOf = (value: OtlpValue) => value.stringValue ?? value.intValue ?? value.boolValue
const attributesOf = (attributes: ReadonlyArray<OtlpAttribute> = []) =>
  Object.fromEntries(attributes.map((attribute) => [attribute.key, valueOf(attribute.value)]))

/** An OTLP/HTTP receiver (JSON, as the exporter sends it): the spans it was sent, by service. */
const startReceiver = async () => {
  const spans: Array<ReceivedSpan> = []
  const paths: Array<string> = []
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      paths.push(request.url ?? "")
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpTraces
      for (const resource of body.resourceSpans ?? []) {
        const service = String(attributesOf(resource.resource?.attributes)["service.name"])
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) spans.push({ service, name: span.name, attributes: attributesOf(span.attributes) })
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const { launch, outputs, serving, collecting, stop, stopAll } = processGroup()

describe(`the built server and workers with the settings that load modules (${backend} database)`, () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let sql: pg.Client
  let cleanup = async () => {}
  let api: Proc
  let tracedWorker: Proc
  let untracedWorker: Proc
  let key: string
  const redis = process.env.REDIS_URL
  const redisPrefix = `bvm-test:settings:${process.pid}:${Date.now()}:`

  beforeAll(async () => {
    receiver = await startReceiver()
    try {
      const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint }
      const common = { SIMULATED_PLATFORMS: "all", SHUTDOWN_TIMEOUT_SECONDS: "5" }
      let database: Record<string, string>
      let workerDatabase: Record<string, string>
      if (backend === "postgres") {
        const created = await createDatabase(process.env.DATABASE_URL!)
        cleanup = created.drop
        database = workerDatabase = { DATABASE_URL: created.url }
      } else {
        const dataDir = mkdtempSync(join(tmpdir(), "bvm-settings-"))
        cleanup = async () => rmSync(dataDir, { recursive: true, force: true })
        database = workerDatabase = { DATA_DIR: dataDir }
      }
      api = await launch("api (traced, metrics, redis, collector)", "dist/server/main.js", {
        ...common,
        ...database,
        ...tracing,
        OTEL_SERVICE_NAME: "bvm-api",
        METRICS: "on",
        METRICS_TOKEN: "scrape-secret",
        REDIS_URL: redis ?? `redis://127.0.0.1:${await freePort()}`,
        REDIS_PREFIX: redisPrefix,
        WORKER: "on",
        // Its collector takes the run's jobs as the workers do; its scheduler has nothing to do here.
        COLLECTOR_TICK_SECONDS: "3600"
      })
      await serving(api)
      tracedWorker = await launch("worker (traced)", "dist/server/worker.js", {
        ...common,
        ...workerDatabase,
        ...tracing,
        OTEL_SERVICE_NAME: "bvm-worker"
      })
      untracedWorker = await launch("worker (OTEL_SDK_DISABLED)", "dist/server/worker.js", {
        ...common,
        ...workerDatabase,
        ...tracing,
        OTEL_SDK_DISABLED: "true",
        OTEL_SERVICE_NAME: "bvm-untraced"
      })
      await Promise.all([collecting(api), collecting(tracedWorker), collecting(untracedWorker)])

      let connection: pg.ClientConfig
      if (backend === "postgres") connection = { connectionString: database.DATABASE_URL }
      else {
        const socket = JSON.parse(readFileSync(join(database.DATA_DIR!, "embedded-server.json"), "utf8")) as { host: string; port: number }
        connection = { host: socket.host, port: socket.port, user: "postgres", database: "postgres" }
      }
      sql = new pg.Client(connection)
      sql.on("error", () => {}) // the embedded database closes this socket when the API stops
      await sql.connect()
      const organization = await sql.query<{ id: string }>("INSERT INTO organizations (name) VALUES ('Settings') RETURNING id")
      key = generateKey()
      await sql.query("INSERT INTO api_keys (organization_id, name, key_hash, prefix, abilities) VALUES ($1, 'settings', $2, $3, ARRAY['*'])", [
        organization.rows[0]!.id,
        hashKey(key),
        keyPrefix(key)
      ])
    } catch (error) {
      await stopAll()
      await cleanup()
      await receiver.close()
      throw error
    }
  }, 150_000)

  afterAll(async () => {
    await sql?.end().catch(() => {})
    await stopAll()
    await cleanup()
    await receiver?.close()
  }, 30_000)

  const call = async (method: string, path: string, options: { project?: number; body?: unknown; headers?: Record<string, string> } = {}) => {
    const reply = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(options.project === undefined ? {} : { "service-project-id": String(options.project) }),
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...options.headers
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body)
    })
    const text = await reply.text()
    return { status: reply.status, headers: reply.headers, text, body: reply.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : undefined }
  }

  /** Until spans matching `found` have arrived (batches leave every 5 s), or 30 s pass. */
  const spansUntil = async (found: (spans: ReadonlyArray<ReceivedSpan>) => boolean) => {
    const deadline = Date.now() + 30_000
    while (!found(receiver.spans) && Date.now() < deadline) await wait(250)
    return receiver.spans
  }

  it("serves the API, with its request spans exported over OTLP, each with its request id", async () => {
    onTestFailed(() => console.error(outputs()))
    const me = await call("GET", "/api/v1/me", { headers: { "x-request-id": "settings-me-1" } })
    expect(me.status).toBe(200)
    expect(api.output).toContain(`traces exported to ${receiver.endpoint}/v1/traces`)
    const spans = await spansUntil((all) => all.some((span) => span.service === "bvm-api" && span.name === "ApiKeysRepo.authenticate"))
    const ofRequest = spans.filter((span) => span.service === "bvm-api" && span.attributes.request_id === "settings-me-1")
    expect(ofRequest.map((span) => span.name)).toEqual(expect.arrayContaining(["ApiKeysRepo.authenticate", "sql.execute"]))
    expect(ofRequest.some((span) => span.name.startsWith("http.server"))).toBe(true)
    expect(new Set(receiver.paths)).toEqual(new Set(["/v1/traces"]))
  }, 60_000)

  it("completes a monitor's run, its jobs taken by the collectors (the API's and the workers')", async () => {
    onTestFailed(() => console.error(outputs()))
    const project = (await call("POST", "/api/v1/projects", { body: { name: "Settings", domain: "acme.com" } })).body.data.id as number
    await call("POST", "/api/v1/brands", { project, body: { name: "Acme", domains: ["acme.com"] } })
    const monitor = (await call("POST", "/api/v1/monitors", { project, body: { name: "Manual", country: "US", platforms: PLATFORMS, schedule: "manual", simulated: true } }))
      .body.data.id as number
    for (const text of ["Which CRM for a small team?", "Which CRM for an agency?", "Which CRM for a school?"]) {
      expect((await call("POST", "/api/v1/prompts", { project, body: { monitor_id: monitor, text } })).status).toBe(201)
    }
    const run = await call("POST", `/api/v1/monitors/${monitor}/runs`, { project })
    expect(run.status).toBe(202)
    const deadline = Date.now() + 45_000
    let runs = await call("GET", `/api/v1/monitors/${monitor}/runs`, { project })
    while (runs.body.data[0].status !== "completed" && Date.now() < deadline) {
      await wait(250)
      runs = await call("GET", `/api/v1/monitors/${monitor}/runs`, { project })
    }
    expect(runs.body.data[0]).toMatchObject({ status: "completed", jobs: { total: 6, succeeded: 6 } })
  }, 60_000)

  it("serves Prometheus metrics behind their token (METRICS=on)", async () => {
    expect((await fetch(`${api.baseUrl}/metrics`)).status).toBe(401)
    const scrape = await fetch(`${api.baseUrl}/metrics`, { headers: { authorization: "Bearer scrape-secret" } })
    expect(scrape.status).toBe(200)
    const text = await scrape.text()
    expect(text).toMatch(/^bvm_http_requests_total\{route="\/api\/v1\/me",method="GET",status="200"\} \d+$/m)
    expect(text).toMatch(/^bvm_process_resident_memory_bytes \d+/m)
  })

  it(redis ? "keeps the rate-limit counters in Redis (REDIS_URL)" : "loads the Redis store for REDIS_URL, and lets requests through while no Redis answers", async () => {
    onTestFailed(() => console.error(outputs()))
    expect((await call("GET", "/api/v1/me")).status).toBe(200)
    if (redis) {
      expect(api.output).not.toContain("rate limit store unavailable")
      const client = new Redis(redis)
      try {
        expect((await client.keys(`${redisPrefix}*`)).length).toBeGreaterThan(0)
      } finally {
        client.disconnect()
      }
    } else {
      // The Redis client was made and asked: the store module loaded.
      expect(api.output).toContain("rate limit store unavailable")
    }
  })

  it("serves the API reference, whose script is loaded on the first request", async () => {
    const docs = await fetch(`${api.baseUrl}/docs`)
    expect(docs.status).toBe(200)
    const html = await docs.text()
    expect(html).toContain(`<script id="api-reference" type="application/json">`)
    expect(html.length).toBeGreaterThan(1_000_000)
  })

  it("stops on SIGTERM with exit 0, the traced processes sending their last spans; the worker with OTEL_SDK_DISABLED sent none", async () => {
    onTestFailed(() => console.error(outputs()))
    expect(tracedWorker.output).toContain(`traces exported to ${receiver.endpoint}/v1/traces`)
    expect(untracedWorker.output).not.toContain("traces exported")
    expect(await stop(tracedWorker)).toBe(0)
    expect(await stop(untracedWorker)).toBe(0)
    await sql.end().catch(() => {})
    expect(await stop(api)).toBe(0)
    // The worker's statements (it polls for jobs and merges analytics every second) are spans too.
    expect(receiver.spans.some((span) => span.service === "bvm-worker" && span.name === "sql.execute")).toBe(true)
    expect(receiver.spans.filter((span) => span.service === "bvm-untraced")).toEqual([])
    expect(new Set(receiver.spans.map((span) => span.service))).toEqual(new Set(["bvm-api", "bvm-worker"]))
  }, 60_000)
})
