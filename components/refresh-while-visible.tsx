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
 * cannot be reached (offline) changes nothing. Renders nothing: its indicator is LiveRefresh's, drawn on the server.
 */
export function RefreshWhileVisible({ intervalMs = 5000, probe }: { intervalMs?: number; probe?: string }) {
  const router = useRouter();
  useEffect(() => {
    const update = () => {
      if (!probe) return router.refresh();
      fetch(probe, { cache: "no-store" }).then(
        (answer) => answer.status !== 204 && router.refresh(),
        () => undefined,
      );
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
      stop();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [router, intervalMs, probe]);
  return null;
}
