/** What every benchmark returns: lines to print and named figures for the README. */
export type BenchResult = {
  title: string;
  lines: string[];
  figures: Record<string, number>;
  /** Longer text for the docs only (EXPLAIN plans), not printed line by line. */
  details?: string[];
};
