/**
 * Reads the Prometheus text format back, for tests: the value of one series (name and exact label set), 0 when the
 * series is absent (a counter that never moved is not printed). Used against renderMetrics() in vitest and against
 * a real server's /api/metrics in the browser suite.
 */

export type SampleLine = { name: string; labels: Record<string, string>; value: number };

export function parseExposition(text: string): SampleLine[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not an exposition line: ${line}`);
      const labels: Record<string, string> = {};
      for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
        labels[pair[1]!] = pair[2]!.replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
      }
      const raw = match[3]!;
      const value = raw === "+Inf" ? Number.POSITIVE_INFINITY : raw === "-Inf" ? Number.NEGATIVE_INFINITY : Number(raw);
      return { name: match[1]!, labels, value };
    });
}

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number {
  return parseExposition(text).find((line) => line.name === name && sameLabels(line.labels, labels))?.value ?? 0;
}
