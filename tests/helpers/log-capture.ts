import { configureLog, setLogSink, type Level, type LogFields } from "@/lib/log";

/**
 * The lines `run` writes at `level` and above, as JSON text and parsed, with the logger put back afterwards
 * whatever happens: for tests of what an operator reads (and of what must never be in it).
 */
export async function captureLogs(level: Level, run: () => Promise<unknown>): Promise<{ lines: string[]; entries: LogFields[] }> {
  const lines: string[] = [];
  const restoreSink = setLogSink((line) => lines.push(line));
  const restoreLevel = configureLog({ level, format: "json" });
  try {
    await run();
  } finally {
    restoreLevel();
    restoreSink();
  }
  return { lines, entries: lines.map((line) => JSON.parse(line) as LogFields) };
}
