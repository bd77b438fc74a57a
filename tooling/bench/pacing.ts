/**
 * Pacing benchmark: two app instances share one database and push, as hard as they can, more calls for one install
 * than a minute allows. Reports the share of the 120-per-minute budget the client used in the minutes where demand
 * exceeded it, and how many 429s it met. The emulator's clock runs faster than real time and drives the client's
 * now() and sleep(), so several platform minutes pass in seconds.
 */
import { openDatabase } from "@/db/client";
import { saveInstalledStores } from "@/lib/installs/tokens";
import type { Logger } from "@/lib/log";
import { APP_USER_AGENT, createStoreClient, installStateRecorder } from "@/lib/platform";
import { startEmulator } from "@/emulator/src/index";
import type { BenchResult } from "./types";
import { migrateDatabase } from "@/lib/database/migrate";

const TIME_SCALE = 10;
const INSTANCES = 2;
const PER_MINUTE = 120;
/** 4.5 minutes of budget: four full minutes and a partial fifth. */
const CALLS = Math.round(PER_MINUTE * 4.5);
const STORE_ID = 101;

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, with: () => quiet };

export async function benchPacing(): Promise<BenchResult> {
  const database = await openDatabase({ embedded: "memory" });
  await migrateDatabase(database);
  const emulator = await startEmulator({ port: 0, appUrl: "http://localhost:3999", dataFile: null, autoTick: false, timeScale: TIME_SCALE });
  try {
    const clock = emulator.ctx.clock;
    const minted = emulator.control.mintInstall(STORE_ID);
    await saveInstalledStores(database.db, {
      scopes: ["products:read"],
      stores: [{ storeId: STORE_ID, storeName: "Amina Couture", installId: minted.installId, accessToken: minted.accessToken }],
    });

    // Start just after a minute boundary so the first minute is a whole one, like every later minute.
    clock.advance((60_000 - (clock.nowMs() % 60_000) + 1_500) / 1000);

    const perMinute = new Map<number, number>();
    let rateLimited = 0;
    const countingFetch: typeof fetch = async (input, init) => {
      const minute = Math.floor(clock.nowMs() / 60_000);
      const response = await fetch(input, init);
      if (response.status === 429) rateLimited += 1;
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
      return response;
    };
    const clients = Array.from({ length: INSTANCES }, (_, index) =>
      createStoreClient({
        storeId: STORE_ID,
        db: database.db,
        baseUrl: emulator.url,
        userAgent: APP_USER_AGENT,
        onInstallState: installStateRecorder(database.db),
        fetch: countingFetch,
        now: () => clock.nowMs(),
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms / TIME_SCALE)),
        instanceId: `bench-${index + 1}`,
        log: quiet,
      }),
    );

    let remaining = CALLS;
    const startedReal = Date.now();
    const startedEmulated = clock.nowMs();
    await Promise.all(
      clients.map(async (client) => {
        while (remaining > 0) {
          remaining -= 1;
          await client.whoami();
        }
      }),
    );
    const realSeconds = (Date.now() - startedReal) / 1000;
    const emulatedMinutes = (clock.nowMs() - startedEmulated) / 60_000;

    const minutes = [...perMinute.keys()].sort((a, b) => a - b);
    const counts = minutes.map((minute) => perMinute.get(minute) ?? 0);
    // Every minute but the last had more demand than budget: those are the ones the share is measured on.
    const saturated = counts.slice(0, -1);
    const share = saturated.length ? (100 * saturated.reduce((sum, value) => sum + value, 0)) / (PER_MINUTE * saturated.length) : 0;
    const overLimit = counts.filter((value) => value > PER_MINUTE).length;

    return {
      title: "API client pacing",
      lines: [
        `${INSTANCES} app instances sharing one database pushed ${CALLS} calls for one install (${(CALLS / PER_MINUTE).toFixed(1)} minutes of the ${PER_MINUTE}/min budget) at the emulator.`,
        `The emulator's clock ran at ${TIME_SCALE}× real time and drove the client's now() and sleep(): ${emulatedMinutes.toFixed(1)} platform minutes in ${realSeconds.toFixed(1)} s.`,
        `Budget used in the minutes where demand exceeded it: ${share.toFixed(1)}% (target ≥ 95%).`,
        `429 responses met: ${rateLimited} (target 0); minutes over ${PER_MINUTE} calls: ${overLimit}.`,
        `Calls per platform minute: ${counts.join(", ")}.`,
      ],
      figures: {
        pacingBudgetSharePct: Number(share.toFixed(1)),
        pacing429s: rateLimited,
        pacingCalls: CALLS,
        pacingRealSeconds: Number(realSeconds.toFixed(1)),
      },
    };
  } finally {
    await emulator.close();
    await database.close();
  }
}
