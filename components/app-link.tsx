"use client";

// The context useRouter() reads, read directly: outside an App Router (a component rendered on its own, as the
// install-states test does) it is null and the link stays a plain link, where useRouter() would throw.
import { AppRouterContext } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { useContext, useTransition, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from "react";

/** A plain left click on a link that opens here: anything else (new tab, window, download, another target) stays the browser's. */
function isPlainClick(event: MouseEvent, target: string | undefined, download: boolean): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    !event.altKey &&
    (!target || target === "_self") &&
    !download
  );
}

/**
 * A link inside the app: a real `<a href>` (it works before and without JavaScript, opens in a new tab, shows its
 * address) whose plain left click navigates through the App Router, as next/link does, keeping the layouts and
 * their state. It replaces next/link because that costs 3.3 kB gzipped on every page's first load (its prefetching
 * machinery), more than the whole budget of 3 kB over an empty page, and every page here renders per request, so
 * there is nothing for a prefetch to fetch ahead. The router itself is already part of the framework's code.
 */
export function AppLink({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const router = useContext(AppRouterContext);
  // Pending from the click until the next page is shown: app/globals.css draws the bar for [data-navigating].
  const [navigating, startNavigation] = useTransition();
  return (
    <a
      {...rest}
      href={href}
      data-navigating={navigating || undefined}
      onClick={(event) => {
        onClick?.(event);
        if (router === null || !isPlainClick(event, rest.target, rest.download !== undefined)) return;
        event.preventDefault();
        startNavigation(() => router.push(href));
      }}
    />
  );
}

/**
 * AppLink for every plain `<a href="/…">` inside it, by one listener: for lists of links rendered on the server
 * (the orders table), where an AppLink per row would repeat a client component's props in every row's payload.
 */
export function AppLinks({ className, children }: { className?: string; children: ReactNode }) {
  const router = useContext(AppRouterContext);
  const [navigating, startNavigation] = useTransition();
  return (
    <div
      className={className}
      data-navigating={navigating || undefined}
      onClick={(event) => {
        const anchor = event.target instanceof Element ? event.target.closest("a") : null;
        const href = anchor?.getAttribute("href");
        // Only the app's own paths: another origin, or a protocol-relative //host, leaves through the browser.
        if (!router || !anchor || !href?.startsWith("/") || href.startsWith("//")) return;
        if (!isPlainClick(event, anchor.target, anchor.hasAttribute("download"))) return;
        event.preventDefault();
        startNavigation(() => router.push(href));
      }}
    >
      {children}
    </div>
  );
}
