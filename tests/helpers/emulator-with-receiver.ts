import type { DatabaseHandle } from "@/db/client";
import { startEmulator, type RunningEmulator } from "@/emulator/src/index";
import { DEV_APP } from "@/lib/dev-app";
import { saveInstalledStores } from "@/lib/installs/tokens";
import { startWebhookServer, type WebhookServer } from "@/lib/webhooks/node-server";
import { createTestDatabase } from "./database";

export type EmulatorWithReceiver = {
  handle: DatabaseHandle;
  receiver: WebhookServer;
  emulator: RunningEmulator;
  close(): Promise<void>;
};

/**
 * The app's real webhook receiver on a fresh test database, and an emulator (no clock of its own: tests tick it)
 * whose store installed the app with orders:read, so the emulator's dispatcher delivers that store's events to it.
 */
export async function startEmulatorWithReceiver(storeId: number, storeName: string): Promise<EmulatorWithReceiver> {
  const handle = await createTestDatabase();
  const receiver = await startWebhookServer({ db: handle.db, secret: DEV_APP.webhookSecret });
  const emulator = await startEmulator({ port: 0, appUrl: receiver.url, dataFile: null, autoTick: false, quiet: true });
  const minted = emulator.control.mintInstall(storeId);
  await saveInstalledStores(handle.db, {
    scopes: ["orders:read"],
    stores: [{ storeId, storeName, installId: minted.installId, accessToken: minted.accessToken }],
  });
  return {
    handle,
    receiver,
    emulator,
    async close() {
      await emulator.close();
      await receiver.close();
      await handle.close();
    },
  };
}
