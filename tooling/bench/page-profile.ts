/**
 * `npx tsx --conditions=react-server tooling/bench/page-profile.ts [path…]`, once `npm run bench` has built both
 * apps: where each page's main thread goes while it loads in Chromium, the floor's 50-row pages first (signed-in, then bare), from a
 * Chrome trace of each load (a fresh browser context each round, the phone Lighthouse emulates: 412x823 at 1.75x).
 * Lighthouse gives totals; this says which work they are: per round, the main thread's busy time, its longest
 * task, a blocking time reckoned as Lighthouse's simulation does (each task 4x, less 50 ms), the time by kind
 * of work (script, style, layout and text shaping, HTML parsing, paint), and that work counted (Work: elements
 * styled, objects laid out, runs of text shaped), which a busy machine does not move. Medians over the rounds.
 *
 *   PROFILE_ROUNDS=N (default 7)   PROFILE_RATE=4 to slow the CPU for real (default 1: Lighthouse runs unthrottled
 *   and multiplies)   PROFILE_LOCALE=fr (default ar)   --tasks  each task of the median round over 10 ms, by kind   --events  the median round's time by trace event
 *   PROFILE_TRACE_DIR=dir  keeps every load's trace there
 *   --fetches  each round's fetch requests (prefetches, the live refresh's probe) and the rows it showed
 *
 * Paths are the app's (`{order}` stands for an order of the bench's store); the orders page when none is given.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Browser, BrowserContext, Cookie } from "@playwright/test";
import { FLOOR_ROWS, firstOrderId, installThroughConsent, launchChromium, startAppBesideReference, topUpOrders, untilOrdersStored } from "./first-load-js";
import { median } from "./support";

const STORE = 101;
const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 7);
const RATE = Number(process.env.PROFILE_RATE ?? 1);
const SIMULATED_SLOWDOWN = 4;

export type TraceEvent = {
  name: string;
  ph: string;
  dur?: number;
  /** The thread's own clock: the time the thread ran, less the time it waited for a core. */
  tdur?: number;
  tid: number;
  pid: number;
  ts: number;
  args?: { name?: string; elementCount?: number; data?: { url?: string }; beginData?: { url?: string; dirtyObjects?: number } };
};

const KINDS: [kind: string, names: RegExp][] = [
  ["script", /^(RunMicrotasks|FunctionCall|EvaluateScript|v8\.|V8\.|TimerFire|EventDispatch|FireAnimationFrame|AsyncTask Run|ScriptRunner|PendingScript)/],
  ["style", /recalcStyle|UpdateLayoutTree|updateStyle|rebuildLayoutTree|updateActiveStyle|RuleSet|StyleEngine|CSSParser/],
  ["layout", /performLayout|Layout$|ShapeText|UpdateStyleAndLayout/],
  ["parse HTML", /ParseHTML|HTMLDocumentParser|FinishedParsing|TextResourceDecoder|HTMLPreloadScanner/],
  ["paint", /Paint|Commit|Composit|PrePaint/],
];
const kindOf = (name: string) => KINDS.find(([, pattern]) => pattern.test(name))?.[0] ?? "other";

/**
 * How much work the load asked of the renderer, counted: elements styled, layout objects laid out, runs of text
 * shaped. On a shared machine the times of that work move by a third from run to run; these counts move by a few
 * units, so they tell two pages, or two builds, apart where the times cannot.
 */
export type Work = { styledElements: number; laidOutObjects: number; shapedTexts: number };

/**
 * `kinds` are wall-clock times, as Lighthouse reckons them; `threadKinds` the same work by the thread's own clock. On
 * two busy cores the page's thread waits for a core as long as it runs (wall about twice thread time, in one round
 * 1.6 ms against 0.5), so the wall time of a page's script moves with whatever else the machine runs, its thread
 * time much less.
 */
export type Round = {
  busy: number;
  longest: number;
  blocking: number;
  kinds: Map<string, number>;
  threadKinds: Map<string, number>;
  names: Map<string, number>;
  tasks: string[];
  work: Work;
};

