import { spawnGroup } from "./process-group";

export type Step = {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Work before the command (its databases, say): what it returns is added to the command's environment. */
  prepare?: () => Promise<{ env?: Record<string, string>; cleanup?: () => Promise<void> }>;
};

/** `lastLines`: the end of a failed step's output, to repeat beside the summary (the step's block may be far above). */
export type StepResult = { name: string; code: number; seconds: number; lastLines?: string };

const LAST_LINES = 40;
const KEPT_BYTES = 16_384;

/** The last `LAST_LINES` lines of what a step printed, from the bytes kept of its end. */
function lastLinesOf(kept: Buffer[]): string {
  const lines = Buffer.concat(kept).toString("utf8").trimEnd().split("\n");
  return lines.slice(-LAST_LINES).join("\n");
}

type Running = { name: string; chunks: Buffer[]; done: boolean; headerShown: boolean };

/**
 * One terminal for steps that run at once: one step prints live, the others' output is held. A held step that ends
 * prints its output whole at that moment; when the live one ends, the next held step still running prints what it
 * has so far and goes on live. So every line is printed once, in one block per step; a held step that prints
 * nothing (a passing lint) shows no block at all, its time being in the closing summary.
 */
export class Screen {
  private live: Running | null = null;
  private readonly waiting: Running[] = [];

  constructor(private readonly out: { write(chunk: string | Buffer): unknown }) {}

  start(name: string): Running {
    const running: Running = { name, chunks: [], done: false, headerShown: false };
    if (this.live) {
      this.waiting.push(running);
    } else {
      this.live = running;
      this.header(running, "");
    }
    return running;
  }

  write(running: Running, chunk: Buffer): void {
    if (running !== this.live) {
      running.chunks.push(chunk);
      return;
    }
    this.header(running, " (its output so far, then as it comes)");
    this.out.write(chunk);
  }

  end(running: Running): void {
    running.done = true;
    if (running === this.live) {
      this.live = null;
      const next = this.waiting.shift();
      if (next) {
        this.live = next;
        // Its header waits for its first line: a step that has printed nothing yet may print nothing at all.
        if (next.chunks.length > 0) this.header(next, " (its output so far, then as it comes)");
        this.flush(next);
      }
      return;
    }
    this.waiting.splice(this.waiting.indexOf(running), 1);
    if (running.chunks.length > 0) this.header(running, ": its output");
    this.flush(running);
  }

  private header(running: Running, note: string): void {
    if (running.headerShown) return;
    running.headerShown = true;
    this.out.write(`\n━━ ${running.name}${note} ━━\n`);
  }

  private flush(running: Running): void {
    if (running.chunks.length > 0) this.out.write(Buffer.concat(running.chunks));
    running.chunks = [];
  }
}

async function runStep(step: Step, screen: Screen): Promise<StepResult> {
  const started = Date.now();
  const running = screen.start(step.name);
  let code: number;
  const prepared = step.prepare ? await step.prepare() : {};
  const kept: Buffer[] = [];
  let keptBytes = 0;
  const keep = (chunk: Buffer) => {
    kept.push(chunk);
    keptBytes += chunk.length;
    while (kept.length > 1 && keptBytes - kept[0]!.length >= KEPT_BYTES) keptBytes -= kept.shift()!.length;
  };
  try {
    // stdin stays with us: a step in its own process group must not read the terminal.
    const { child, exited } = spawnGroup(step.command, step.args, {
      stdio: ["ignore", "pipe", "pipe"],
      // Piped, not a terminal: keep the colours a terminal would have had.
      env: { ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}), ...process.env, ...step.env, ...prepared.env },
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on("data", (chunk: Buffer) => {
        keep(chunk);
        screen.write(running, chunk);
      });
    }
    code = await exited;
  } finally {
    await prepared.cleanup?.();
    screen.end(running);
  }
  const seconds = (Date.now() - started) / 1000;
  return code === 0 ? { name: step.name, code, seconds } : { name: step.name, code, seconds, lastLines: lastLinesOf(kept) };
}

/**
 * Lanes run at once; a lane's steps run one after another and the lane stops at its first failure (a build that
 * failed has nothing for the browser tests). The results come back in the order the steps are listed, lane by lane.
 */
export async function runLanes(lanes: Step[][], screen: Screen): Promise<StepResult[]> {
  const perLane = await Promise.all(
    lanes.map(async (lane) => {
      const results: StepResult[] = [];
      for (const step of lane) {
        const result = await runStep(step, screen);
        results.push(result);
        if (result.code !== 0) break;
      }
      return results;
    }),
  );
  return perLane.flat();
}
