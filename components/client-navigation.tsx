"use client";

import { useLinkStatus } from "next/link";
import { useLayoutEffect, useRef, type ReactNode } from "react";

/**
 * What the browser does around navigations without a page load. One module on purpose: Next loads the client code
 * of app/not-found.tsx with every page, and that page's links already bring this module; a module of its own for
 * ForThisPathOnly made a chunk of its own that repeated next/link on every page's first load.
 */

/**
 * Inside a next/link: while the navigation it started is in flight, a hidden marker that app/globals.css turns into
 * the bar along the top of the viewport (`body:has([data-navigating])`). Nothing is rendered otherwise, so it costs
 * no layout and no shift; a screen reader never meets it.
 */
export function LinkStatus() {
  const { pending } = useLinkStatus();
  return pending ? <span data-navigating="" hidden /> : null;
}

/** Both sides of a comparison in the URL parser's own encoding, so "/a b" and "/a%20b" are one path. */
const samePath = (a: string, b: string) => new URL(a, "http://n").pathname === new URL(b, "http://n").pathname;

/** The path this tab last loaded afresh for a stale answer, until an answer written for it is shown. */
const RELOADED_FOR = "app:reloaded-for";

/**
 * An answer the server wrote for one path, shown only on that path. Next renders app/not-found.tsx with every page,
 * shown or not, and the browser keeps what it rendered: a later navigation without a page load that the root's 404
 * answers (the store switcher's link to a store uninstalled meanwhile) would show the answer written for the page
 * first loaded, naming that page's store and return path instead of the one refused. On another path, or with no
 * answer written (app/not-found.tsx writes none on a store the guard lets through), the answer is hidden before it is
 * painted, a notice says the page is being checked, and the page loads afresh, so the server explains the store
 * refused, with its 404 status. The page loads afresh once per path, whatever it holds: were the fresh load to
 * disagree too (the server naming paths otherwise than the address bar, a basePath) its answer stands, and were it
 * to write no answer again (a path no page of a held store serves, before app/stores/[storeId]/[...unknown]) the
 * plain `missing` text stands, rather than a reload loop. An answer written for its own path clears the mark.
 */
export function ForThisPathOnly({ path, checking, missing, children }: { path: string; checking: string; missing: string; children?: ReactNode }) {
  const answer = useRef<HTMLDivElement>(null);
  const notice = useRef<HTMLParagraphElement>(null);
  const gone = useRef<HTMLParagraphElement>(null);
  const written = children !== null && children !== undefined;
  // A layout effect: after the router has written the new address (in an insertion effect), before the browser
  // paints the stale answer.
  useLayoutEffect(() => {
    const here = location.pathname;
    const standWithout = () => {
      if (written) return;
      answer.current!.hidden = true;
      gone.current!.hidden = false;
    };
    try {
      if (written && samePath(here, path)) return sessionStorage.removeItem(RELOADED_FOR);
      if (sessionStorage.getItem(RELOADED_FOR) === here) return standWithout();
      sessionStorage.setItem(RELOADED_FOR, here);
    } catch {
      // No storage to guard a loop with (a locked-down browser): what was written stands, as it was.
      return standWithout();
    }
    answer.current!.hidden = true;
    notice.current!.hidden = false;
    location.reload();
  }, [path, written]);
  return (
    <>
      <div ref={answer}>{children}</div>
      <p ref={notice} hidden role="status" className="mx-auto max-w-lg px-6 py-24 text-slate-600">
        {checking}
      </p>
      <p ref={gone} hidden role="status" className="mx-auto max-w-lg px-6 py-24 text-slate-600">
        {missing}
      </p>
    </>
  );
}
