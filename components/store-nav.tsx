"use client";

import { LinkWithStatus } from "@/components/link-with-status";
import { usePathname } from "next/navigation";

/** One link of the store's navigation, its label already in the merchant's language. */
export type StoreNavLink = {
  href: string;
  label: string;
  exact: boolean;
  /** Set when the section waits for a permission the store has not granted: the words read after its name. */
  locked?: string;
};

/**
 * The store's sections (the layout makes the links from lib/sections.ts); the current one is marked for assistive
 * technology (aria-current) as well as visually. The labels arrive translated, so a new section needs no message
 * handed to the browser.
 */
export function StoreNav({ label, links }: { label: string; links: StoreNavLink[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className="flex flex-wrap gap-1">
      {links.map((link) => {
        const current = pathname === link.href || (!link.exact && pathname.startsWith(`${link.href}/`));
        return (
          <LinkWithStatus
            key={link.href}
            href={link.href}
            aria-current={current ? "page" : undefined}
            className="nav-link"
          >
            {link.label}
            {link.locked ? (
              <span data-locked className="ms-1 rounded bg-amber-100 px-1 text-xs font-medium text-amber-900">
                {link.locked}
              </span>
            ) : null}
          </LinkWithStatus>
        );
      })}
    </nav>
  );
}
