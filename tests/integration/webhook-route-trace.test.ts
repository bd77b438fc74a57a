import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { createScratchDatabase, type ScratchDatabase } from "@/db/scratch";
import { env, resetEnvCache } from "@/lib/env";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { startTracing, stopTracing } from "@/lib/observability/tracing-setup";
import { sampleEnvelope } from "@/lib/webhooks/samples";
import { databaseKind } from "../helpers/database";
import { migrateDatabase } from "@/lib/database/migrate";
import { signedWebhookRequest } from "../helpers/webhook-request";

/**
 * A webhook delivery through the app's own route handler (app/api/webhooks/route.ts), its database opened from the
 * environment as a deployed app opens it (lib/database/app-database.ts getDb), with @vercel/otel's setup and the SDK's in-memory
 * exporter: the delivery's trace holds the statements that stored it, whichever driver ran them (PGlite, or
 * postgres.js with TEST_DATABASE_URL).
 */

const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const STORE = 101;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe(`a webhook delivery's trace through the route (${databaseKind()})`, () => {
  const exporter = new InMemorySpanExporter();
  const saved = { DATABASE_URL: process.env.DATABASE_URL, PGLITE_DIR: process.env.PGLITE_DIR, JOBS_WORKER: process.env.JOBS_WORKER };
  let scratch: ScratchDatabase | undefined;
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    if (serverUrl) {
      scratch = await createScratchDatabase(serverUrl, "starter_test");
      const migrating = await openDatabase({ url: scratch.url });
      await migrateDatabase(migrating);
      await migrating.close();
      process.env.DATABASE_URL = scratch.url;
      // The route only sends follow-up jobs; no worker in the test's process.
      process.env.JOBS_WORKER = "off";
    } else {
      delete process.env.DATABASE_URL;
      process.env.PGLITE_DIR = "memory";
    }
    resetEnvCache();
    const { getDatabase } = await import("@/lib/database/app-database");
    const { getJobs } = await import("@/lib/jobs/app");
    const handle = await getDatabase();
    await saveInstalledStores(handle.db, {
      scopes: ["orders:read"],
      stores: [{ storeId: STORE, installId: 7101, storeName: "Amina Couture", accessToken: "svcpk_live_routetrace" }],
    });
    close = async () => {
      await (await getJobs()).stop({ graceful: false, timeout: 2_000 }).catch(() => undefined);
      await handle.close();
    };
    startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    // A fresh database as the app opens it, its tables and the job engine's migrated: about 30 s on two loaded cores
    // (CI, beside the build and the browser tests), half the suite's hook limit.
  }, 120_000);

  afterAll(async () => {
    await stopTracing();
    await close();
    await scratch?.drop();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnvCache();
  });

  it("holds the statements that stored the order, under the receiver's transaction, with placeholders and no values", async () => {
    const { POST } = await import("@/app/api/webhooks/route");
    const request = signedWebhookRequest(sampleEnvelope("order.created", { storeId: STORE, orderId: 770_531 }), env.SVC_WEBHOOK_SECRET);
    const answer = await POST(request);
    expect(answer.status).toBe(200);

    const spans = exporter.getFinishedSpans();
    const receive = spans.find((span) => span.name === "webhook.receive");
    expect(receive).toBeDefined();
    const inTrace = spans.filter((span) => span.spanContext().traceId === receive!.spanContext().traceId);
    const transaction = inTrace.find((span) => span.name === "webhook.transaction");
    expect(parentOf(transaction!)).toBe(receive!.spanContext().spanId);
    const statements = inTrace.filter((span) => span.name.startsWith("db ") && parentOf(span) === transaction!.spanContext().spanId);
    // The statement that stored the order (the receiver writes the delivery's record and the order in one).
    expect(statements.some((span) => /insert into "?orders"?/i.test(String(span.attributes["db.query.text"])))).toBe(true);
    for (const statement of statements) {
      expect(statement.attributes).toMatchObject({ "db.system.name": "postgresql" });
      expect(statement.attributes["db.query.text"]).toMatch(/\$1/);
      expect(JSON.stringify(statement.attributes)).not.toContain("770531");
      expect(statement.endTime[0] * 1e9 + statement.endTime[1]).toBeGreaterThanOrEqual(statement.startTime[0] * 1e9 + statement.startTime[1]);
    }
  });
});
