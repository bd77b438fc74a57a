import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InstallBanner } from "@/components/install-banner";
import { StoreCard } from "@/components/store-card";
import { findInstall } from "@/db/queries/installs";
import { recordInstallState } from "@/lib/installs/record-state";
import { INSTALL_STATES, mayCallPlatform, type InstallState } from "@/lib/installs/state";
import { isPlatformError } from "@/lib/platform";
import { syncStoreOrders } from "@/lib/sync/orders-sync";
import { databaseKind } from "../helpers/database";
import { translator } from "../helpers/i18n";
import { startHarness, type Harness } from "./platform-harness";

/**
 * One verdict per install state, asked of everything that decides: the API client (does a request leave?), the
 * order poller (does it read the store?) and the pages (do they send the merchant to /install?). Each must agree
 * with lib/installs/state.ts, and so with the others.
 */

const STORE = 101;

describe(`install states: the client, the poller and the pages agree (${databaseKind()})`, () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  /** A fresh install holding a working token, then moved to `state` the way the app records it. */
  async function installIn(state: InstallState) {
    await h.install(STORE, ["orders:read", "products:read"]);
    if (state !== "active") await recordInstallState(h.db, STORE, state);
    const install = await findInstall(h.db, STORE);
    expect(install?.state).toBe(state);
    return install!;
  }

  it("only a dead token (revoked, uninstalled) is refused; the states the platform lifts by itself keep calling", () => {
    expect(INSTALL_STATES.filter((state) => !mayCallPlatform(state))).toEqual(["revoked", "uninstalled"]);
  });

  it.each(INSTALL_STATES)("%s", async (state) => {
    const allowed = mayCallPlatform(state);

    await installIn(state);
    const sentBefore = h.sent.length;
    const outcome = await h
      .client(STORE)
      .whoami()
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(h.sent.length > sentBefore, "the client sent a request").toBe(allowed);
    if (allowed) expect(outcome).toBeNull();
    else expect(isPlatformError(outcome) && outcome.code === "install_inactive" && outcome.needsReinstall).toBe(true);

    const install = await installIn(state);
    let pagesRead = 0;
    const result = await syncStoreOrders(h.db, STORE, {
      full: true,
      source: {
        async *iterate() {
          pagesRead++;
        },
      },
    });
    expect(pagesRead > 0, "the poller read the store").toBe(allowed);
    expect(result.outcome).toBe(allowed ? "synced" : "skipped");

    const card = renderToStaticMarkup(createElement("ul", null, createElement(StoreCard, { install, t: translator("en") })));
    const banner = renderToStaticMarkup(createElement(InstallBanner, { state, storeName: install.storeName, t: translator("en") }));
    expect(card.includes('href="/install"'), "the store card offers to install again").toBe(!allowed);
    expect(banner.includes('href="/install"'), "the store's banner offers to install again").toBe(!allowed);
    expect(banner === "", "the store's banner stays empty").toBe(state === "active");
  });
});
