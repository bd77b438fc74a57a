/**
 * The emulator's clock: real time scaled by `timeScale` from the moment the emulator started, plus an offset that
 * `advance` moves forward. Rate-limit windows, code and consent expiry, webhook retry waits and the order checker
 * all read this clock, so a test can jump ahead ten minutes without waiting.
 */
export type Clock = {
  now(): Date;
  nowMs(): number;
  advance(seconds: number): void;
  readonly timeScale: number;
  offsetMs(): number;
};

export function createClock(options: { timeScale: number; offsetMs: number; realNow?: () => number }): Clock {
  const realNow = options.realNow ?? Date.now;
  const startedReal = realNow();
  let offset = options.offsetMs;
  const nowMs = () => startedReal + (realNow() - startedReal) * options.timeScale + offset;
  return {
    now: () => new Date(nowMs()),
    nowMs,
    advance(seconds) {
      offset += seconds * 1000;
    },
    timeScale: options.timeScale,
    offsetMs: () => offset,
  };
}
