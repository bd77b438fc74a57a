/**
 * Where a server's CPU went, from the .cpuprofile that `node --cpu-prof` leaves (tooling/bench/orders-cpu.ts and
 * tooling/bench/webhook-cpu.ts write one per side with --prof=DIR): milliseconds per request by kind of work, so a ratio to the
 * floor can be read as "this much more rendering, this much database client, this much proxy".
 *
 *   npx tsx tooling/bench/cpu-profile.ts --requests=N DIR/app/*.cpuprofile DIR/floor/*.cpuprofile
 *
 * Each sample goes to the first kind below that any frame of its stack belongs to (gzip, database client, proxy,
 * module loading), else to the kind of its own frame. Frames of the production build are read through its source
 * maps, so the app's own code is told apart from the bundled libraries beside it. Idle time is left out, and so is
 * everything before the timed requests began when the bench says when that was (`since`): a server's start (its
 * modules found, read and linked) is no request's work, yet spread over a few hundred requests it read as 2 ms each.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number };

/** Kinds that own a whole stack when any frame of it matches: the work they start is theirs. */
const BY_STACK: [kind: string, frame: RegExp][] = [
  ["compression (gzip)", /compression\/index|node:zlib/],
  ["database client (postgres.js, drizzle)", /node_modules\/(postgres|drizzle-orm|pg-protocol)\//],
  ["proxy (Next's adapter, proxy.ts)", /server\/web\/adapter|build\/templates\/middleware|\/proxy\.ts$/],
  // CommonJS and ES modules alike (an ES module's resolution reads package.json files up the tree), and Turbopack's
  // loading of the server's external packages.
  ["module loading", /require-hook|node:internal\/modules\/|instantiateModule|externalImport|externalRequire/],
];

/** Kinds decided by the sampled frame itself. */
const BY_LEAF: [kind: string, frame: RegExp][] = [
  ["garbage collection", /^\(garbage collector\)\|/],
  ["React and Next's render runtime", /app-page-turbo\.runtime|react-dom|react-server-dom/],
  ["Next's server (routing, response)", /node_modules\/next\//],
  ["other libraries", /node_modules\//],
  // The app's folders (and the floor's own app/ and lib/), from the source maps; library paths were taken above.
  ["the app's own code", /\|([^|]*\/)?(app|components|lib|db|i18n)\/[^|]*$/],
  ["Node (streams, sockets, buffers, promises)", /\|node:|^(writeBuffer|writev|writeUtf8String|writeLatin1String|encodeInto|decode|runMicrotasks|\(program\))\|/],
];

export type Breakdown = { file: string; perRequestMs: number; kinds: [kind: string, perRequestMs: number][] };

function sourceOf(maps: Map<string, SourceMap | null>) {
  const cache = new Map<string, string>();
  return (frame: ProfileNode["callFrame"]): string => {
    const key = `${frame.functionName}|${frame.url}:${frame.lineNumber}:${frame.columnNumber}`;
    const known = cache.get(key);
    if (known !== undefined) return known;
    const file = frame.url.replace(/^file:\/\//, "");
    if (!maps.has(file)) {
      let map: SourceMap | null = null;
      // Only the production builds carry maps worth reading; Node's own and node_modules' frames are named already.
      if (file.includes(".next-bench") && existsSync(`${file}.map`)) {
        try {
          map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
        } catch {
          map = null;
        }
      }
      maps.set(file, map);
    }
    const entry = maps.get(file)?.findEntry(frame.lineNumber, frame.columnNumber);
    const source = entry && "originalSource" in entry ? path.normalize(entry.originalSource.replace(/^.*\[project\]\//, "")) : file;
    const named = `${frame.functionName}|${source}`;
    cache.set(key, named);
    return named;
  };
}

/**
 * `since` is a moment on the monotonic clock in microseconds (`process.hrtime.bigint() / 1000n` in the bench: V8
 * stamps a profile's samples on the same clock), and `requests` those made from then on.
 */
export function cpuBreakdown(file: string, requests: number, since = Number.NEGATIVE_INFINITY): Breakdown {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const sampled = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (at >= since) sampled.set(id, (sampled.get(id) ?? 0) + delta);
  });
  const source = sourceOf(new Map());
  const kinds = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of sampled) {
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === "(idle)") continue;
    busy += micros;
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(source(byId.get(at)!.callFrame));
    const kind =
      BY_STACK.find(([, frame]) => stack.some((named) => frame.test(named)))?.[0] ??
      BY_LEAF.find(([, frame]) => frame.test(stack[0]!))?.[0] ??
      "other";
    kinds.set(kind, (kinds.get(kind) ?? 0) + micros);
  }
  const perRequest = (micros: number) => micros / 1000 / requests;
  return {
    file,
    perRequestMs: perRequest(busy),
    kinds: [...kinds].sort((a, b) => b[1] - a[1]).map(([kind, micros]) => [kind, perRequest(micros)]),
  };
}

/** The breakdowns side by side, one line per kind, with each side's difference from the last (the floor). */
export function formatBreakdowns(sides: { label: string; breakdown: Breakdown }[]): string[] {
  const kinds = [...new Set(sides.flatMap((side) => side.breakdown.kinds.map(([kind]) => kind)))];
  const value = (breakdown: Breakdown, kind: string) => breakdown.kinds.find(([name]) => name === kind)?.[1] ?? 0;
  const floor = sides.at(-1)!;
  const cell = (ms: number) => ms.toFixed(2).padStart(7);
  const signed = (ms: number) => `${ms >= 0 ? "+" : ""}${ms.toFixed(2)}`;
  return [
    `${"ms of CPU a request (profiled)".padEnd(44)}${sides.map((side) => side.label.padStart(9)).join("")}   vs ${floor.label}`,
    `${"all busy time".padEnd(44)}${sides.map((side) => `  ${cell(side.breakdown.perRequestMs)}`).join("")}`,
    ...kinds.map(
      (kind) =>
        `${kind.padEnd(44)}${sides.map((side) => `  ${cell(value(side.breakdown, kind))}`).join("")}   ${sides
          .slice(0, -1)
          .map((side) => signed(value(side.breakdown, kind) - value(floor.breakdown, kind)))
          .join(" ")}`,
    ),
  ];
}

/** For the CPU scripts' --prof: the newest profile in DIR/<side> for each side, the floor last, side by side. */
export function printProfiles(directory: string, sides: readonly string[], requests: number, since?: number): void {
  const newest = (side: string) => {
    const folder = path.join(directory, side);
    const files = readdirSync(folder).filter((name) => name.endsWith(".cpuprofile")).sort();
    return files.length ? path.join(folder, files.at(-1)!) : null;
  };
  const found = sides.map((side) => ({ label: side, file: newest(side) }));
  const missing = found.filter((side) => !side.file).map((side) => side.label);
  if (missing.length) {
    console.log(`no CPU profile written for ${missing.join(", ")} (a server that did not exit cleanly writes none)`);
    return;
  }
  console.log(`where the CPU went (${requests} requests a side${since === undefined ? ", the server's start included" : ", from the end of the first warm-up"}, profiler overhead included):`);
  for (const line of formatBreakdowns(found.map((side) => ({ label: side.label, breakdown: cpuBreakdown(side.file!, requests, since) })))) console.log(`  ${line}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const requests = Number(process.argv.find((arg) => arg.startsWith("--requests="))?.split("=")[1] ?? Number.NaN);
  const files = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  if (!Number.isFinite(requests) || requests <= 0 || files.length === 0) {
    console.error("usage: npx tsx tooling/bench/cpu-profile.ts --requests=N <profile.cpuprofile> …");
    process.exit(2);
  }
  const sides = files.map((file) => ({ label: path.basename(path.dirname(file)), breakdown: cpuBreakdown(file, requests) }));
  for (const line of formatBreakdowns(sides)) console.log(line);
}
