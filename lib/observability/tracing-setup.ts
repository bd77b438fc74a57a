import "server-only";
import { SpanStatusCode, context, propagation, trace, type ProxyTracerProvider } from "@opentelemetry/api";
import { registerOTel, type Configuration } from "@vercel/otel";
import { enableTracing } from "./trace";

/**
 * Turns tracing on through `@vercel/otel`, the framework's documented setup: loaded by instrumentation.ts's
 * register() through a dynamic import, and only when OTEL_EXPORTER_OTLP_ENDPOINT is set, so with tracing off none
 * of OpenTelemetry's SDK is even loaded.
 *
 * What it brings: the exporter chosen from the standard OTEL_EXPORTER_OTLP_* variables (and, deployed on Vercel,
 * Vercel's own collector and trace drains, flushed at the end of each invocation); the fetch instrumentation, so
 * every outgoing call (the platform's API, its token endpoint) is a client span with its status; Next's own spans
 * (the request, the route, the render) as parents. The app's own spans (lib/observability/trace.ts: the webhook
 * receiver's steps, platform calls, database statements, job runs) nest under them through the global provider.
 */

export const SERVICE_NAME = "store-app-starter";

export type SpanProcessor = Exclude<NonNullable<Configuration["spanProcessors"]>[number], "auto">;

/**
 * Registers the SDK and switches the app's spans on. Without `spanProcessors`, the exporter is the one the
 * OTEL_EXPORTER_OTLP_* variables describe (OTLP over http/protobuf by default, http/json with
 * OTEL_EXPORTER_OTLP_PROTOCOL=http/json); tests hand in an in-memory one.
 */
export function startTracing(options: { spanProcessors?: SpanProcessor[] } = {}): void {
  registerOTel({
    // OTEL_SERVICE_NAME, when set, wins.
    serviceName: SERVICE_NAME,
    spanProcessors: options.spanProcessors ?? ["auto"],
    instrumentations: ["fetch"],
  });
  traceWithGlobalProvider();
  // Spans still in the batch go out before the process ends.
  if (!options.spanProcessors) process.once("SIGTERM", () => void registeredProvider().shutdown?.().catch(() => undefined));
}

/**
 * Switches the app's spans on over whatever tracer provider is registered globally. startTracing calls it; call it
 * yourself after registering another setup (a vendor's SDK), see docs/operations.md.
 */
export function traceWithGlobalProvider(): void {
  enableTracing({
    tracer: trace.getTracer(SERVICE_NAME),
    activeSpan: () => trace.getActiveSpan(),
    errorCode: SpanStatusCode.ERROR,
  });
}

/** The SDK's provider behind the API's proxy, for a flush or a shutdown. */
function registeredProvider(): { forceFlush?: () => Promise<void>; shutdown?: () => Promise<void> } {
  return (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as { forceFlush?: () => Promise<void>; shutdown?: () => Promise<void> };
}

/** Sends the spans still batched (a worker before it exits). */
export async function flushTracing(): Promise<void> {
  await registeredProvider().forceFlush?.();
}

/** For tests: spans off again, the provider shut down and the global API released. */
export async function stopTracing(): Promise<void> {
  enableTracing(undefined);
  await registeredProvider().shutdown?.();
  trace.disable();
  context.disable();
  propagation.disable();
}
