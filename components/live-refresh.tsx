import type { Translate } from "@/i18n/translate";
import { RefreshWhileVisible } from "./refresh-while-visible";

/**
 * Keeps a server-rendered page current and says so. The words are rendered here on the server; the browser gets
 * only the timer (RefreshWhileVisible), so the indicator costs the page's first load a few hundred bytes. `probe`:
 * see RefreshWhileVisible.
 */
export function LiveRefresh({ t, intervalMs, probe }: { t: Translate; intervalMs?: number; probe?: string }) {
  return (
    <p className="flex items-center gap-2 text-xs text-slate-500">
      <span aria-hidden="true" className="inline-block h-2 w-2 rounded-full bg-emerald-500" />
      {t("Shell.liveUpdates")}
      <RefreshWhileVisible intervalMs={intervalMs} probe={probe} />
    </p>
  );
}
