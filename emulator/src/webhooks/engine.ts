/**
 * The emulator's webhook engine: the order checker and the dispatcher on the emulator's clock, the uninstall
 * notice, and the console's verify. Runs are serialised so an automatic tick and a manual one never interleave.
 */
import type { EmulatorContext, WebhookEngine } from "../http/types";
import { runOrderChecker } from "./checker";
import { runDispatcher } from "./dispatcher";
import { dropPendingUninstallNotices, queueUninstalledNotice } from "./uninstall";
import { verifyEndpoint } from "./verify";

export function createWebhookEngine(ctx: EmulatorContext, options: { fetch?: typeof fetch } = {}): WebhookEngine {
  const fetchImpl = options.fetch ?? fetch;
  const stopping = new AbortController();
  let queue: Promise<unknown> = Promise.resolve();

  function serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  }

  const deps = () => ({ fetch: fetchImpl, stopSignal: stopping.signal });

  return {
    tick: () =>
      serialised(async () => {
        if (stopping.signal.aborted) return;
        runOrderChecker(ctx);
        await runDispatcher(ctx, deps());
      }),
    onUninstalled: (install) => queueUninstalledNotice(ctx, install),
    onInstalled: (install) => dropPendingUninstallNotices(ctx, install),
    verify: () =>
      serialised(() =>
        stopping.signal.aborted ? Promise.resolve({ ok: false, status: null, error: "emulator stopping" }) : verifyEndpoint(ctx, deps()),
      ),
    stop: () => stopping.abort(),
  };
}
