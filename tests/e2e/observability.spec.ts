import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { promisify } from "node:util";
import { freePort } from "../../scripts/support/free-port";
import { sampleValue } from "../helpers/metrics-text";
import { e2eAppEnv } from "./support/app-env";
import { installThroughConsent } from "./support/install";
import { seedPgliteDir } from "./support/pglite-template";
import { emulatorControl } from "./support/servers";

/**
 * Metrics and traces on the production build (`next start`), where each server bundle (route handlers, server
 * components, instrumentation.ts) has its own copy of every module: /api/metrics must still see what every route
 * and page of the process counted, and the tracing switch set by register() must reach the routes.
 */

const SECRET = e2eAppEnv().METRICS_SECRET!;
const STORE = 101;

async function scrape(request: APIRequestContext): Promise<string> {
  const response = await request.get("/api/metrics", { headers: { authorization: `Bearer ${SECRET}` } });
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("text/plain; version=0.0.4");
  return response.text();
}

function total(text: string, name: string): number {
  // Every series of one metric, whatever its labels.
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

test.describe.configure({ timeout: 180_000 });

test.beforeEach(async () => {
  await emulatorControl("POST", "/_emulator/reset");
});

test("/api/metrics answers 401 without the bearer secret or with a wrong one", async ({ request }) => {
  const attempts: Record<string, string>[] = [{}, { authorization: "Bearer wrong-secret-0123456789" }, { authorization: SECRET }];
  for (const headers of attempts) {
    const response = await request.get("/api/metrics", { headers });
    expect(response.status()).toBe(401);
    expect(response.headers()["www-authenticate"]).toBe("Bearer");
    expect(await response.text()).not.toContain("store_app_");
  }
});

test("one registry per process: /api/metrics sees what the OAuth route, the pages and the webhook route counted", async ({ page, request }) => {
  const before = await scrape(request);

  // The OAuth callback (a route handler) opens a session; the install's first sync calls the platform.
  await installThroughConsent(page, { storeIds: [STORE] });
  // A page rendered by the server components calls the platform too (the store overview's analytics).
  await page.goto(`/stores/${STORE}`);
  await expect(page.locator("h1")).toBeVisible();
  // The emulator delivers an order webhook to the webhook route.
  await emulatorControl("POST", "/_emulator/orders", { storeId: STORE });
  await emulatorControl("POST", "/_emulator/tick");

  await expect(async () => {
    const after = await scrape(request);
    const moved = (name: string, labels?: Record<string, string>) =>
      labels ? sampleValue(after, name, labels) - sampleValue(before, name, labels) : total(after, name) - total(before, name);
    expect(moved("store_app_webhook_deliveries_total", { outcome: "applied" })).toBeGreaterThanOrEqual(1);
    expect(moved("store_app_sessions_opened_total", {})).toBeGreaterThanOrEqual(1);
    // Counted while rendering the overview (server components), read here by a route handler.
    expect(moved("store_app_platform_calls_total", { operation: "GET /v1/analytics", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(moved("store_app_platform_calls_total", { operation: "GET /v1/orders", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(moved("store_app_db_statement_duration_seconds_count")).toBeGreaterThan(0);
    // Read from the database at scrape: polled stores are counted, and the lag names only the stores most behind
    // (the suite's other specs installed more stores than that, so the one installed here may not be among them).
    expect(sampleValue(after, "store_app_order_sync_polled_stores")).toBeGreaterThanOrEqual(1);
    const lagSeries = after.match(/^store_app_order_sync_lag_seconds\{store="\d+"\} /gm) ?? [];
    expect(lagSeries.length).toBeGreaterThanOrEqual(1);
    expect(lagSeries.length).toBeLessThanOrEqual(10);
    expect(sampleValue(after, "store_app_collector_up", { collector: "order_sync" })).toBe(1);
    // Node's process metrics, from the same registry.
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(sampleValue(after, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    // The sync lag is read once per 30 s (lib/observability/collectors.ts): the first scrape's read may be served until then.
  }).toPass({ timeout: 45_000 });
});

test("a server error reported by Next in instrumentation.ts's bundle is counted in the registry /api/metrics reads", async ({ request }) => {
  // A real server action of the home page, sent a body it cannot decode: Next throws, and calls onRequestError.
  const manifest = JSON.parse(await readFile(path.join(e2eAppEnv().NEXT_DIST_DIR!, "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { workers: Record<string, unknown> }>;
  };
  const action = Object.entries(manifest.node).find(([, entry]) => "app/page" in entry.workers)?.[0];
  expect(action).toBeDefined();
  const before = sampleValue(await scrape(request), "store_app_request_errors_total", { kind: "action" });
  const answer = await request.post("/", {
    headers: { "next-action": action!, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" },
    data: "not a server action payload",
  });
  expect(answer.status()).toBe(500);
  await expect(async () => {
    expect(sampleValue(await scrape(request), "store_app_request_errors_total", { kind: "action" }) - before).toBe(1);
  }).toPass({ timeout: 10_000 });
});

type ExportedSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string };

/** An OTLP/HTTP receiver in the test: collects the spans the server exports as JSON. */
async function startOtlpReceiver(): Promise<{ url: string; spans: ExportedSpan[]; close(): Promise<void> }> {
  const spans: ExportedSpan[] = [];
  const server = http.createServer((incoming, answer) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      if (incoming.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          resourceSpans?: { scopeSpans?: { spans?: ExportedSpan[] }[] }[];
        };
        for (const resource of body.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      }
      answer.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test("with OTEL_EXPORTER_OTLP_ENDPOINT set, a delivery's spans reach the collector under one trace id, as do its log lines; without METRICS_SECRET /api/metrics is 404", async () => {
  const receiver = await startOtlpReceiver();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "obs-e2e-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...e2eAppEnv(), NODE_ENV: "production", PORT: String(port), APP_URL: `http://localhost:${port}`, LOG_LEVEL: "debug" };
  delete env.METRICS_SECRET;
  // Its own embedded database, on either suite: the suite's embedded one is locked by the suite's server, and on the
  // suite's PostgreSQL database the sample order it receives would show up in the other specs' order lists.
  delete env.DATABASE_URL;
  env.PGLITE_DIR = path.join(dataDir, "pglite");
  await seedPgliteDir(env.PGLITE_DIR);
  env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  env.OTEL_BSP_SCHEDULE_DELAY = "100";
  // @vercel/otel's exporter sends protobuf unless told otherwise; this receiver reads JSON.
  env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
  let output = "";
  const child: ChildProcess = spawn("npx", ["next", "start", "-p", String(port)], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const base = `http://localhost:${port}`;
  try {
    await expect(async () => {
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
    }).toPass({ timeout: 150_000, intervals: [500] });

    expect((await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${SECRET}` } })).status).toBe(404);

    // A signed order.created sample, sent by the trigger tool (the samples module is server-only, so not imported here).
    const sent = await promisify(execFile)("npx", ["tsx", "--conditions=react-server", "scripts/webhooks.ts", "order.created", "--direct", "--url", `${base}/api/webhooks`], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "development", SVC_WEBHOOK_SECRET: e2eAppEnv().SVC_WEBHOOK_SECRET },
    });
    expect(sent.stdout).toMatch(/200/);

    await expect(() => expect(receiver.spans.some((span) => span.name === "webhook.transaction")).toBe(true)).toPass({ timeout: 20_000 });
    const receive = receiver.spans.find((span) => span.name === "webhook.receive")!;
    const trace = receiver.spans.filter((span) => span.traceId === receive.traceId);
    const names = trace.map((span) => span.name);
    for (const step of ["webhook.signature", "webhook.parse", "webhook.envelope", "webhook.transaction"]) expect(names).toContain(step);
    expect(names.some((name) => name.startsWith("db "))).toBe(true);
    // Next's own span for the request is the root of the same trace.
    expect(trace.some((span) => span.spanId === receive.parentSpanId)).toBe(true);

    // An accepted delivery logs at debug (LOG_LEVEL above): its line carries the trace id too.
    const lines = output.split("\n").filter((line) => line.startsWith("{"));
    expect(lines.some((line) => line.includes(`"trace_id":"${receive.traceId}"`))).toBe(true);
  } finally {
    if (child.pid) process.kill(-child.pid, "SIGTERM");
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
