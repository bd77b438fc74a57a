import type { RawEnv } from "@/lib/env";
import type { CheckResult } from "./types";

/**
 * Whether the deploy will be seen running: tracing (OTEL_EXPORTER_OTLP_ENDPOINT) and metrics (METRICS_SECRET). Both
 * are optional, so "off" is a skip, never a failure; a malformed value fails on its own variable's line.
 */
export function checkObservability(raw: RawEnv): CheckResult[] {
  const endpoint = raw.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const secret = raw.METRICS_SECRET?.trim();
  return [
    endpoint
      ? { id: "observability.tracing", title: "Tracing", status: "pass", detail: `on: spans go to ${originOf(endpoint)} over OTLP/HTTP` }
      : {
          id: "observability.tracing",
          title: "Tracing",
          status: "skip",
          detail: "off (OTEL_EXPORTER_OTLP_ENDPOINT unset)",
          fix: "set OTEL_EXPORTER_OTLP_ENDPOINT to an OpenTelemetry collector to turn it on (docs/operations.md)",
        },
    secret
      ? { id: "observability.metrics", title: "Metrics", status: "pass", detail: "on: GET /api/metrics answers a scraper sending METRICS_SECRET" }
      : {
          id: "observability.metrics",
          title: "Metrics",
          status: "skip",
          detail: "off (METRICS_SECRET unset: /api/metrics answers 404)",
          fix: "set METRICS_SECRET and point Prometheus at every instance's /api/metrics (docs/operations.md)",
        },
  ];
}

/** The collector's origin only: a vendor's URL may carry a key in its path or query. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(malformed URL)";
  }
}
