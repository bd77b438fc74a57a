import type { Queue } from "pg-boss";

/**
 * Every job kind the app runs, with its queue's settings. The queues are created by the migration
 * (lib/jobs/boss.ts migrateJobs: at release, or on the embedded database by the app's job engine before it hands
 * itself to any sender, lib/jobs/app.ts), so a job can be sent inside any transaction from the first request on.
 *
 * `stately`: per singleton key (the store), at most one job runs and at most one waits. A send while one already
 * waits is a no-op (pg-boss answers null), which is what a per-store schedule wants.
 */
export const JOB = {
  backfill: "orders-backfill",
  poll: "orders-poll",
  pollFanOut: "orders-poll-fan-out",
  retention: "data-retention",
  newOrder: "webhook-new-order",
} as const;

export type JobName = (typeof JOB)[keyof typeof JOB];

/**
 * The queues startWorker (lib/jobs/runtime.ts) works: a drain counts and waits for these only. A job in a queue no
 * worker of this app handles (one a developer created by hand, pg-boss's own) would otherwise keep a drain busy
 * and make it hand on, call after call, for ever.
 */
export const WORKED_QUEUES: readonly JobName[] = Object.values(JOB);

/**
 * `notify`: a job sent to the queue wakes the workers at once through PostgreSQL's NOTIFY (pg-boss's LISTEN/NOTIFY,
 * lib/jobs/boss.ts), so their loops need not poll every 2 s to start it promptly: idle, they check every
 * IDLE_POLLING_SECONDS (lib/jobs/runtime.ts) for what no NOTIFY announces (a retry's delay ending, a crashed worker's
 * job given back). Not the webhook follow-up: it is written inside the webhook's own statement
 * (lib/jobs/in-statement.ts), which a notifying insert cannot be, so its loop keeps polling every 2 s.
 */
export const QUEUES: Record<JobName, Omit<Queue, "name">> = {
  // One chunk of pages per job (lib/jobs/backfill.ts), far below the expiry; the heartbeat tells a killed worker's
  // chunk from a slow one within half a minute.
  [JOB.backfill]: {
    policy: "stately",
    retryLimit: 8,
    retryDelay: 10,
    retryBackoff: true,
    retryDelayMax: 600,
    expireInSeconds: 15 * 60,
    heartbeatSeconds: 30,
    notify: true,
  },
  // A poll older than a minute is superseded by the next one: no retries, it only would double up.
  [JOB.poll]: { policy: "stately", retryLimit: 0, expireInSeconds: 10 * 60, heartbeatSeconds: 30, deleteAfterSeconds: 3_600, notify: true },
  [JOB.pollFanOut]: { policy: "singleton", retryLimit: 0, expireInSeconds: 120, deleteAfterSeconds: 3_600, notify: true },
  [JOB.retention]: { policy: "singleton", retryLimit: 3, retryDelay: 300, expireInSeconds: 30 * 60, notify: true },
  [JOB.newOrder]: { policy: "standard", retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 5 * 60 },
};

/** Cron schedules kept by a worker started with `schedule: true` (times in UTC). */
export const SCHEDULES: { name: JobName; cron: string }[] = [
  { name: JOB.pollFanOut, cron: "* * * * *" },
  { name: JOB.retention, cron: "17 3 * * *" },
];
