"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Re-renders the page on the server every few seconds while the tab is visible, and at once when the tab comes
 * back. Polling the app's own database through router.refresh() was chosen over SSE because it needs no extra
 * long-lived connection (which serverless hosts cut), and it reuses the page's own query, so what appears is
 * exactly what a reload would show. With a `probe` (a URL answering 204 while the page is unchanged, as
 * lib/orders/live.ts does), each tick asks first and the page is rendered again only on another answer: a few
 * bytes every few seconds instead of the whole page, on the merchant's mobile data and on the server. A probe that
 * cannot be reached (offline) changes nothing, and one still unanswered is not asked again. Renders nothing: its
 * indicator is LiveRefresh's, drawn on the server.
 */
export function RefreshWhileVisible({ intervalMs = 5000, probe }: { intervalMs?: number; probe?: string }) {
  const router = useRouter();
  useEffect(() => {
    // One question at a time: on a slow line a probe can outlast the interval, and unanswered ones would pile up.
    // An answer that arrives after the page has gone refreshes nothing.
    let asking = false;
    let mounted = true;
    const update = () => {
      if (!probe) return router.refresh();
      if (asking) return;
      asking = true;
      fetch(probe, { cache: "no-store" })
        .then(
          (answer) => mounted && answer.status !== 204 && router.refresh(),
          () => undefined,
        )
        .finally(() => (asking = false));
    };
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      if (timer === undefined) timer = setInterval(update, intervalMs);
    };
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") {
        update();
        start();
      } else {
        stop();
      }
    };
    if (document.visibilityState === "visible") start();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      mounted = false;
      stop();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [router, intervalMs, probe]);
  return null;
}
