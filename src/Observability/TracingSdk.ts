import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"

/**
 * The OpenTelemetry SDK exporting spans over OTLP/HTTP to `url`, in batches (the last one flushed when
 * the layer is released). Observability/Tracing.ts imports this module only when tracing is on.
 *
 * It is a module of its own, imported statically here, because the OpenTelemetry packages are CommonJS:
 * a dynamic `import()` of one of them directly works under Node and tsx, but in the built bundle
 * (esbuild with code splitting) its chunk exposes only `default`, and `OTLPTraceExporter` is then
 * undefined (esbuild issue 3245). An ESM module of our own as the lazily loaded chunk has no such gap.
 */
export const layer = (options: { readonly url: string; readonly serviceName: string }) =>
  NodeSdk.layer(() => ({
    resource: { serviceName: options.serviceName },
    spanProcessor: new BatchSpanProcessor(new OTLPTraceExporter({ url: options.url }))
  }))
