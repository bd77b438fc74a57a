/**
 * Polling at scale: N stores on the emulator, each with the app installed, polled once a minute by the job engine
 * as a Node host runs it: 2 worker processes (`npm run worker`, real child processes, each keeping the schedules)
 * on a scratch database on the machine's PostgreSQL, the emulator answering every API call after 300 ms.
 *
 * Everything is measured from outside the app. The emulator records every /v1 call with its store, start and end:
 * which stores were polled in each clock minute, how late in the minute, whether two calls of one store overlapped
 * (two pollers at once), and the 429s it answered. The database's CPU is the CPU time of the scratch database's
 * backends (/proc/<pid>/stat, sampled every few seconds); the workers' is theirs; the machine's load beside them.
 *
 * `npm run bench -- polling` runs 1,000 then 10,000 stores. `--polling-minutes=5` sets the minutes measured for
 * 1,000 stores, `--polling-large-minutes=N` for 10,000 (default 3: see docs/benchmarks.md), `--polling-stores=1000`
 * only the sizes listed. `npm run bench -- wave` (`--polling-wave=1000`) instead installs that many stores in one
 * wave while the workers poll (runPollingWave): each store's order import then runs beside everyone's polls.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { openDatabase } from "@/db/client";
import { startEmulator } from "@/emulator/src/index";
import type { ApiCall } from "@/emulator/src/runtime";
import { overlappingCalls } from "@/emulator/src/scale";
import { keyRing } from "@/lib/crypto/token-cipher";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { enqueueBackfills } from "@/lib/jobs/backfill";
import { JOB_SCHEMA, startBoss } from "@/lib/jobs/boss";
import { benchDatabase, percentile, productionEnv } from "./support";
import type { BenchResult } from "./types";
import { migrateDatabase } from "@/lib/database/migrate";

const WORKERS = 2;
const LATENCY_MS = 300;
const ORDERS_PER_STORE = 3;
const SAMPLE_MS = 5_000;
const WARM_UP_LIMIT_MS = 5 * 60_000;
// A fresh key a run: production refuses the template's public development key.
const TOKEN_KEY = randomBytes(32).toString("base64");
const CLOCK_TICKS = 100;

function flag(name: string): string | undefined {
  return process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
}

export type PollingRun = {
  stores: number;
  minutes: number;
  /** Per measured minute: stores polled in it, first and last poll start (s after the minute began). */
  perMinute: { polled: number; firstS: number; lastS: number }[];
  everyMinute: number;
  lagP50S: number;
  lagP95S: number;
  gapP95S: number;
  gapMaxS: number;
  overlaps: number;
  rateLimited: number;
  otherErrors: number;
  calls: number;
  dbCpuS: number;
  dbCpuPct: number;
  serverPostgresCpuPct: number;
  workerCpuPct: number[];
  /** The bench's own process: the emulator answering every call, and the sampling. */
  emulatorCpuPct: number;
  loadAvg: number;
  machineBusyPct: number;
  /** Where the database's time goes: the scratch database's active statements, sampled, by kind and table. */
  activeStatements: { label: string; share: number }[];
  setupS: number;
  /** From the workers' start until every store had its first poll (or the limit). */
  warmUpS: number;
  warmedUp: boolean;
  workerWarnings: string[];
};

/** utime + stime of a process, in seconds; null once it is gone. */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Every postgres process on the machine (the server is shared: other databases' work is in this too). */
function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") pids.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return pids;
}

function busyAndTotal(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const { user, nice, sys, idle, irq } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + idle + irq;
  }
  return { busy, total };
}

/** CPU seconds of a set of processes over a window: each one's last reading minus its reading at the start. */
class CpuMeter {
  private readonly start = new Map<number, number>();
  private readonly last = new Map<number, number>();
  constructor(private readonly pids: () => Promise<number[]> | number[]) {}
  async begin(): Promise<void> {
    for (const pid of await this.pids()) {
      const seconds = cpuSeconds(pid);
      if (seconds !== null) this.start.set(pid, seconds);
    }
    await this.sample();
  }
  async sample(): Promise<void> {
    for (const pid of await this.pids()) {
      const seconds = cpuSeconds(pid);
      if (seconds !== null) this.last.set(pid, seconds);
    }
  }
  total(): number {
    let sum = 0;
    for (const [pid, seconds] of this.last) sum += seconds - (this.start.get(pid) ?? 0);
    return sum;
  }
}

