import type { Span, Tracer } from "@opentelemetry/api";

/**
 * Spans, when tracing is on. This module imports nothing at run time (the OpenTelemetry types above are erased), so
 * importing it costs nothing; lib/observability/tracing-setup.ts, loaded by instrumentation.ts only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, turns it on. With tracing off every helper is one property read on
 * globalThis and a direct call of the work.
 *
 * The switch lives on globalThis for the same reason as the metrics registry: instrumentation.ts and the routes are
 * separate bundles with separate copies of this module.
 */

export type SpanAttributes = Record<string, string | number | boolean | undefined>;

type Tracing = {
  tracer: Tracer;
  /** The span active in this async context, if any (api.trace.getActiveSpan). */
  activeSpan(): Span | undefined;
  /** SpanStatusCode.ERROR, kept here so this module needs no run-time import of the API. */
  errorCode: number;
};

const TRACING = Symbol.for("store-app-starter.tracing");
const holder = globalThis as unknown as Record<symbol, Tracing | undefined>;

export function enableTracing(tracing: Tracing | undefined): void {
  holder[TRACING] = tracing;
}

export function tracingEnabled(): boolean {
  return holder[TRACING] !== undefined;
}

function defined(attributes: SpanAttributes): Record<string, string | number | boolean> {
  const kept: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) kept[name] = value;
  return kept;
}

/**
 * The failure as a span may show it: the error's class only. A message can carry customer data or SQL, and the
 * error report (lib/observability/report-error.ts) already has the redacted one.
 */
function failed(span: Span, tracing: Tracing, error: unknown): void {
  span.setStatus({ code: tracing.errorCode, message: error instanceof Error ? error.name : "error" });
  span.setAttribute("error.type", error instanceof Error ? error.name : typeof error);
}

/**
 * Runs `work` inside a span named `name`, the current span its parent. For the job engine too: wrap each job run
 * in `withSpan("job.run", { "job.kind": kind }, () => run(job))`.
 */
export function withSpan<T>(name: string, attributes: SpanAttributes, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  const tracing = holder[TRACING];
  if (!tracing) return work(undefined);
  return tracing.tracer.startActiveSpan(name, { attributes: defined(attributes) }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failed(span, tracing, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** withSpan for synchronous work (the signature check, parsing). */
export function withSpanSync<T>(name: string, attributes: SpanAttributes, work: () => T): T {
  const tracing = holder[TRACING];
  if (!tracing) return work();
  return tracing.tracer.startActiveSpan(name, { attributes: defined(attributes) }, (span) => {
    try {
      return work();
    } catch (error) {
      failed(span, tracing, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Adds figures known only at the end (attempts, waits) to the current span. */
export function annotateSpan(attributes: SpanAttributes): void {
  const span = holder[TRACING]?.activeSpan();
  if (span) span.setAttributes(defined(attributes));
}

/** trace_id and span_id of the current span, for log lines (lib/log.ts); nothing when tracing is off or no span. */
export function traceFields(): { trace_id: string; span_id: string } | undefined {
  const span = holder[TRACING]?.activeSpan();
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
