import { Counter as PromCounter, Gauge as PromGauge, Histogram as PromHistogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The process's metrics through prom-client (docs/operations.md says why this client): the app's counters, gauges
 * and histograms, Node's process metrics (event-loop lag, heap, GC, handles, CPU, file descriptors) under their
 * standard names, and the figures read at scrape time.
 *
 * One registry per process. A production build of Next loads a server module once per bundle that uses it (the
 * route handlers, the server components, instrumentation.ts each get their own copy), so prom-client's default
 * registry, held in its module state, could be one per copy, and /api/metrics would see only what its own copy
 * counted (prometheus/client_js #640). The app's registry lives on globalThis under a registered Symbol instead:
 * every copy finds the same one. Metrics are found by name, so a second copy declaring a metric gets the first's.
 */

export type Labels = Record<string, string>;

/** A figure read when scraped (queue depth, sync lag): one gauge family with its series. */
export type CollectedMetric = {
  name: string;
  help: string;
  type: "gauge";
  series: { labels?: Labels; value: number }[];
};

/** Runs at every scrape. Throwing is reported as that collector being down; the other figures still go out. */
export type Collector = () => Promise<CollectedMetric[]> | CollectedMetric[];

type Holder = { registry: Registry; collectors: Map<string, Collector> };

const REGISTRY = Symbol.for("store-app-starter.metrics-registry");

/**
 * How often the event-loop lag is sampled. prom-client's 10 ms is a timer firing 100 times a second for the life of
 * the process, CPU spent every second in a process with nothing else to do, and never an idle CPU. At 100 ms a stall of half a second, what the alert in
 * docs/operations.md watches for, is still caught in every sample it spans.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

function holder(): Holder {
  const global = globalThis as unknown as Record<symbol, Holder | undefined>;
  const found = global[REGISTRY];
  if (found) return found;
  const registry = new Registry();
  // Once per process, with the registry: each call would add another GC observer and event-loop monitor.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return (global[REGISTRY] = { registry, collectors: new Map() });
}

/** The metric of that name if some copy of this module declared it already, else the one `create` makes. */
function declared<M>(name: string, create: (registry: Registry) => M): M {
  const { registry } = holder();
  return (registry.getSingleMetric(name) as M | undefined) ?? create(registry);
}

export type Counter = { inc(labels?: Labels, by?: number): void };
export type Gauge = { set(labels: Labels, value: number): void; add(labels: Labels, by: number): void };
export type Histogram = { observe(labels: Labels, value: number): void };

export function counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
  const metric = declared(name, (registry) => new PromCounter({ name, help, labelNames, registers: [registry] }));
  return { inc: (labels = {}, by = 1) => metric.inc(labels, by) };
}

export function gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
  const metric = declared(name, (registry) => new PromGauge({ name, help, labelNames, registers: [registry] }));
  return {
    set: (labels, value) => metric.set(labels, value),
    add: (labels, by) => (by >= 0 ? metric.inc(labels, by) : metric.dec(labels, -by)),
  };
}

/** Seconds, from 5 ms to 30 s: webhook answers, platform calls, pacing waits and statements all fall inside. */
export const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

export function histogram(name: string, help: string, labelNames: readonly string[] = [], buckets: readonly number[] = SECONDS_BUCKETS): Histogram {
  const metric = declared(name, (registry) => new PromHistogram({ name, help, labelNames, buckets: [...buckets], registers: [registry] }));
  return { observe: (labels, value) => metric.observe(labels, value) };
}

/**
 * The hook for figures read at scrape time. Registered by name, so a module loaded twice replaces its own
 * collector instead of doubling it. See lib/observability/collectors.ts.
 */
export function registerCollector(name: string, collect: Collector): void {
  holder().collectors.set(name, collect);
}

export function unregisterCollector(name: string): void {
  holder().collectors.delete(name);
}

/** The exposition's content type (text format 0.0.4). */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/**
 * The whole exposition: the process's metrics, then every collector's figures, then whether each collector ran.
 * Collected figures go through a registry of their own, made for this scrape, so prom-client formats them too.
 */
export async function renderMetrics(options: { onCollectorError?: (name: string, error: unknown) => void } = {}): Promise<string> {
  const { registry, collectors } = holder();
  const scraped = new Registry();
  const up = new PromGauge({ name: "store_app_collector_up", help: "1 when the scrape-time collector answered, 0 when it failed.", labelNames: ["collector"], registers: [] });
  for (const [name, collect] of collectors) {
    try {
      for (const metric of await collect()) {
        const labelNames = [...new Set(metric.series.flatMap((series) => Object.keys(series.labels ?? {})))];
        const family = new PromGauge({ name: metric.name, help: metric.help, labelNames, registers: [scraped] });
        for (const series of metric.series) family.set(series.labels ?? {}, series.value);
      }
      up.set({ collector: name }, 1);
    } catch (error) {
      options.onCollectorError?.(name, error);
      up.set({ collector: name }, 0);
    }
  }
  if (collectors.size > 0) scraped.registerMetric(up);
  return (await registry.metrics()) + (await scraped.metrics());
}

/** For tests: every series back to zero (the metrics and collectors stay declared). */
export function resetMetrics(): void {
  holder().registry.resetMetrics();
}