function startWorkerProcess(env: NodeJS.ProcessEnv, warnings: string[]): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", path.join("scripts", "worker.ts")], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.trim() && warnings.length < 20) warnings.push(line.slice(0, 300));
    }
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return child;
}

function stopWorkerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 12_000).unref();
  });
}

/** A statement's kind and first table, e.g. `select installs` or `with pgboss.job`: enough to tell what it is. */
export function statementLabel(query: string): string {
  const text = query.replace(/\s+/g, " ").trim();
  const verb = (/^\w+/.exec(text)?.[0] ?? "?").toLowerCase();
  const table = /\b(?:from|into|update)\s+"?([\w.]+)"?(?:\."?(\w+)"?)?/i.exec(text);
  return `${verb} ${table ? [table[1], table[2]].filter(Boolean).join(".") : "?"}`;
}

/** Samples the scratch database's active statements every 200 ms until stopped (a poor man's profile). */
function sampleActiveStatements(admin: postgres.Sql, database: string, ownPid: number) {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const rows = await admin<{ query: string }[]>`
        select query from pg_stat_activity where datname = ${database} and pid <> ${ownPid} and state = 'active'`;
      for (const row of rows) counts.set(statementLabel(row.query), (counts.get(statementLabel(row.query)) ?? 0) + 1);
      samples += rows.length;
      await sleep(200);
    }
  })();
  return {
    async stop(): Promise<{ label: string; share: number }[]> {
      running = false;
      await done;
      return [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([label, count]) => ({ label, share: (100 * count) / Math.max(1, samples) }));
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runPolling(stores: number, minutes: number): Promise<PollingRun> {
  const setupStarted = Date.now();
  const scratch = await benchDatabase("bench_polling");
  const database = await openDatabase({ url: scratch.url });
  const emulator = await startEmulator({ port: 0, appUrl: "http://localhost:3999", dataFile: null, autoTick: false, quiet: true });
  const admin = postgres(scratch.url, { max: 1, onnotice: () => {} });
  const workers: ChildProcess[] = [];
  const workerWarnings: string[] = [];
  try {
    await migrateDatabase(database);
    const minted = emulator.control.mintStores({ count: stores, ordersPerStore: ORDERS_PER_STORE });
    // Installs queue webhook deliveries nobody sends here; they only cost memory.
    emulator.ctx.state.deliveries.length = 0;
    const ring = keyRing(TOKEN_KEY);
    for (let start = 0; start < minted.length; start += 500) {
      await saveInstalledStores(database.db, { scopes: ["orders:read"], stores: minted.slice(start, start + 500) }, { ring });
    }
    emulator.control.setApiSettings({ latencyMs: LATENCY_MS, recordCalls: true });

    const platformUrl = `http://127.0.0.1:${emulator.port}`;
    const env: NodeJS.ProcessEnv = {
      ...productionEnv(scratch.url, 0),
      SVC_AUTH_URL: platformUrl,
      SVC_API_URL: platformUrl,
      TOKEN_ENCRYPTION_KEY: TOKEN_KEY,
      JOBS_WORKER: "off",
      LOG_LEVEL: "warn",
    };
    for (let i = 0; i < WORKERS; i++) workers.push(startWorkerProcess(env, workerWarnings));

    // Each store's first poll imports its orders (rows, items, history), which later polls only re-read: the
    // measured window starts on the first clock minute (the schedule's) after every store was polled once, and at
    // least 20 s after the workers started. Past WARM_UP_LIMIT_MS it starts anyway, and says so.
    const workersStarted = Date.now();
    const firstPolled = () => new Set(emulator.control.apiCalls().filter((call) => call.status === 200).map((call) => call.storeId)).size;
    while (Date.now() - workersStarted < WARM_UP_LIMIT_MS && (Date.now() - workersStarted < 20_000 || firstPolled() < stores)) {
      const exited = workers.find((worker) => worker.exitCode !== null);
      if (exited) throw new Error(`a worker exited with ${exited.exitCode}: ${workerWarnings.slice(-3).join(" | ")}`);
      await sleep(1_000);
    }
    const warmUpS = (Date.now() - workersStarted) / 1000;
    const warmedUp = firstPolled() >= stores;
    const windowStart = Math.ceil((Date.now() + 1_000) / 60_000) * 60_000;
    const windowEnd = windowStart + minutes * 60_000;
    const setupS = (windowStart - setupStarted) / 1000;
    while (Date.now() < windowStart) await sleep(Math.min(1_000, windowStart - Date.now()));

    const ownPid = (await admin<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]?.pid ?? 0;
    const database_ = new URL(scratch.url).pathname.slice(1);
    const dbMeter = new CpuMeter(async () =>
      (await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${database_} and pid <> ${ownPid}`).map((row) => row.pid),
    );
    const serverMeter = new CpuMeter(postgresPids);
    const workerMeters = workers.map((worker) => new CpuMeter(() => [worker.pid!]));
    const machineBefore = busyAndTotal();
    const benchBefore = process.cpuUsage();
    await Promise.all([dbMeter.begin(), serverMeter.begin(), ...workerMeters.map((meter) => meter.begin())]);
    const profile = sampleActiveStatements(admin, database_, ownPid);
    const loads: number[] = [];
    while (Date.now() < windowEnd) {
      await sleep(Math.min(SAMPLE_MS, windowEnd - Date.now()));
      loads.push(os.loadavg()[0]!);
      await Promise.all([dbMeter.sample(), serverMeter.sample(), ...workerMeters.map((meter) => meter.sample())]);
      const exited = workers.find((worker) => worker.exitCode !== null);
      if (exited) throw new Error(`a worker exited with ${exited.exitCode}: ${workerWarnings.slice(-3).join(" | ")}`);
    }
    const machineAfter = busyAndTotal();
    const benchCpu = process.cpuUsage(benchBefore);
    const activeStatements = await profile.stop();
    const windowS = (windowEnd - windowStart) / 1000;
    // Calls that began in the window, once they have ended (a poll takes well under 10 s).
    await sleep(3_000);
    const calls = emulator.control.apiCalls().filter((call) => call.startedAt >= windowStart - 60_000);
    return {
      ...summarize(calls, minted.map((store) => store.storeId), windowStart, minutes),
      dbCpuS: dbMeter.total(),
      dbCpuPct: (100 * dbMeter.total()) / windowS,
      serverPostgresCpuPct: (100 * serverMeter.total()) / windowS,
      workerCpuPct: workerMeters.map((meter) => (100 * meter.total()) / windowS),
      emulatorCpuPct: (100 * (benchCpu.user + benchCpu.system)) / 1e6 / windowS,
      loadAvg: loads.reduce((sum, value) => sum + value, 0) / Math.max(1, loads.length),
      machineBusyPct: (100 * (machineAfter.busy - machineBefore.busy)) / Math.max(1, machineAfter.total - machineBefore.total),
      setupS,
      warmUpS,
      warmedUp,
      workerWarnings,
      activeStatements,
    };
  } finally {
    await Promise.all(workers.map(stopWorkerProcess));
    await admin.end({ timeout: 5 });
    await emulator.close();
    await database.close();
    await scratch.drop();
  }
}

/** What the calls of the measured minutes say, as the platform saw them. */
export function summarize(calls: readonly ApiCall[], storeIds: readonly number[], windowStart: number, minutes: number) {
  const known = new Set(storeIds);
  const polls = calls.filter((call) => call.storeId !== null && known.has(call.storeId) && call.path === "/v1/orders");
  const windowEnd = windowStart + minutes * 60_000;
  const perMinute: { polled: number; firstS: number; lastS: number }[] = [];
  const lags: number[] = [];
  let everyMinute = 0;
  const minutesPolled = new Map<number, Set<number>>();
  for (let minute = 0; minute < minutes; minute++) {
    const from = windowStart + minute * 60_000;
    const firstOfStore = new Map<number, number>();
    for (const call of polls) {
      if (call.startedAt < from || call.startedAt >= from + 60_000) continue;
      const seen = firstOfStore.get(call.storeId!);
      if (seen === undefined || call.startedAt < seen) firstOfStore.set(call.storeId!, call.startedAt);
    }
    const starts = [...firstOfStore.values()];
    for (const start of starts) lags.push((start - from) / 1000);
    for (const storeId of firstOfStore.keys()) {
      const set = minutesPolled.get(storeId) ?? new Set<number>();
      set.add(minute);
      minutesPolled.set(storeId, set);
    }
    perMinute.push({
      polled: firstOfStore.size,
      firstS: starts.length ? (Math.min(...starts) - from) / 1000 : Number.NaN,
      lastS: starts.length ? (Math.max(...starts) - from) / 1000 : Number.NaN,
    });
  }
  for (const storeId of storeIds) if ((minutesPolled.get(storeId)?.size ?? 0) === minutes) everyMinute++;

  // The gap between one poll of a store and its next, within the window: 60 s when every minute's poll is on time.
  const gaps: number[] = [];
  const byStore = new Map<number, number[]>();
  for (const call of polls) {
    if (call.startedAt < windowStart || call.startedAt >= windowEnd) continue;
    const list = byStore.get(call.storeId!) ?? [];
    list.push(call.startedAt);
    byStore.set(call.storeId!, list);
  }
  for (const list of byStore.values()) {
    list.sort((a, b) => a - b);
    // Pages of one poll follow each other within seconds; a new poll starts at least 10 s after the last page.
    for (let i = 1; i < list.length; i++) if (list[i]! - list[i - 1]! > 10_000) gaps.push((list[i]! - list[i - 1]!) / 1000);
  }
  lags.sort((a, b) => a - b);
  gaps.sort((a, b) => a - b);
  const inWindow = calls.filter((call) => call.startedAt >= windowStart && call.startedAt < windowEnd);
  return {
    stores: storeIds.length,
    minutes,
    perMinute,
    everyMinute,
    lagP50S: percentile(lags, 50),
    lagP95S: percentile(lags, 95),
    gapP95S: percentile(gaps, 95),
    gapMaxS: gaps.length ? gaps[gaps.length - 1]! : Number.NaN,
    overlaps: overlappingCalls(inWindow).length,
    rateLimited: inWindow.filter((call) => call.status === 429).length,
    otherErrors: inWindow.filter((call) => call.status >= 400 && call.status !== 429).length,
    calls: inWindow.length,
  };
}

const dbMsPerPoll = (run: PollingRun) => (run.calls ? ((1000 * run.dbCpuS) / run.calls).toFixed(1) : "–");
const n = (value: number) => value.toLocaleString("en-US");
const s = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} s` : "–");

function describeRun(run: PollingRun): string {
  const minutesLine = run.perMinute
    .map((minute, index) => `min ${index + 1}: ${((100 * minute.polled) / run.stores).toFixed(1)}% (polls from +${s(minute.firstS)} to +${s(minute.lastS)})`)
    .join("; ");
  return [
    `${n(run.stores)} stores, ${run.minutes} min (after every store's first poll${run.warmedUp ? "" : " had not ended"} in ${s(run.warmUpS)}): stores polled in every minute ${n(run.everyMinute)} of ${n(run.stores)} (${((100 * run.everyMinute) / run.stores).toFixed(1)}%);`,
    `${minutesLine};`,
    `poll lag from the minute's start p50 ${s(run.lagP50S)}, p95 ${s(run.lagP95S)}; gap between a store's polls p95 ${s(run.gapP95S)}, max ${s(run.gapMaxS)};`,
    `stores polled by two workers at once ${run.overlaps}; 429s ${run.rateLimited}; other errors ${run.otherErrors}; ${n(run.calls)} calls;`,
    `database CPU ${run.dbCpuS.toFixed(1)} s (${run.dbCpuPct.toFixed(1)}% of one core, ${dbMsPerPoll(run)} ms a call; every postgres process on the shared server ${run.serverPostgresCpuPct.toFixed(1)}%);`,
    `workers' CPU ${run.workerCpuPct.map((pct) => `${pct.toFixed(1)}%`).join(" + ")} of one core; the emulator's (the bench's process) ${run.emulatorCpuPct.toFixed(1)}%; machine load average ${run.loadAvg.toFixed(1)} over the run, CPUs ${run.machineBusyPct.toFixed(0)}% busy.`,
  ].join(" ");
}

function table(runs: PollingRun[]): string[] {
  const header = `| | ${runs.map((run) => `${n(run.stores)} stores`).join(" | ")} |`;
  const rule = `|---|${runs.map(() => "---").join("|")}|`;
  const row = (label: string, value: (run: PollingRun) => string) => `| ${label} | ${runs.map(value).join(" | ")} |`;
  return [
    header,
    rule,
    row("first poll of every store (before the window)", (run) => `${run.warmedUp ? "" : "not all within "}${s(run.warmUpS)}`),
    row("minutes measured", (run) => String(run.minutes)),
    row("stores polled in every minute", (run) => `${n(run.everyMinute)} (${((100 * run.everyMinute) / run.stores).toFixed(1)}%)`),
    row("share polled, minute by minute", (run) => run.perMinute.map((minute) => `${((100 * minute.polled) / run.stores).toFixed(1)}%`).join(", ")),
    row("poll lag from the minute's start, p50 / p95", (run) => `${s(run.lagP50S)} / ${s(run.lagP95S)}`),
    row("last poll of each minute began at", (run) => run.perMinute.map((minute) => `+${s(minute.lastS)}`).join(", ")),
    row("gap between a store's polls, p95 / max", (run) => `${s(run.gapP95S)} / ${s(run.gapMaxS)}`),
    row("stores polled by two workers at once", (run) => String(run.overlaps)),
    row("429 responses", (run) => String(run.rateLimited)),
    row("other error responses", (run) => String(run.otherErrors)),
    row("API calls", (run) => n(run.calls)),
    row("database CPU (scratch database's backends)", (run) => `${run.dbCpuS.toFixed(1)} s, ${run.dbCpuPct.toFixed(1)}% of a core`),
    row("every postgres process (shared server)", (run) => `${run.serverPostgresCpuPct.toFixed(1)}% of a core`),
    row("database CPU per API call", (run) => `${dbMsPerPoll(run)} ms`),
    row("worker processes' CPU", (run) => run.workerCpuPct.map((pct) => `${pct.toFixed(1)}%`).join(" + ")),
    row("emulator's CPU (the bench's process)", (run) => `${run.emulatorCpuPct.toFixed(1)}%`),
    row("database's active statements, sampled (share of samples)", (run) =>
      run.activeStatements.map((statement) => `${statement.label} ${statement.share.toFixed(0)}%`).join(", "),
    ),
    row("machine load average (1 min) during the run", (run) => `${run.loadAvg.toFixed(1)} on ${os.cpus().length} cores, ${run.machineBusyPct.toFixed(0)}% busy`),
  ];
}

/** The platform's token endpoint allows 60 calls per 5 minutes; one consent installs up to 10 stores. */
const WAVE_STORES_PER_CONSENT = 10;
const WAVE_CONSENT_INTERVAL_MS = 5_000;
/** Orders each store of the wave has to import: three pages of 50. */
const WAVE_ORDERS_PER_STORE = 120;

export type WaveRun = {
  stores: number;
  waveS: number;
  /**
   * Per clock minute from the wave's first: stores installed before it; how many of them the platform saw listed
   * (a GET /v1/orders of the store began in it: a poll or an import, what keeps the store's orders current); how many
   * had a poll job start in it, and how many of those polls skipped the platform (their import not started yet).
   */
  perMinute: { installed: number; listed: number; pollJobs: number; pollsSkipped: number; importsDone: number }[];
  minutesAfter: number;
  loadAvg: number;
  importsDone: number;
};

/**
 * An install wave: `stores` stores installed at the platform's token pace (10 stores a consent, a consent every 5 s:
 * 1,000 stores in about 8 minutes) while 2 worker processes poll every installed store once a minute, each install
 * sending its store's import as the callback does. A store counts as polled in a minute when the platform saw a
 * GET /v1/orders of it begin in that minute, by a poll or by its import: a poll job that started but skipped the
 * platform (its store's import not begun) kept nothing current, and counting jobs hid exactly that. Measured until
 * `minutesAfter` whole minutes after the wave's last install.
 */
export async function runPollingWave(stores: number, minutesAfter: number): Promise<WaveRun> {
  const scratch = await benchDatabase("bench_polling_wave");
  const database = await openDatabase({ url: scratch.url });
  const emulator = await startEmulator({ port: 0, appUrl: "http://localhost:3999", dataFile: null, autoTick: false, quiet: true });
  const admin = postgres(scratch.url, { max: 1, onnotice: () => {} });
  const workers: ChildProcess[] = [];
  const workerWarnings: string[] = [];
  const sender = await (async () => {
    await migrateDatabase(database);
    return startBoss(database);
  })();
  try {
    const minted = emulator.control.mintStores({ count: stores, ordersPerStore: WAVE_ORDERS_PER_STORE });
    emulator.ctx.state.deliveries.length = 0;
    emulator.control.setApiSettings({ latencyMs: LATENCY_MS, recordCalls: true });
    const ring = keyRing(TOKEN_KEY);
    const platformUrl = `http://127.0.0.1:${emulator.port}`;
    const env: NodeJS.ProcessEnv = {
      ...productionEnv(scratch.url, 0),
      SVC_AUTH_URL: platformUrl,
      SVC_API_URL: platformUrl,
      TOKEN_ENCRYPTION_KEY: TOKEN_KEY,
      JOBS_WORKER: "off",
      LOG_LEVEL: "warn",
    };
    for (let i = 0; i < WORKERS; i++) workers.push(startWorkerProcess(env, workerWarnings));
    // The wave starts on a clock minute, once the workers run.
    const waveStart = Math.ceil((Date.now() + 15_000) / 60_000) * 60_000;
    while (Date.now() < waveStart) await sleep(Math.min(1_000, waveStart - Date.now()));
    const installedAt = new Map<number, number>();
    const loads: number[] = [];
    for (let start = 0; start < minted.length; start += WAVE_STORES_PER_CONSENT) {
      const due = waveStart + (start / WAVE_STORES_PER_CONSENT) * WAVE_CONSENT_INTERVAL_MS;
      while (Date.now() < due) await sleep(Math.min(1_000, due - Date.now()));
      const consent = minted.slice(start, start + WAVE_STORES_PER_CONSENT);
      await database.db.transaction(async (tx) => {
        const saved = await saveInstalledStores(tx, { scopes: ["orders:read"], stores: consent }, { ring });
        await enqueueBackfills(sender, tx, saved.map((row) => row.storeId));
      });
      for (const store of consent) installedAt.set(store.storeId, Date.now());
      if (start % 100 === 0) loads.push(os.loadavg()[0]!);
      const exited = workers.find((worker) => worker.exitCode !== null);
      if (exited) throw new Error(`a worker exited with ${exited.exitCode}: ${workerWarnings.slice(-3).join(" | ")}`);
    }
    const waveEnd = Date.now();
    const measureEnd = (Math.floor(waveEnd / 60_000) + 1 + minutesAfter) * 60_000;
    while (Date.now() < measureEnd + 3_000) {
      await sleep(5_000);
      loads.push(os.loadavg()[0]!);
    }
    const polls = await admin<{ key: string; started: Date; skipped: boolean }[]>`
      select singleton_key as key, started_on as started, coalesce(output->>'outcome' = 'skipped', false) as skipped
        from ${admin(JOB_SCHEMA)}.job where name = 'orders-poll' and started_on is not null`;
    const lists = emulator.control.apiCalls().filter((call) => call.path === "/v1/orders" && call.status === 200 && call.storeId !== null);
    const imports = await admin<{ store: number; finished: Date }[]>`
      select store_id as store, finished_at as finished from order_backfills where status = 'done'`;
    const perMinute: WaveRun["perMinute"] = [];
    for (let from = waveStart; from < measureEnd; from += 60_000) {
      // Stores installed before the minute's fan-out: their poll is due in it.
      const due = new Set([...installedAt].filter(([, at]) => at < from).map(([storeId]) => storeId));
      const inMinute = (at: number) => at >= from && at < from + 60_000;
      const pollsInMinute = polls.filter((row) => inMinute(row.started.getTime()) && due.has(Number(row.key)));
      const listed = new Set(lists.filter((call) => inMinute(call.startedAt)).map((call) => call.storeId));
      perMinute.push({
        installed: due.size,
        listed: [...due].filter((storeId) => listed.has(storeId)).length,
        pollJobs: new Set(pollsInMinute.map((row) => row.key)).size,
        pollsSkipped: pollsInMinute.filter((row) => row.skipped).length,
        importsDone: imports.filter((row) => row.finished.getTime() < from + 60_000).length,
      });
    }
    return {
      stores,
      waveS: (waveEnd - waveStart) / 1000,
      perMinute,
      minutesAfter,
      loadAvg: loads.reduce((sum, value) => sum + value, 0) / Math.max(1, loads.length),
      importsDone: imports.length,
    };
  } finally {
    await Promise.all(workers.map(stopWorkerProcess));
    await sender.stop({ graceful: false, close: true });
    await admin.end({ timeout: 5 });
    await emulator.close();
    await database.close();
    await scratch.drop();
  }
}

const pct = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;

function describeWave(run: WaveRun): string {
  const minutes = run.perMinute
    .map((minute, index) =>
      minute.installed
        ? `min ${index + 1}: ${pct(minute.listed, minute.installed)} of ${n(minute.installed)} listed (poll jobs ${n(minute.pollJobs)}, ${n(minute.pollsSkipped)} skipped as importing; imports done ${n(minute.importsDone)})`
        : `min ${index + 1}: none installed yet`,
    )
    .join("; ");
  return `${n(run.stores)} stores installed in one wave over ${s(run.waveS)} (10 a consent, a consent every 5 s), each with ${WAVE_ORDERS_PER_STORE} orders to import; share of the stores installed before each minute whose orders the platform saw listed in it: ${minutes}; imports done ${n(run.importsDone)} of ${n(run.stores)}; machine load average ${run.loadAvg.toFixed(1)} on ${os.cpus().length} cores.`;
}

/** `npm run bench -- polling-wave`: an install wave of `--polling-wave=N` stores (1,000) while two workers poll. */
export async function benchPollingWave(): Promise<BenchResult> {
  const wave = Number(flag("polling-wave") ?? 1_000);
  const run = await runPollingWave(wave, Number(flag("polling-wave-minutes") ?? 3));
  console.log(`  ${describeWave(run)}`);
  const after = run.perMinute.slice(-run.minutesAfter);
  const worst = Math.min(...run.perMinute.filter((minute) => minute.installed > 0).map((minute) => (100 * minute.listed) / minute.installed));
  return {
    title: "polling at scale during an install wave (jobs)",
    lines: [
      `${WORKERS} worker processes (npm run worker, each keeping the schedules) on a scratch database on the machine's PostgreSQL; the emulator answers every API call after ${LATENCY_MS} ms.`,
      describeWave(run),
      `Target: at least 99% of the installed stores polled in every minute, during the wave and after it (worst minute here ${worst.toFixed(1)}%; the ${after.length} minutes after the wave: ${after.map((minute) => pct(minute.listed, minute.installed)).join(", ")}; imports finished ${n(run.importsDone)} of ${n(run.stores)}).`,
    ],
    summary: [
      `${n(run.stores)} stores installed over ${s(run.waveS)}, 2 workers, ${LATENCY_MS} ms a call: the platform saw ${run.perMinute
        .filter((minute) => minute.installed > 0)
        .map((minute) => pct(minute.listed, minute.installed))
        .join(", ")} of the installed stores listed, minute by minute (target ≥ 99% in each: ${worst >= 99 ? "met" : "NOT met"})`,
      `imports finished: ${n(run.importsDone)} of ${n(run.stores)} by the end`,
    ],
    details: [],
    figures: { waveStores: run.stores, waveWorstMinutePct: Number(worst.toFixed(1)), waveImportsDone: run.importsDone },
  };
}

export async function benchPollingScale(): Promise<BenchResult> {
  const sizes = (flag("polling-stores") ?? "1000,10000").split(",").map(Number).filter((value) => value > 0);
  const minutes = Number(flag("polling-minutes") ?? 5);
  const largeMinutes = Number(flag("polling-large-minutes") ?? 3);
  const runs: PollingRun[] = [];
  for (const stores of sizes) {
    const run = await runPolling(stores, stores > 1_000 ? largeMinutes : minutes);
    console.log(`  ${describeRun(run)}`);
    if (run.workerWarnings.length) console.log(`  worker output (first lines): ${run.workerWarnings.slice(0, 5).join(" | ")}`);
    runs.push(run);
  }
  const base = runs[0];
  return {
    title: "polling at scale (jobs)",
    lines: [
      `${WORKERS} worker processes (npm run worker, each keeping the schedules) on a scratch database on the machine's PostgreSQL; the emulator answers every API call after ${LATENCY_MS} ms; each store has ${ORDERS_PER_STORE} orders and the app installed; no new orders arrive during the run.`,
      "Measured from the platform's side: the emulator records every call with its store, start and end. A store counts as polled in a clock minute when one of its calls began in it; two calls of one store that overlap in time count as two workers at once.",
      ...runs.map(describeRun),
      "Targets (1,000 stores, 5 minutes): every store polled in every minute; no store polled by two workers at once; 0 × 429.",
    ],
    details: table(runs),
    figures: {
      pollingStores: base?.stores ?? 0,
      pollingEveryMinutePct: base ? Number(((100 * base.everyMinute) / base.stores).toFixed(1)) : 0,
      pollingLagP95S: base ? Number(base.lagP95S.toFixed(1)) : 0,
      pollingOverlaps: base?.overlaps ?? 0,
      polling429s: base?.rateLimited ?? 0,
    },
  };
}
