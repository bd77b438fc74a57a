/**
 * The process's metrics, in the Prometheus text format (version 0.0.4), without a client library: counters,
 * gauges and histograms with labels, and scrape-time collectors. Written here rather than taken from prom-client
 * because what the app needs is about 150 lines, and a library whose registry lives in module state is exactly
 * the trap below.
 *
 * One registry per process. A production build of Next loads a server module once per bundle that uses it (the
 * route handlers, the server components, instrumentation.ts each get their own copy), so a registry held in
 * module state would be one per copy, and /api/metrics would see only what its own copy counted (the trap known
 * from prometheus/client_js #640). The registry lives on globalThis under a registered Symbol: every copy finds
 * the same one. Metrics are found by name, so a second copy declaring a metric gets the first copy's.
 */

export type Labels = Record<string, string>;

/** A figure read when scraped (queue depth, sync lag): one metric family with its series. */
export type CollectedMetric = {
  name: string;
  help: string;
  type: "gauge" | "counter";
  series: { labels?: Labels; value: number }[];
};

/** Runs at every scrape. Throwing is reported as that collector being down; the other figures still go out. */
export type Collector = () => Promise<CollectedMetric[]> | CollectedMetric[];

type Series = { labels: Labels; value: number };
type HistogramSeries = { labels: Labels; counts: number[]; sum: number; count: number };

type Family =
  | { kind: "counter" | "gauge"; name: string; help: string; series: Map<string, Series> }
  | { kind: "histogram"; name: string; help: string; buckets: readonly number[]; series: Map<string, HistogramSeries> };

type Registry = { families: Map<string, Family>; collectors: Map<string, Collector> };

const REGISTRY = Symbol.for("store-app-starter.metrics-registry");

function registry(): Registry {
  const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
  return (holder[REGISTRY] ??= { families: new Map(), collectors: new Map() });
}

function keyOf(labels: Labels): string {
  const names = Object.keys(labels);
  if (names.length === 0) return "";
  // Label order must not make two series of one set.
  return names
    .sort()
    .map((name) => `${name}=${labels[name]}`)
    .join("\u0000");
}

function family<F extends Family>(name: string, create: () => F): F {
  const families = registry().families;
  const found = families.get(name);
  if (found) return found as F;
  const made = create();
  families.set(name, made);
  return made;
}

export type Counter = { inc(labels?: Labels, by?: number): void };
export type Gauge = { set(labels: Labels, value: number): void; add(labels: Labels, by: number): void };
export type Histogram = { observe(labels: Labels, value: number): void };

export function counter(name: string, help: string): Counter {
  const metric = family(name, () => ({ kind: "counter" as const, name, help, series: new Map<string, Series>() }));
  return {
    inc(labels = {}, by = 1) {
      const key = keyOf(labels);
      const series = metric.series.get(key);
      if (series) series.value += by;
      else metric.series.set(key, { labels, value: by });
    },
  };
}

export function gauge(name: string, help: string): Gauge {
  const metric = family(name, () => ({ kind: "gauge" as const, name, help, series: new Map<string, Series>() }));
  const at = (labels: Labels): Series => {
    const key = keyOf(labels);
    let series = metric.series.get(key);
    if (!series) metric.series.set(key, (series = { labels, value: 0 }));
    return series;
  };
  return {
    set: (labels, value) => void (at(labels).value = value),
    add: (labels, by) => void (at(labels).value += by),
  };
}

/** Seconds, from 5 ms to 30 s: webhook answers, platform calls, pacing waits and statements all fall inside. */
export const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

export function histogram(name: string, help: string, buckets: readonly number[] = SECONDS_BUCKETS): Histogram {
  const metric = family(name, () => ({ kind: "histogram" as const, name, help, buckets, series: new Map<string, HistogramSeries>() }));
  return {
    observe(labels, value) {
      const key = keyOf(labels);
      let series = metric.series.get(key);
      if (!series) metric.series.set(key, (series = { labels, counts: metric.buckets.map(() => 0), sum: 0, count: 0 }));
      // Stored per bucket, made cumulative when rendered.
      const index = metric.buckets.findIndex((bound) => value <= bound);
      if (index >= 0) series.counts[index] = (series.counts[index] ?? 0) + 1;
      series.sum += value;
      series.count += 1;
    },
  };
}

/**
 * The hook for figures read at scrape time. Registered by name, so a module loaded twice replaces its own
 * collector instead of doubling it. The job engine registers its queue collector (depth, failures, oldest job by
 * kind) here; see lib/observability/collectors.ts.
 */
export function registerCollector(name: string, collect: Collector): void {
  registry().collectors.set(name, collect);
}

export function unregisterCollector(name: string): void {
  registry().collectors.delete(name);
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function escapeHelp(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

function labelText(labels: Labels, extra?: [string, string]): string {
  const pairs = Object.entries(labels);
  if (extra) pairs.push(extra);
  return pairs.length === 0 ? "" : `{${pairs.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(",")}}`;
}

function numberText(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

function renderFamily(metric: Family): string[] {
  const lines = [`# HELP ${metric.name} ${escapeHelp(metric.help)}`, `# TYPE ${metric.name} ${metric.kind}`];
  if (metric.kind !== "histogram") {
    for (const series of metric.series.values()) lines.push(`${metric.name}${labelText(series.labels)} ${numberText(series.value)}`);
    return lines;
  }
  for (const series of metric.series.values()) {
    let cumulative = 0;
    metric.buckets.forEach((bound, index) => {
      cumulative += series.counts[index] ?? 0;
      lines.push(`${metric.name}_bucket${labelText(series.labels, ["le", numberText(bound)])} ${cumulative}`);
    });
    lines.push(`${metric.name}_bucket${labelText(series.labels, ["le", "+Inf"])} ${series.count}`);
    lines.push(`${metric.name}_sum${labelText(series.labels)} ${numberText(series.sum)}`);
    lines.push(`${metric.name}_count${labelText(series.labels)} ${series.count}`);
  }
  return lines;
}

function renderCollected(metric: CollectedMetric): string[] {
  return [
    `# HELP ${metric.name} ${escapeHelp(metric.help)}`,
    `# TYPE ${metric.name} ${metric.type}`,
    ...metric.series.map((series) => `${metric.name}${labelText(series.labels ?? {})} ${numberText(series.value)}`),
  ];
}

/** The whole exposition: the process's counters, then every collector's figures, then whether each collector ran. */
export async function renderMetrics(options: { onCollectorError?: (name: string, error: unknown) => void } = {}): Promise<string> {
  const { families, collectors } = registry();
  const lines = [...families.values()].flatMap(renderFamily);
  const up: CollectedMetric = { name: "store_app_collector_up", help: "1 when the scrape-time collector answered, 0 when it failed.", type: "gauge", series: [] };
  for (const [name, collect] of collectors) {
    try {
      lines.push(...(await collect()).flatMap(renderCollected));
      up.series.push({ labels: { collector: name }, value: 1 });
    } catch (error) {
      options.onCollectorError?.(name, error);
      up.series.push({ labels: { collector: name }, value: 0 });
    }
  }
  if (up.series.length > 0) lines.push(...renderCollected(up));
  return lines.join("\n") + "\n";
}

/** For tests: forget every series (the families and collectors stay declared). */
export function resetMetrics(): void {
  for (const metric of registry().families.values()) metric.series.clear();
}