/** One load's main thread from its trace: the renderer thread that parsed `url`'s document, its top-level tasks. */
export function analyse(traceEvents: TraceEvent[], url: string): Round | null {
  const path = new URL(url).pathname;
  const parse = traceEvents.find((event) => event.name === "ParseHTML" && URL.parse(event.args?.beginData?.url ?? "")?.pathname === path);
  if (!parse) return null;
  // The thread's complete events; those too short to have a duration count as work below, but take no time.
  const onThread = traceEvents.filter((event) => event.tid === parse.tid && event.pid === parse.pid && event.ph === "X");
  const events = onThread.filter((event) => event.dur).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<TraceEvent, number>();
  const threadSelf = new Map<TraceEvent, number>();
  const open: TraceEvent[] = [];
  const topLevel: TraceEvent[] = [];
  for (const event of events) {
    while (open.length && open[open.length - 1]!.ts + open[open.length - 1]!.dur! <= event.ts) open.pop();
    const parent = open[open.length - 1];
    if (parent) {
      self.set(parent, (self.get(parent) ?? parent.dur!) - event.dur!);
      threadSelf.set(parent, (threadSelf.get(parent) ?? parent.tdur ?? 0) - (event.tdur ?? 0));
    } else if (event.name === "RunTask") topLevel.push(event);
    self.set(event, self.get(event) ?? event.dur!);
    threadSelf.set(event, threadSelf.get(event) ?? event.tdur ?? 0);
    open.push(event);
  }
  const kinds = new Map<string, number>();
  const threadKinds = new Map<string, number>();
  const names = new Map<string, number>();
  // A trace recorded without thread timestamps gives no thread time at all: none, rather than a zero that reads well.
  const threadClock = events.some((event) => event.tdur !== undefined);
  for (const [event, us] of self) {
    if (event.name === "RunTask") continue;
    const kind = kindOf(event.name);
    kinds.set(kind, (kinds.get(kind) ?? 0) + us / 1000);
    if (threadClock) threadKinds.set(kind, (threadKinds.get(kind) ?? 0) + Math.max(0, threadSelf.get(event)!) / 1000);
    names.set(event.name, (names.get(event.name) ?? 0) + us / 1000);
  }
  const tasks: string[] = [];
  for (const task of topLevel.filter((t) => t.dur! >= 10_000)) {
    const inside = new Map<string, number>();
    for (const [event, us] of self) if (event.ts >= task.ts && event.ts < task.ts + task.dur!) inside.set(kindOf(event.name), (inside.get(kindOf(event.name)) ?? 0) + us / 1000);
    tasks.push(`${((task.ts - parse.ts) / 1000).toFixed(0)} ms after parsing began, ${(task.dur! / 1000).toFixed(0)} ms: ${[...inside].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms >= 1).map(([kind, ms]) => `${kind} ${ms.toFixed(0)}`).join(", ")}`);
  }
  const work: Work = { styledElements: 0, laidOutObjects: 0, shapedTexts: 0 };
  for (const event of onThread) {
    if (event.name === "UpdateLayoutTree") work.styledElements += event.args?.elementCount ?? 0;
    else if (event.name === "Layout") work.laidOutObjects += event.args?.beginData?.dirtyObjects ?? 0;
    else if (event.name === "InlineNode::ShapeTextIncludingFirstLine") work.shapedTexts += 1;
  }
  return {
    work,
    busy: topLevel.reduce((sum, task) => sum + task.dur! / 1000, 0),
    longest: Math.max(...topLevel.map((task) => task.dur! / 1000)),
    blocking: topLevel.reduce((sum, task) => sum + Math.max(0, (task.dur! / 1000) * (SIMULATED_SLOWDOWN / RATE) - 50), 0),
    kinds,
    threadKinds,
    names,
    tasks,
  };
}

