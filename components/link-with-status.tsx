import Link from "next/link";
import type { ComponentProps } from "react";
import { LinkStatus } from "@/components/client-navigation";

/**
 * The app's links: next/link (client-side navigation that keeps the layouts and their state, a real `<a href>` that
 * works before and without JavaScript), with the navigation bar while the next page is on its way. The pages render
 * per request and have no `loading.tsx`, so a click waits for the server's answer: the bar says the tap took.
 * Usable from server and client components alike.
 *
 * Not prefetched unless a caller asks: of a page rendered per request without a `loading.tsx`, Next prefetches
 * nothing the click can use (it asks the server again on the click), yet each link in view cost two requests and
 * their processing on the phone's main thread as the page loaded: on the orders page, eight requests and about a
 * tenth of the load's main-thread time (docs/benchmarks.md, "Where a phone's main thread goes").
 */
export function LinkWithStatus({ children, prefetch = false, ...props }: ComponentProps<typeof Link>) {
  return (
    <Link prefetch={prefetch} {...props}>
      {children}
      <LinkStatus />
    </Link>
  );
}
