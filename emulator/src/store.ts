import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EmulatorState } from "./model";

export const DEFAULT_DATA_FILE = ".data/emulator/state.json";
const SAVE_DELAY_MS = 200;

/** Reads a saved state; null when there is none or it is not a state this version understands. */
export function loadState(file: string): EmulatorState | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Partial<EmulatorState>;
    if (parsed.version !== 1 || !Array.isArray(parsed.stores) || !Array.isArray(parsed.apps)) return null;
    return parsed as EmulatorState;
  } catch {
    return null;
  }
}

/** Writes to a temporary file and renames it, so a crash mid-write never leaves half a state behind. */
export function writeStateAtomic(file: string, state: EmulatorState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
}

/**
 * A debounced saver: many mutations in one burst become one write. `flush` writes now (on close).
 * `snapshot` is called at write time so the clock's lead over real time is captured then.
 */
export function createSaver(file: string | null, snapshot: () => EmulatorState) {
  let timer: NodeJS.Timeout | null = null;
  const write = () => {
    timer = null;
    if (file) writeStateAtomic(file, snapshot());
  };
  return {
    schedule(): void {
      if (!file || timer) return;
      timer = setTimeout(write, SAVE_DELAY_MS);
      timer.unref();
    },
    flush(): void {
      if (timer) clearTimeout(timer);
      write();
    },
    cancel(): void {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
