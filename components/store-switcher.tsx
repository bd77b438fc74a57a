import { LinkWithStatus } from "@/components/link-with-status";
import type { Ui } from "@/i18n/server";
import { installStateNotice } from "@/lib/installs/state";
import { SWITCHER_SECTION, storeHref, storesHref } from "@/lib/sections";

export type SwitcherStore = { storeId: number; storeName: string; state: string };

/**
 * A disclosure of links rather than a select: it works without JavaScript, each entry is a real link (open in a
 * new tab, keyboard focus), and it costs no client code of its own (next/link is shared by every page). Each store
 * opens on the first section any store can show, connected or not (lib/sections.ts).
 */
export function StoreSwitcher({ current, stores, t }: { current: SwitcherStore; stores: SwitcherStore[]; t: Ui["t"] }) {
  const others = stores.filter((store) => store.storeId !== current.storeId);
  const item = "switcher-item";
  return (
    <details className="group min-w-0 sm:relative">
      <summary className="switcher-summary">
        <span className="sr-only">{t("Shell.currentStore")}</span>
        <span dir="auto" className="truncate">
          {current.storeName}
        </span>
        <span aria-hidden="true" className="text-slate-500 group-open:rotate-180">
          ▾
        </span>
        <span className="sr-only">{t("Shell.switchStore")}</span>
      </summary>
      <nav aria-label={t("Shell.yourStores")} className="switcher-menu">
        <ul>
          {others.map((store) => (
            <li key={store.storeId}>
              <LinkWithStatus href={storeHref(store.storeId, SWITCHER_SECTION)} className={`${item} flex items-center justify-between gap-2`}>
                <span dir="auto" className="truncate">
                  {store.storeName}
                </span>
                {installStateNotice(store.state) ? <span className="text-xs text-amber-800">{t("Shell.needsAttention")}</span> : null}
              </LinkWithStatus>
            </li>
          ))}
          {others.length === 0 ? <li className="px-3 py-2 text-sm text-slate-600">{t("Shell.noOtherStore")}</li> : null}
          <li className="border-t border-slate-100">
            <LinkWithStatus href={storesHref()} className={item}>
              {t("Shell.allStores")}
            </LinkWithStatus>
          </li>
          <li>
            <a href="/install" className={item}>
              {t("Shell.installAnother")}
            </a>
          </li>
        </ul>
      </nav>
    </details>
  );
}
