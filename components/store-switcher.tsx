import Link from "next/link";
import { installStateNotice } from "@/lib/installs/state";

export type SwitcherStore = { storeId: number; storeName: string; state: string };

/**
 * A disclosure of links rather than a select: it works without JavaScript, each entry is a real link (open in a
 * new tab, keyboard focus), and it costs no client code.
 */
export function StoreSwitcher({ current, stores, section }: { current: SwitcherStore; stores: SwitcherStore[]; section: string }) {
  const others = stores.filter((store) => store.storeId !== current.storeId);
  return (
    <details className="group relative">
      <summary className="flex max-w-[16rem] cursor-pointer list-none items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 [&::-webkit-details-marker]:hidden">
        <span className="sr-only">Current store:</span>
        <span dir="auto" className="truncate">
          {current.storeName}
        </span>
        <span aria-hidden="true" className="text-slate-500 group-open:rotate-180">
          ▾
        </span>
        <span className="sr-only">Switch store</span>
      </summary>
      <nav
        aria-label="Your stores"
        className="absolute left-0 z-20 mt-1 w-64 max-w-[calc(100vw-2rem)] rounded-md border border-slate-200 bg-white py-1 shadow-lg"
      >
        <ul>
          {others.map((store) => (
            <li key={store.storeId}>
              <Link
                href={`/stores/${store.storeId}/${section}`}
                className="flex items-center justify-between gap-2 px-3 py-2 text-sm hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-none"
              >
                <span dir="auto" className="truncate">
                  {store.storeName}
                </span>
                {installStateNotice(store.state) ? <span className="text-xs text-amber-700">needs attention</span> : null}
              </Link>
            </li>
          ))}
          {others.length === 0 ? <li className="px-3 py-2 text-sm text-slate-500">No other store in this session.</li> : null}
          <li className="border-t border-slate-100">
            <Link href="/stores" className="block px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-none">
              All stores
            </Link>
          </li>
          <li>
            <a href="/install" className="block px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-none">
              Install on another store
            </a>
          </li>
        </ul>
      </nav>
    </details>
  );
}
