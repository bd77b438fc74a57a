import type { AddressInfo } from "node:net";
import { createClock } from "./clock";
import { createControl, type EmulatorControl } from "./control/control";
import { controlRoutes } from "./control/routes";
import { webhookControlRoutes } from "./control/webhooks";
import { DEV_APP } from "@/lib/dev-app";
import { redirectUriOf, webhookUrlOf } from "@/lib/webhook-url/app-urls";
import { createFixtureState } from "./fixtures";
import { createEmulatorServer } from "./http/server";
import type { EmulatorConfig, EmulatorContext, Route } from "./http/types";
import { nextId } from "./ids";
import type { EmulatorState } from "./model";
import { setOAuthLimitsEnabled } from "./oauth/limits";
import { oauthRoutes } from "./oauth/routes";
import { apiRoutes } from "./api/pipeline";
import { homeRoutes } from "./home";
import { DEFAULT_DATA_FILE, createSaver, loadState } from "./store";
import { uiRoutes } from "./ui/routes";
import { createWebhookEngine } from "./webhooks/engine";

export type { EmulatorControl } from "./control/control";
export type { EmulatorContext } from "./http/types";

export type StartOptions = {
  /** 0 picks a free port. Default 4000. */
  port?: number;
  appUrl?: string;
  /** null keeps the state in memory (tests). Default `.data/emulator/state.json`. */
  dataFile?: string | null;
  /** Emulated seconds per real second. Default 1. */
  timeScale?: number;
  /** Run the order checker and dispatcher once per emulated minute. Default true; tests pass false and tick themselves. */
  autoTick?: boolean;
  /** Default true: the development app's webhook is http://localhost. */
  allowLocalhostWebhooks?: boolean;
  /** Default true: the OAuth endpoints' per-client limits. Long browser test runs may turn them off. */
  oauthRateLimits?: boolean;
  quiet?: boolean;
};

export type RunningEmulator = {
  url: string;
  port: number;
  ctx: EmulatorContext;
  control: EmulatorControl;
  close(): Promise<void>;
};

/** The development app follows the app URL the emulator was started with, even on a saved state. */
function syncDevApp(state: EmulatorState, appUrl: string): void {
  const app = state.apps.find((candidate) => candidate.clientId === DEV_APP.clientId);
  if (!app) return;
  app.redirectUris = [redirectUriOf(appUrl)];
  app.webhook.url = webhookUrlOf(appUrl);
}

export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  const appUrl = (options.appUrl ?? DEV_APP.appUrl).replace(/\/+$/, "");
  const dataFile = options.dataFile === undefined ? DEFAULT_DATA_FILE : options.dataFile;
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new Error("timeScale must be a positive number");
  const config: EmulatorConfig = {
    origin: "http://localhost",
    appUrl,
    allowLocalhostWebhooks: options.allowLocalhostWebhooks ?? true,
    timeScale,
    autoTick: options.autoTick ?? true,
    dataFile,
  };

  const loaded = dataFile ? loadState(dataFile) : null;
  // The saved offset is the clock's lead over real time, so emulated time never runs backwards across restarts.
  const clock = createClock({ timeScale, offsetMs: loaded?.clockOffsetMs ?? 0 });
  const state = loaded ?? createFixtureState({ appUrl, now: clock.now() });
  syncDevApp(state, appUrl);

  const saver = createSaver(dataFile, () => ({ ...ctx.state, clockOffsetMs: clock.nowMs() - Date.now() }));
  const ctx: EmulatorContext = {
    state,
    config,
    clock,
    save: () => saver.schedule(),
    nextId: (kind) => nextId(ctx.state, kind),
    webhooks: { async tick() {}, onInstalled() {}, onUninstalled() {}, async verify() { return { ok: false, status: null, error: "starting" }; }, stop() {} },
  };
  ctx.webhooks = createWebhookEngine(ctx);
  setOAuthLimitsEnabled(ctx, options.oauthRateLimits ?? true);

  const routes: Route[] = [...oauthRoutes, ...controlRoutes, ...webhookControlRoutes, ...uiRoutes, ...homeRoutes, ...apiRoutes];
  const server = createEmulatorServer(ctx, routes, { quiet: options.quiet });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEV_APP.emulatorPort, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  config.origin = `http://localhost:${port}`;
  if (!loaded) saver.schedule();

  let ticking = false;
  const timer = config.autoTick
    ? setInterval(() => {
        if (ticking) return;
        ticking = true;
        ctx.webhooks
          .tick()
          .catch((error: unknown) => {
            if (!options.quiet) console.error(`[emulator] tick failed: ${error instanceof Error ? error.message : "unknown error"}`);
          })
          .finally(() => {
            ticking = false;
          });
      }, 60_000 / timeScale)
    : null;
  timer?.unref();

  return {
    url: config.origin,
    port,
    ctx,
    control: createControl(ctx),
    async close() {
      if (timer) clearInterval(timer);
      ctx.webhooks.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      saver.flush();
    },
  };
}
