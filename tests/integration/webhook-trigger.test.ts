import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { findOrder } from "@/db/queries/orders";
import type { RunningEmulator } from "@/emulator/src/index";
import { setLogSink } from "@/lib/log";
import type { WebhookServer } from "@/lib/webhooks/node-server";
import { databaseKind } from "../helpers/database";
import { startEmulatorWithReceiver, type EmulatorWithReceiver } from "../helpers/emulator-with-receiver";

const root = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
/**
 * What one `npm run webhooks` may take here: a child process whose tsx loads the script's imports from source, about
 * 15 s on two loaded cores (CI runs this file beside the production build and the browser tests), so a test that runs
 * it twice outlived the suite's 30 s default there. Each test's limit is this times its runs.
 */
const PER_RUN_MS = 45_000;

/**
 * `npm run webhooks` with the emulator running: the event happens on the platform and its own dispatcher delivers
 * it to the app's real receiver, so the app's database and the emulator end with the same order.
 */
describe(`npm run webhooks against the emulator (${databaseKind()})`, () => {
  let setup: EmulatorWithReceiver | undefined;
  let handle: DatabaseHandle;
  let receiver: WebhookServer;
  let emulator: RunningEmulator;
  let restoreLog: () => void;

  beforeAll(async () => {
    restoreLog = setLogSink(() => {});
    setup = await startEmulatorWithReceiver(101, "Amina Couture");
    ({ handle, receiver, emulator } = setup);
  });
  afterAll(async () => {
    await setup?.close();
    restoreLog?.();
  });

  async function webhooks(...args: string[]): Promise<{ code: number; output: string }> {
    try {
      const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/webhooks.ts", ...args], {
        cwd: root,
        env: { ...process.env, NODE_ENV: "development", EMULATOR_PORT: String(emulator.port), APP_URL: receiver.url },
      });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, output: failed.stdout + failed.stderr };
    }
  }

  function emulatorOrders() {
    return emulator.ctx.state.orders.filter((order) => order.store_id === 101);
  }

  it("order.created with --set places the order on the platform, and the app stores that same order", async () => {
    const before = emulatorOrders().length;
    const { code, output } = await webhooks("order.created", "--store", "101", "--set", "customer_name=Karima Belhadj", "--set", "status=confirmed", "--set", "total=4200");
    expect(code, output).toBe(0);
    expect(output).toMatch(/order\.created evt_[0-9a-f]+ to store 101: succeeded, app answered HTTP 200/);

    const placed = emulatorOrders();
    expect(placed).toHaveLength(before + 1);
    const order = placed.at(-1)!;
    expect(order).toMatchObject({ customer_name: "Karima Belhadj", status: "confirmed", total: 4200 });
    const stored = await findOrder(handle.db, 101, order.id);
    expect(stored).toMatchObject({ customerName: "Karima Belhadj", status: "confirmed" });
    expect(Number(stored?.total)).toBe(4200);

    // A status event for that order: the platform changes it, the app follows.
    const shipped = await webhooks("order.shipped", "--order", String(order.id));
    expect(shipped.code, shipped.output).toBe(0);
    expect(emulator.ctx.state.orders.find((candidate) => candidate.id === order.id)?.status).toBe("shipped");
    expect((await findOrder(handle.db, 101, order.id))?.status).toBe("shipped");
  }, 2 * PER_RUN_MS);

  it("a status event without --order creates the order first, so both events reach the app in order", async () => {
    const { code, output } = await webhooks("order.delivered");
    expect(code, output).toBe(0);
    const order = emulatorOrders().at(-1)!;
    expect(order.status).toBe("delivered");
    expect((await findOrder(handle.db, 101, order.id))?.status).toBe("delivered");
    const events = emulator.ctx.state.deliveries.filter((delivery) => delivery.body.includes(`"id":${order.id},`)).map((delivery) => delivery.event);
    expect(events).toEqual(["order.created", "order.delivered"]);
  }, PER_RUN_MS);

  it("says why nothing is sent for a store the app is not installed on, and changes nothing", async () => {
    const before = emulator.ctx.state.orders.length;
    const { code, output } = await webhooks("order.created", "--store", "102");
    expect(code).toBe(1);
    expect(output).toContain("the app is not installed on store 102");
    expect(emulator.ctx.state.orders.length).toBe(before);
  }, PER_RUN_MS);
});
