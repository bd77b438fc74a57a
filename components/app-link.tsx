"use client";

// The context useRouter() reads, read directly: outside an App Router (a component rendered on its own, as the
// install-states test does) it is null and the link stays a plain link, where useRouter() would throw.
import { AppRouterContext } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { useContext, type AnchorHTMLAttributes } from "react";

/**
 * A link inside the app: a real `<a href>` (it works before and without JavaScript, opens in a new tab, shows its
 * address) whose plain left click navigates through the App Router, as next/link does, keeping the layouts and
 * their state. It replaces next/link because that costs 3.3 kB gzipped on every page's first load (its prefetching
 * machinery), more than the whole budget of 3 kB over an empty page, and every page here renders per request, so
 * there is nothing for a prefetch to fetch ahead. The router itself is already part of the framework's code.
 */
export function AppLink({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const router = useContext(AppRouterContext);
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        onClick?.(event);
        // Anything but a plain left click (new tab, new window, download, another target) stays the browser's.
        if (
          router === null ||
          event.defaultPrevented ||
          event.button !== 0 ||
          event.metaKey ||
          event.ctrlKey ||
          event.shiftKey ||
          event.altKey ||
          (rest.target && rest.target !== "_self") ||
          rest.download !== undefined
        ) {
          return;
        }
        event.preventDefault();
        router.push(href);
      }}
    />
  );
}
