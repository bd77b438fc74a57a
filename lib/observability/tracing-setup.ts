import "server-only";
import { SpanStatusCode, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from "@opentelemetry/sdk-trace-node";
import { enableTracing } from "./trace";

/**
 * Turns tracing on: loaded by instrumentation.ts's register() through a dynamic import, and only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, so with tracing off none of the OpenTelemetry SDK is even loaded.
 *
 * The provider is registered globally: Next's own spans (the request, the route, the render) then go to the same
 * exporter, and the app's spans (lib/observability/trace.ts) nest under them. The standard OTEL_* variables the SDK
 * reads itself (OTEL_EXPORTER_OTLP_HEADERS for a vendor's key, OTEL_SERVICE_NAME) work as documented by
 * OpenTelemetry.
 */

export const SERVICE_NAME = "store-app-starter";

/** Registers a tracer provider feeding `processor` and switches the app's spans on. Tests hand in an in-memory one. */
export function installTracing(processor: SpanProcessor): NodeTracerProvider {
  const provider = new NodeTracerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, when set, win over the default name.
    resource: resourceFromAttributes({ "service.name": SERVICE_NAME }).merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [processor],
  });
  provider.register();
  traceWithGlobalProvider();
  return provider;
}

/**
 * Switches the app's spans on over whatever tracer provider is registered globally. installTracing calls it; call
 * it yourself after registering another setup (@vercel/otel's registerOTel, a vendor's SDK), see docs/operations.md.
 */
export function traceWithGlobalProvider(): void {
  enableTracing({
    tracer: trace.getTracer(SERVICE_NAME),
    activeSpan: () => trace.getActiveSpan(),
    errorCode: SpanStatusCode.ERROR,
  });
}

/** Production: spans batched to `${endpoint}/v1/traces` over OTLP/HTTP (JSON bodies, which every OTLP collector takes). */
export function startTracing(endpoint: string): NodeTracerProvider {
  const exporter = new OTLPTraceExporter({ url: `${endpoint}/v1/traces` });
  const provider = installTracing(new BatchSpanProcessor(exporter));
  // Spans still in the batch go out before the process ends.
  process.once("SIGTERM", () => void provider.shutdown().catch(() => undefined));
  return provider;
}

/** For tests: spans off again and the global provider released. */
export async function stopTracing(provider: NodeTracerProvider): Promise<void> {
  enableTracing(undefined);
  await provider.shutdown();
  trace.disable();
}
