import { NodeSDK } from "@opentelemetry/sdk-node";
import { logger } from "@/lib/platform/log";

/**
 * OpenTelemetry tracing, started by instrumentation.ts only when the standard
 * OTEL_* variables ask for it (lib/platform/config tracingWanted): this module, the SDK and its exporters
 * are never loaded otherwise, and Next's own spans go to the API's no-op tracer at no cost.
 * The SDK configures itself from the same variables: OTEL_TRACES_EXPORTER (otlp by default),
 * OTEL_EXPORTER_OTLP_ENDPOINT / _TRACES_ENDPOINT and _PROTOCOL, OTEL_SERVICE_NAME,
 * OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER and _ARG. Next's spans (each request, route and
 * outgoing fetch) are exported; the correlation id links a trace to the log lines.
 */
export function startTracing(): void {
  const sdk = new NodeSDK();
  sdk.start();
  logger().info("OpenTelemetry tracing started");
  // Spans still buffered are flushed on the way out (SIGTERM drains the server: lib/platform/shutdown.ts).
  process.once("SIGTERM", () => void sdk.shutdown().catch(() => {}));
}
