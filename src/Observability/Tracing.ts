import { HttpMiddleware } from "@effect/platform"
import { Config, Effect, FiberRef, Layer, Option } from "effect"

/**
 * Traces (docs/operations.md): every request is a span (the HTTP server's), each
 * call of a repository or service a span named after it (`TagsRepo.list`), each SQL statement a span
 * of its own (@effect/sql), all of a request's spans annotated with its `request_id`.
 *
 * They leave the process only when the standard OpenTelemetry settings ask for it: an OTLP/HTTP
 * endpoint (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, or `OTEL_EXPORTER_OTLP_ENDPOINT` plus `/v1/traces`),
 * and neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none`. `OTEL_SERVICE_NAME` (default
 * `brand-visibility-monitor`), `OTEL_RESOURCE_ATTRIBUTES` and `OTEL_EXPORTER_OTLP_HEADERS` are read as
 * usual. Off by default.
 */

/** No stack trace on these spans: their name says where they are, and capturing one costs every call. */
const SPAN = { captureStackTrace: false } as const

/** `effect` in a span named `name` while the tracer is on; as it is otherwise, without even an empty span. */
const spanned = <A, E, R>(effect: Effect.Effect<A, E, R>, name: string): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime((fiber) => fiber.getFiberRef(FiberRef.currentTracerEnabled) ? Effect.withSpan(effect, name, SPAN) : effect)

/**
 * The service with a span around every call of each of its functions (`<name>.<function>`): the
 * repositories and services of the HTTP layer, without a line in each of them.
 */
export const traced = <S extends object>(name: string, service: S): S => {
  const wrapped: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(service)) {
    wrapped[key] = typeof value === "function"
      ? (...args: ReadonlyArray<unknown>) => spanned(value(...args) as Effect.Effect<unknown>, `${name}.${key}`)
      : Effect.isEffect(value)
      ? spanned(value, `${name}.${key}`)
      : value
  }
  return wrapped as S
}

/** Where traces go, from the standard settings; none when tracing is off. */
const exportUrl = Effect.gen(function*() {
  const disabled = yield* Config.boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false))
  const exporter = yield* Config.string("OTEL_TRACES_EXPORTER").pipe(Config.withDefault("otlp"))
  if (disabled || exporter.trim().toLowerCase() === "none") return Option.none<string>()
  const traces = yield* Config.option(Config.nonEmptyString("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
  if (Option.isSome(traces)) return traces
  const base = yield* Config.option(Config.nonEmptyString("OTEL_EXPORTER_OTLP_ENDPOINT"))
  return Option.map(base, (url) => `${url.replace(/\/+$/, "")}/v1/traces`)
})

/**
 * The tracer of a process: spans exported over OTLP when configured; otherwise none are made at all,
 * since nothing would read them (a span costs allocations on every call): Effect's spans are empty
 * ones, and the HTTP server skips its span per request (the URL parsed, the headers redacted, the
 * span's attributes) altogether.
 */
export const layer = Layer.unwrapEffect(Effect.gen(function*() {
  const url = yield* exportUrl
  if (Option.isNone(url)) {
    return Layer.merge(Layer.setTracerEnabled(false), Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true))
  }
  const serviceName = yield* Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("brand-visibility-monitor"))
  // Loaded only when used: the OpenTelemetry SDK weighs some 40 MB in a process that never exports.
  const TracingSdk = yield* Effect.promise(() => import("./TracingSdk.ts"))
  yield* Effect.logInfo(`traces exported to ${url.value}`)
  return TracingSdk.layer({ url: url.value, serviceName })
}))
