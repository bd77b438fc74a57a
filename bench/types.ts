/** What every benchmark returns: lines to print and named figures for the README. */
export type BenchResult = {
  title: string;
  lines: string[];
  figures: Record<string, number>;
};
