import { HttpApiBuilder, HttpMiddleware, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option, Redacted, Runtime, Schema } from "effect"
import * as Prometheus from "prom-client"
import { timingSafeEqual } from "node:crypto"
import { performance } from "node:perf_hooks"
import { Settings } from "../Config.ts"
import { decodeRows } from "../Database/Rows.ts"

/**
 * The service's Prometheus metrics (docs/operations.md), served at `GET /metrics`
 * when `METRICS=on`:
 * - `bvm_http_requests_total` and `bvm_http_request_duration_seconds`, by route (the API's declared
 *   path, never the raw one, so ids do not multiply the series), method and status;
 * - `bvm_collector_jobs`, the collector's queue by status and platform, read from the database when
 *   scraped, so it counts the jobs of every worker process;
 * - `bvm_platform_failures_total`, by platform and kind, counted by the workers of this process;
 * - Node's own (`bvm_process_*`, `bvm_nodejs_*`): memory, CPU, event loop lag.
 * Each server has its own registry, so two servers in one process (the tests) never share counts.
 */
export class Metrics extends Context.Tag("Metrics")<Metrics, {
  /** Whether the metrics are served (`METRICS=on`): requests are measured only then. */
  readonly served: boolean
  readonly registry: Prometheus.Registry
  readonly request: (labels: { readonly route: string; readonly method: string; readonly status: number }, seconds: number) => void
  readonly platformFailure: (labels: { readonly platform: string; readonly kind: string }) => void
}>() {
  static readonly layer = Layer.effect(
    Metrics,
    Effect.gen(function*() {
      const { metrics: served } = yield* Settings
      const registry = new Prometheus.Registry()
      // Node's own metrics sample the event loop all the time: only when someone can read them.
      if (served) Prometheus.collectDefaultMetrics({ register: registry, prefix: "bvm_" })
      const requests = new Prometheus.Counter({
        name: "bvm_http_requests_total",
        help: "HTTP requests answered, by route, method and status.",
        labelNames: ["route", "method", "status"] as const,
        registers: [registry]
      })
      const durations = new Prometheus.Histogram({
        name: "bvm_http_request_duration_seconds",
        help: "Time to answer an HTTP request, by route, method and status.",
        labelNames: ["route", "method", "status"] as const,
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [registry]
      })
      const failures = new Prometheus.Counter({
        name: "bvm_platform_failures_total",
        help: "Failed attempts to ask an AI platform, by platform and kind (rate_limited, unavailable, timeout, quota_exceeded, rejected, malformed).",
        labelNames: ["platform", "kind"] as const,
        registers: [registry]
      })
      const queue = yield* queueDepth
      new Prometheus.Gauge({
        name: "bvm_collector_jobs",
        help: "Collector jobs waiting (pending) or being asked (running), by platform.",
        labelNames: ["status", "platform"] as const,
        registers: [registry],
        async collect() {
          this.reset()
          for (const row of await queue()) this.set({ status: row.status, platform: row.platform }, row.jobs)
        }
      })
      return Metrics.of({
        served,
        registry,
        request: (labels, seconds) => {
          const values = { ...labels, status: String(labels.status) }
          requests.inc(values)
          durations.observe(values, seconds)
        },
        platformFailure: (labels) => failures.inc(labels)
      })
    })
  )
}

const QueueRow = Schema.Struct({ status: Schema.String, platform: Schema.String, jobs: Schema.Number })

/** The unfinished jobs by status and platform (the queue's partial index), or none without a database. */
const queueDepth = Effect.gen(function*() {
  const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
  const runtime = yield* Effect.runtime<never>()
  return (): Promise<ReadonlyArray<typeof QueueRow.Type>> =>
    Option.match(sql, {
      onNone: () => Promise.resolve([]),
      onSome: (sql) =>
        Runtime.runPromise(runtime)(
          decodeRows(
            QueueRow,
            sql`SELECT status, platform, count(*) AS jobs FROM collector_jobs WHERE status IN ('pending', 'running') GROUP BY status, platform`
          ).pipe(Effect.orElseSucceed(() => []))
        )
    })
})

/** The paths served beside the API, labelled as they are. */
const otherRoutes = new Set(["/health", "/ready", "/metrics", "/docs", "/api/v1/openapi.json"])

/**
 * Records every request's route, method, status and duration, when the server has `Metrics` and serves
 * them. The route is the declared path of the API (`/api/v1/tags/:tag`), the path of the few other
 * routes, or one label for all the rest (`dashboard`, `unmatched` under /api/), so the series stay few.
 */
export const measured = (known: { readonly declaredPath: (path: string) => string | undefined }) =>
  HttpMiddleware.make((app) =>
    Effect.gen(function*() {
      const metrics = yield* Effect.serviceOption(Metrics)
      if (Option.isNone(metrics) || !metrics.value.served) return yield* app
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = request.url.split("?")[0]!
      const route = known.declaredPath(path) ?? (otherRoutes.has(path) ? path : path.startsWith("/api/") ? "unmatched" : "dashboard")
      const started = performance.now()
      return yield* app.pipe(
        Effect.onExit((exit) =>
          Effect.sync(() =>
            metrics.value.request(
              { route, method: request.method, status: exit._tag === "Success" ? exit.value.status : 499 },
              (performance.now() - started) / 1000
            )
          )
        )
      )
    })
  )

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * `GET /metrics` in the Prometheus text format, only when `METRICS=on`; with `METRICS_TOKEN` set, only
 * for `Authorization: Bearer <token>` (401 otherwise). Off, the path does not exist (404).
 */
export const route = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const settings = yield* Settings
    if (!settings.metrics) return
    const { registry } = yield* Metrics
    yield* router.get(
      "/metrics",
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const authorization = request.headers.authorization ?? ""
        const allowed = Option.match(settings.metricsToken, {
          onNone: () => true,
          onSome: (token) => /^bearer /i.test(authorization) && sameToken(authorization.slice(7).trim(), Redacted.value(token))
        })
        if (!allowed) {
          return HttpServerResponse.unsafeJson({ message: "Unauthenticated." }, { status: 401, headers: { "www-authenticate": "Bearer" } })
        }
        const text = yield* Effect.promise(() => registry.metrics())
        return HttpServerResponse.text(text, { contentType: registry.contentType })
      })
    )
  })
)
