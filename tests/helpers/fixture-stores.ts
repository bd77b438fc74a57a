import type { Db } from "@/db/client";
import { saveInstalledStores } from "@/lib/installs/tokens";

type FixtureStore = { storeId: number; storeName: string; installId: number; accessToken: string };

/** Amina's two stores and another merchant's, as the emulator's fixtures name them, with fake tokens. */
export const FIXTURE_STORES: readonly FixtureStore[] = [
  { storeId: 101, storeName: "Amina Couture", installId: 1, accessToken: "svcpk_live_a" },
  { storeId: 102, storeName: "Amina Maison", installId: 2, accessToken: "svcpk_live_b" },
  // Installed by someone else's browser: exists in the database, not in the tests' sessions.
  { storeId: 201, storeName: "Karim Store", installId: 3, accessToken: "svcpk_live_c" },
];

/** Stores the fixture stores (and any extra ones) as installed with `orders:read`. */
export async function saveFixtureStores(db: Db, extra: readonly FixtureStore[] = []): Promise<void> {
  await saveInstalledStores(db, { scopes: ["orders:read"], stores: [...FIXTURE_STORES, ...extra] });
}
