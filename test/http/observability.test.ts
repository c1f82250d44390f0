import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { HttpServer } from "@effect/platform"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { ConfigProvider, Effect, Layer, Logger, LogLevel, ManagedRuntime, Option, Redacted } from "effect"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Settings } from "../../src/Config.ts"
import { Metrics } from "../../src/Observability/Metrics.ts"
import * as Tracing from "../../src/Observability/Tracing.ts"
import { Analyzer } from "../../src/Responses/Analyzer.ts"
import { MemoryLive, serve } from "../../src/Server.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Operating the service (docs/operations.md): the Prometheus metrics behind their setting and token, and
 * the traces, with the request id on every span, kept in the process or exported over OTLP.
 */

/** A request's JSON body, for a project of its own. */
const setup = async (server: TestServer) => {
  const organization = await server.createOrganization()
  const { key } = await server.createKey(organization.id, ["*"])
  const project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Observed" } })).body.data.id as number
  return { key, project }
}

describe("GET /metrics, off by default", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer("memory")
  })
  afterAll(() => server.close())

  it("does not exist unless METRICS=on", async () => {
    const reply = await server.request("GET", "/metrics")
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({ message: "Not found" })
  })
})

describe.each(backends)("GET /metrics with METRICS=on and a token (%s)", (backend) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer(backend, { metrics: true, metricsToken: Option.some(Redacted.make("scrape-secret")) })
  })
  afterAll(() => server.close())

  it("asks for the token: 401 without it or with another", async () => {
    for (const authorization of [undefined, "Bearer wrong", "Basic scrape-secret"]) {
      const reply = await server.request("GET", "/metrics", { headers: authorization === undefined ? {} : { authorization } })
      expect(reply.status).toBe(401)
      expect(reply.headers.get("www-authenticate")).toBe("Bearer")
      expect(reply.text).not.toContain("bvm_")
    }
  })

  it("counts requests by declared route, method and status, with their durations", async () => {
    const { key, project } = await setup(server)
    await server.request("GET", "/api/v1/tags", { key, project })
    await server.request("GET", "/api/v1/tags", { key, project })
    await server.request("GET", "/api/v1/tags/999999", { key, project })
    const reply = await server.request("GET", "/metrics", { headers: { authorization: "Bearer scrape-secret" } })
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toMatch(/^text\/plain/)
    expect(reply.text).toMatch(/^bvm_http_requests_total\{route="\/api\/v1\/tags",method="GET",status="200"\} 2$/m)
    // The path's id is not a label: one series for every tag.
    expect(reply.text).toMatch(/^bvm_http_requests_total\{route="\/api\/v1\/tags\/:tag",method="GET",status="404"\} 1$/m)
    expect(reply.text).toMatch(/^bvm_http_request_duration_seconds_count\{route="\/api\/v1\/tags",method="GET",status="200"\} 2$/m)
    expect(reply.text).toMatch(/^bvm_process_resident_memory_bytes \d+/m)
  })

  it("shows the collector's queue, read from the database", async () => {
    const { key, project } = await setup(server)
    const monitor = (await server.request("POST", "/api/v1/monitors", {
      key,
      project,
      body: { name: "Queue", country: "US", platforms: ["chatgpt", "claude"], schedule: "manual" }
    })).body.data.id
    for (const text of ["One?", "Two?", "Three?"]) {
      await server.request("POST", "/api/v1/prompts", { key, project, body: { monitor_id: monitor, text } })
    }
    expect((await server.request("POST", `/api/v1/monitors/${monitor}/runs`, { key, project })).status).toBe(202)
    const reply = await server.request("GET", "/metrics", { headers: { authorization: "Bearer scrape-secret" } })
    if (backend === "memory") {
      // The in-memory store keeps no job queue: the gauge has no series.
      expect(reply.text).not.toMatch(/^bvm_collector_jobs\{/m)
    } else {
      // No worker runs in the test server: the run's jobs wait.
      expect(reply.text).toMatch(/^bvm_collector_jobs\{status="pending",platform="chatgpt"\} 3$/m)
      expect(reply.text).toMatch(/^bvm_collector_jobs\{status="pending",platform="claude"\} 3$/m)
    }
  })
})

/** The server on the in-memory store with a tracer of its own. */
const tracedServer = async <A, E>(tracer: Layer.Layer<A, E>) => {
  const runtime = ManagedRuntime.make(
    serve({ port: 0, host: "127.0.0.1" }).pipe(
      Layer.provide(Metrics.layer),
      Layer.provide(Analyzer.inProcess),
      Layer.provideMerge(MemoryLive),
      Layer.provide(Settings.layerWith({ rateLimitPerMinute: 1_000_000 })),
      Layer.provide(tracer),
      Layer.provide(Logger.minimumLogLevel(LogLevel.None))
    )
  )
  const address = await runtime.runPromise(HttpServer.addressWith(Effect.succeed))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  return { runtime, baseUrl: `http://127.0.0.1:${address.port}` }
}

describe("traces", () => {
  it("make a span of the request and of every repository call, each with the request id", async () => {
    const exporter = new InMemorySpanExporter()
    const { baseUrl, runtime } = await tracedServer(
      NodeSdk.layer(() => ({ resource: { serviceName: "test" }, spanProcessor: new SimpleSpanProcessor(exporter) }))
    )
    try {
      const reply = await fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer bvm_${"A".repeat(40)}`, "x-request-id": "trace-me-1" } })
      expect(reply.status).toBe(401)
      const spans = exporter.getFinishedSpans()
      const lookup = spans.find((span) => span.name === "ApiKeysRepo.authenticate")
      expect(lookup?.attributes.request_id).toBe("trace-me-1")
      const request = spans.find((span) => span.name.startsWith("http.server"))
      expect(request?.attributes.request_id).toBe("trace-me-1")
      // The repository's span is a child of the request's.
      expect(lookup?.spanContext().traceId).toBe(request?.spanContext().traceId)
    } finally {
      await runtime.dispose()
    }
  })

  it("are exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT, and only when it is set", async () => {
    const received: Array<{ readonly url: string; readonly body: string }> = []
    const collector = createServer((request: IncomingMessage, response) => {
      let body = ""
      request.on("data", (chunk) => (body += chunk))
      request.on("end", () => {
        received.push({ url: request.url ?? "", body })
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve))
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`
    const withConfig = (entries: Record<string, string>) =>
      Tracing.layer.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(entries))))))
    try {
      const off = await tracedServer(withConfig({}))
      await fetch(`${off.baseUrl}/api/v1/me`)
      await off.runtime.dispose()
      expect(received).toEqual([])

      const on = await tracedServer(withConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: "bvm-under-test" }))
      await fetch(`${on.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer bvm_${"B".repeat(40)}` } })
      // Closing flushes the batch.
      await on.runtime.dispose()
      expect(received.map((request) => request.url)).toContain("/v1/traces")
      const body = received.map((request) => request.body).join("\n")
      expect(body).toContain("ApiKeysRepo.authenticate")
      expect(body).toContain("bvm-under-test")
    } finally {
      collector.close()
    }
  })
})
