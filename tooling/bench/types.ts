/** What every benchmark returns: lines to print and named figures for the README. */
export type BenchResult = {
  title: string;
  lines: string[];
  figures: Record<string, number>;
  /** Longer text (EXPLAIN plans), kept in tooling/bench/results/, not printed line by line. */
  details?: string[];
  /** The latest figures in brief, for docs/benchmarks.md; else the lines that give a verdict on a target. */
  summary?: string[];
};
