"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useT } from "@/components/i18n/client-messages";

/**
 * Keeps a server-rendered page current: re-renders it on the server every few seconds while the tab is visible,
 * and at once when the tab comes back. Polling the app's own database through router.refresh() was chosen over
 * SSE because it needs no extra route or long-lived connection (which serverless hosts cut), and it reuses the
 * page's own query, so what appears is exactly what a reload would show.
 */
export function LiveRefresh({ intervalMs = 5000 }: { intervalMs?: number }) {
  const router = useRouter();
  const t = useT();
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      if (timer === undefined) timer = setInterval(() => router.refresh(), intervalMs);
    };
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") {
        router.refresh();
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
  }, [router, intervalMs]);
  return (
    <p className="flex items-center gap-2 text-xs text-slate-500">
      <span aria-hidden="true" className="inline-block h-2 w-2 rounded-full bg-emerald-500" />
      {t("Shell.liveUpdates")}
    </p>
  );
}
