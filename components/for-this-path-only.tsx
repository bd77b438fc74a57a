"use client";

import { usePathname } from "next/navigation";
import { useEffect, type ReactNode } from "react";

/** Both sides of a comparison in the URL parser's own encoding, so "/a b" and "/a%20b" are one path. */
function samePath(a: string, b: string): boolean {
  const canonical = (value: string) => new URL(value, "http://path.invalid").pathname;
  return canonical(a) === canonical(b);
}

/**
 * An answer the server wrote for one path, shown only on that path. Next renders app/not-found.tsx with every page,
 * shown or not, and the browser keeps what it rendered: a later navigation without a page load that the root's 404
 * answers (the store switcher's link to a store uninstalled meanwhile) would show the answer written for the page
 * first loaded, naming that page's store and return path instead of the one refused. On any other path this loads
 * the page afresh, so the server explains the store refused, with its 404 status.
 */
export function ForThisPathOnly({ path, checking, children }: { path: string; checking: string; children: ReactNode }) {
  const routerPath = usePathname();
  const stale = !samePath(routerPath, path);
  useEffect(() => {
    if (!stale) return;
    // The router has written the new address by the time effects run; were it somehow still the old one, a reload
    // would load the page this answer was written for, so the router's path is loaded instead.
    if (samePath(window.location.pathname, routerPath)) window.location.reload();
    else window.location.assign(routerPath);
  }, [stale, routerPath]);
  return stale ? (
    <p role="status" className="mx-auto max-w-lg px-6 py-24 text-slate-600">
      {checking}
    </p>
  ) : (
    children
  );
}
