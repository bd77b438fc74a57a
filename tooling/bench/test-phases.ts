/** The phases of one `npm test` run, read from the summary it prints (scripts/test.ts), for the devloop part. */
export type Phase = { name: string; passed: boolean; seconds: number };

/** The header of `npm test`'s closing summary: after a pass, or after the step that failed. */
const SUMMARY = /^(?:✓ all steps passed in [\d.]+s \(.*\):|✗ .+ failed \(exit \d+\)\. Steps(?: so far)?:)$/gm;
const PHASE = /^ {2}([✓✗]) (.+) \((\d+(?:\.\d+)?)s\)$/;

/**
 * Each phase of the last summary in `output`, in order. Only the summary's own lines count: the browser tests'
 * reporter prints lines of the same shape (`✓ 12 [chromium] › ... (3.2s)`) for every test.
 */
export function parsePhases(output: string): Phase[] {
  const headers = [...output.matchAll(SUMMARY)];
  const last = headers.at(-1);
  if (!last) return [];
  const phases: Phase[] = [];
  for (const line of output.slice(last.index + last[0].length).split("\n").slice(1)) {
    const match = PHASE.exec(line);
    if (!match) break;
    phases.push({ name: match[2]!, passed: match[1] === "✓", seconds: Number(match[3]) });
  }
  return phases;
}
