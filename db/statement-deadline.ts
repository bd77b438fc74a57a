import { isConnectionFailure, isFailing, type PoolHealth } from "./pool-health";

/**
 * How long a request path waits for the database before it gives up: the webhook receiver's DATABASE_DEADLINE_MS
 * (lib/webhooks/receive.ts; a unit test keeps the two equal), and getDb()'s statement deadline for pages.
 */
export const REQUEST_DEADLINE_MS = 1_500;

/**
 * Statements their callers gave up on that a failing pool may still hold before new ones are refused at once: past
 * this many, a dead server's backlog would only grow (it drains one statement per failed connection attempt).
 */
export const ABANDONED_LIMIT = 100;

/** The database did not answer within the caller's deadline (a dead server, or every connection busy). */
export class DatabaseDeadlineError extends Error {
  constructor(ms: number, reason = `the database did not answer within ${ms} ms`) {
    super(reason);
    this.name = "DatabaseDeadlineError";
  }
}

/** A postgres.js statement as runWithDeadline uses it: it starts (joins the pool's queue) when awaited. */
export type Statement = PromiseLike<unknown>;

/**
 * Runs a postgres.js statement (started by this call), noting what the pool heard and keeping the deadline.
 *
 * The deadline tells a failing database from a busy one. At `deadlineMs`, if the last thing this pool heard from
 * the server was a connection failure (refused, reset, cut by a shutdown, connect timeout), the caller gets a
 * DatabaseDeadlineError at once. Otherwise the database is only slow (a pool opening its connections on a loaded
 * machine) and the statement gets until `4 × deadlineMs`.
 *
 * A statement its caller gave up on is abandoned, not withdrawn. postgres.js (3.4.9, the newest) cannot withdraw a
 * statement that is opening a connection: the statement that makes the pool open one travels with it, and once it
 * is cancelled the opened connection skips it and is never handed back to the pool, so every later statement waits
 * forever (porsager/postgres, open upstream). From outside the driver such a statement cannot be told from one
 * waiting in the pool's queue, so neither is cancelled: the driver keeps it until it fails with its connection (each
 * failed attempt on a dead server fails one) or runs on one, and its answer goes nowhere. Callers retry or show
 * "unavailable", so a late run is harmless (a webhook's write commits once; its redelivery is a duplicate). So that
 * a long outage's backlog cannot grow without end, a failing pool already holding ABANDONED_LIMIT abandoned
 * statements gets no new one: the caller is refused at once. tests/integration/database-outage.test.ts proves a
 * connection outlives a statement given up while it opened, on the real driver and server.
 */
export function runWithDeadline<T>(statement: Statement, state: PoolHealth, deadlineMs: number | undefined): Promise<T> {
  if (deadlineMs && isFailing(state) && state.abandoned >= ABANDONED_LIMIT) {
    return Promise.reject(new DatabaseDeadlineError(0, `the database is unreachable and ${state.abandoned} statements already wait for it`));
  }
  let abandoned = false;
  const tracked = Promise.resolve(statement).then(
    (rows) => {
      state.answeredAt = performance.now();
      return rows as T;
    },
    (error: unknown) => {
      if (isConnectionFailure(error)) state.failedAt = performance.now();
      else state.answeredAt = performance.now();
      throw error;
    },
  );
  if (!deadlineMs) return tracked;
  let timer: ReturnType<typeof setInterval> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const startedAt = performance.now();
    // Checked every 100 ms past the deadline: a connect that times out meanwhile turns "slow" into "failing".
    timer = setInterval(() => {
      const waited = performance.now() - startedAt;
      if (waited < deadlineMs) return;
      if (!isFailing(state) && waited < deadlineMs * 4) return;
      clearInterval(timer);
      abandoned = true;
      state.abandoned += 1;
      reject(new DatabaseDeadlineError(Math.round(waited)));
    }, 100);
  });
  // Settled either way once the driver is done with it: an abandoned statement leaves the count then.
  void tracked.then(
    () => abandoned && (state.abandoned -= 1),
    () => abandoned && (state.abandoned -= 1),
  );
  return Promise.race([tracked, deadline]).finally(() => clearInterval(timer));
}
