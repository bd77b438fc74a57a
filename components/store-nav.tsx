"use client";

import { AppLink } from "@/components/app-link";
import { usePathname } from "next/navigation";
import { useT } from "@/components/i18n/client-messages";

/** The store's sections; the current one is marked for assistive technology (aria-current) as well as visually. */
export function StoreNav({ storeId }: { storeId: number }) {
  const pathname = usePathname();
  const t = useT();
  const sections = [
    { href: `/stores/${storeId}`, label: t("Shell.overview"), exact: true },
    { href: `/stores/${storeId}/orders`, label: t("Shell.orders") },
    { href: `/stores/${storeId}/categories`, label: t("Shell.categories") },
  ];
  return (
    <nav aria-label={t("Shell.sections")} className="flex flex-wrap gap-1">
      {sections.map((section) => {
        const current = pathname === section.href || (!section.exact && pathname.startsWith(`${section.href}/`));
        return (
          <AppLink
            key={section.href}
            href={section.href}
            aria-current={current ? "page" : undefined}
            className={`inline-flex min-h-11 items-center rounded-md px-3 py-1.5 text-sm font-medium sm:min-h-0 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 ${
              current ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-200"
            }`}
          >
            {section.label}
          </AppLink>
        );
      })}
    </nav>
  );
}
