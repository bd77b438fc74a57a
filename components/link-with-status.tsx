import Link from "next/link";
import type { ComponentProps } from "react";
import { LinkStatus } from "@/components/client-navigation";

/**
 * The app's links: next/link (client-side navigation that keeps the layouts and their state, a real `<a href>` that
 * works before and without JavaScript), with the navigation bar while the next page is on its way. The pages render
 * per request and have no `loading.tsx`, so a click waits for the server's answer: the bar says the tap took.
 * Usable from server and client components alike.
 */
export function LinkWithStatus({ children, ...props }: ComponentProps<typeof Link>) {
  return (
    <Link {...props}>
      {children}
      <LinkStatus />
    </Link>
  );
}
