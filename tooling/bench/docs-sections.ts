/**
 * docs/benchmarks.md holds one section per bench part between its own markers, so a run of some parts refreshes
 * those and keeps the others' last figures (with the date and load they were measured at).
 */
export const FIGURES_END = "<!-- bench:figures-end -->";

export function sectionSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/**
 * The lines of a part's section in docs/benchmarks.md: its summary when it has one, else the lines that judge a target
 * or a budget, else its first two lines. The page holds the latest figures in brief; every line of a run is printed and
 * kept in tooling/bench/results/<part>.md.
 */
export function docLines(result: { lines: string[]; summary?: string[] }): string[] {
  if (result.summary?.length) return result.summary;
  const verdicts = result.lines.filter((line) => /\b(target|budget)\b/.test(line));
  return verdicts.length > 0 ? verdicts : result.lines.slice(0, 2);
}

/** `doc` with the section of `slug` replaced by `body` (markers added here), or added before FIGURES_END. */
export function spliceSection(doc: string, slug: string, body: string): string {
  const start = `<!-- bench:${slug}:start -->`;
  const end = `<!-- bench:${slug}:end -->`;
  const section = `${start}\n${body}\n${end}`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from >= 0 && to > from) return doc.slice(0, from) + section + doc.slice(to + end.length);
  const at = doc.indexOf(FIGURES_END);
  return at >= 0 ? `${doc.slice(0, at)}${section}\n\n${doc.slice(at)}` : `${doc}\n${section}\n`;
}
