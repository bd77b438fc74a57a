import { recordSessionOpened, recordSessionsEnded } from "./metrics";

/** A consent opened a session; the browser's previous one, if any, ended as `previousEnded` says. */
export function observeSignIn(previousEnded: string | null): void {
  recordSessionOpened();
  if (previousEnded !== null) recordSessionsEnded(previousEnded);
}

/** Counts what a deletion ended (a boolean for one session, a number for many) and hands the result back. */
export function sessionsEnded<T extends boolean | number>(reason: string, ended: T): T {
  recordSessionsEnded(reason, typeof ended === "number" ? ended : ended ? 1 : 0);
  return ended;
}