async function traceLoad(browser: Browser, cookies: Cookie[], url: string): Promise<Round | null> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  try {
    await context.addCookies(cookies);
    const page = await context.newPage();
    const fetched: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "fetch") fetched.push(request.url().replace(/^https?:\/\/[^/]+/, ""));
    });
    const cdp = await context.newCDPSession(page);
    if (RATE !== 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: RATE });
    await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "blink", "loading", ...(process.env.PROFILE_CATEGORIES?.split(",") ?? [])] });
    await page.goto(url, { waitUntil: "load" });
    // What follows the load event (hydration's effects, prefetches, the first refresh timer's set-up) belongs to it,
    // as Lighthouse counts it: a fixed window after it, the same for every page.
    await page.waitForTimeout(2000);
    const buffer = await browser.stopTracing();
    // PROFILE_TRACE_DIR keeps each load's trace, for DevTools' Performance panel (Load profile…).
    if (process.env.PROFILE_TRACE_DIR) {
      await mkdir(process.env.PROFILE_TRACE_DIR, { recursive: true });
      await writeFile(path.join(process.env.PROFILE_TRACE_DIR, `${new URL(url).pathname.replace(/\W+/g, "_")}-${Date.now()}.json`), buffer);
    }
    if (process.argv.includes("--fetches")) console.log(`    ${url}: ${await page.locator("tbody tr").count()} rows; fetches: ${fetched.join(" ")}`);
    return analyse((JSON.parse(buffer.toString("utf8")) as { traceEvents: TraceEvent[] }).traceEvents, url);
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const { databaseUrl, appUrl, referenceUrl, emulator, stop } = await startAppBesideReference("bench_page_profile");
  // As the Lighthouse part has it: FLOOR_ROWS rows on the orders pages, the floor's included.
  topUpOrders(emulator, STORE, FLOOR_ROWS);
  const browser = await launchChromium();
  try {
    const installing = await browser.newContext();
    await installThroughConsent(installing, appUrl, STORE);
    const cookies = [...(await installing.cookies(appUrl)), { name: "NEXT_LOCALE", value: process.env.PROFILE_LOCALE ?? "ar", domain: "127.0.0.1", path: "/", expires: -1, httpOnly: false, secure: false, sameSite: "Lax" as const }];
    await installing.close();
    await untilOrdersStored(databaseUrl, STORE, FLOOR_ROWS);
    const orderId = await firstOrderId(databaseUrl, STORE);
    const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
    const paths = wanted.length ? wanted.map((p) => p.replace("{order}", String(orderId))) : [`/stores/${STORE}/orders`];
    // The signed-in floor sends the app's security headers, Cross-Origin-Opener-Policy among them (a new renderer
    // process for each load), as Lighthouse's floor does (tooling/bench/lighthouse.ts); the bare page sends none.
    const targets = [
      { label: "signed-in floor's 50-row page", url: `${referenceUrl}/signed/${STORE}/orders` },
      { label: "bare floor's 50-row page", url: `${referenceUrl}/rows` },
      ...paths.map((p) => ({ label: p, url: `${appUrl}${p}` })),
    ];
    // Rounds interleave the pages, so a busy moment on the machine falls on each alike.
    const rounds = new Map<string, Round[]>(targets.map((target) => [target.label, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const result = await traceLoad(browser, cookies, target.url);
        if (result) rounds.get(target.label)!.push(result);
      }
    }
    for (const target of targets) {
      const runs = rounds.get(target.label)!;
      const kinds = [...new Set(runs.flatMap((run) => [...run.kinds.keys()]))];
      const middle = [...runs].sort((a, b) => a.busy - b.busy)[Math.floor(runs.length / 2)];
      console.log(
        `${target.label} (${runs.length} rounds, CPU rate ${RATE}): busy ${median(runs.map((r) => r.busy)).toFixed(0)} ms, longest task ${median(runs.map((r) => r.longest)).toFixed(0)} ms, blocking as simulated ${median(runs.map((r) => r.blocking)).toFixed(0)} ms; ` +
          kinds.map((kind) => `${kind} ${median(runs.map((r) => r.kinds.get(kind) ?? 0)).toFixed(0)}`).join(", "),
      );
      const counted = (key: keyof Work) => median(runs.map((run) => run.work[key])).toFixed(0);
      console.log(`    by the thread's own clock: ${kinds.map((kind) => `${kind} ${median(runs.map((r) => r.threadKinds.get(kind) ?? 0)).toFixed(0)}`).join(", ")}`);
      console.log(`    work counted: ${counted("styledElements")} elements styled, ${counted("laidOutObjects")} objects laid out, ${counted("shapedTexts")} runs of text shaped`);
      if (process.argv.includes("--tasks") && middle) for (const task of middle.tasks) console.log(`    ${task}`);
      if (process.argv.includes("--events") && middle) {
        const top = [...middle.names].sort((a, b) => b[1] - a[1]).slice(0, 15);
        console.log(`    by trace event: ${top.map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(", ")}`);
      }
    }
  } finally {
    await browser.close();
    await stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
