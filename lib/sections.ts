/**
 * The store's sections: the one list the navigation, the store card, the store switcher, the requested scopes
 * (PAGE_SCOPES in lib/env.ts) and every store URL (storeHref) are made from. A new section is one entry here, its
 * page under app/stores/[storeId]/<segment>/, its messages and its test (README, "Add a store section").
 *
 * Plain data with no imports: lib/env.ts, client components and the browser tests' environment all read it.
 */

type SectionEntry = {
  /** The name code uses for the section (storeHref, storePage). */
  slug: string;
  /** The URL segment under /stores/{id}; "" for the store's home. */
  segment: string;
  /** Message key of its name in the navigation and on the store card. */
  label: string;
  /** Message key of its page heading and document title. */
  title: string;
  /** The platform scopes its page calls with; the app requests the union of every section's (PAGE_SCOPES). */
  scopes: readonly string[];
  /**
   * True when the page reads the platform: a store the app no longer reaches (any state but connected) has nothing
   * to show there, so the store card leaves the link out. False when it reads the app's own database.
   */
  needsConnection: boolean;
};

export const SECTIONS = [
  { slug: "overview", segment: "", label: "Shell.overview", title: "Overview.title", scopes: ["analytics:read"], needsConnection: true },
  // Orders also feed the webhooks and the order sync, which need the same scope.
  { slug: "orders", segment: "orders", label: "Shell.orders", title: "Orders.title", scopes: ["orders:read"], needsConnection: false },
  {
    slug: "categories",
    segment: "categories",
    label: "Shell.categories",
    title: "Categories.title",
    scopes: ["products:read", "products:write"],
    needsConnection: true,
  },
  {
    slug: "customers",
    segment: "customers",
    label: "Shell.customers",
    title: "Customers.title",
    scopes: ["customers:read"],
    needsConnection: true,
  },
] as const satisfies readonly SectionEntry[];

export type Section = (typeof SECTIONS)[number];
export type SectionSlug = Section["slug"];

/** The scopes the pages use: development asks for exactly these, .env.example recommends them for production. */
export const PAGE_SCOPES: readonly string[] = [...new Set(SECTIONS.flatMap((section) => section.scopes))];

/** Where the store switcher sends the merchant: the first section any store opens, connected or not. */
export const SWITCHER_SECTION: SectionSlug = SECTIONS.find((section) => !section.needsConnection)?.slug ?? "overview";

export function sectionOf(slug: SectionSlug): Section {
  return SECTIONS.find((section) => section.slug === slug) as Section;
}

/** A section, or a section and the path below it (["orders", orderId] for an order's page). */
export type SectionPath = SectionSlug | readonly [SectionSlug, ...(string | number)[]];

/** A query string's values; empty ones are left out, so URLs stay short and shareable. */
export type HrefQuery = Record<string, string | number | null | undefined>;

/**
 * Every URL of a store's pages is built here: `/stores/{id}[/{segment}[/{more}]][?query]`, each part encoded.
 * storeHref(7) is the store's home, storeHref(7, "orders", { status: "new" }) its new orders,
 * storeHref(7, ["orders", 42]) one order.
 */
export function storeHref(storeId: number | string, path: SectionPath = "overview", query?: HrefQuery): string {
  const [slug, ...rest] = typeof path === "string" ? [path] : path;
  const parts = [sectionOf(slug).segment, ...rest.map(String)].filter((part) => part !== "");
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined && value !== "") search.set(name, String(value));
  }
  const tail = parts.map((part) => `/${encodeURIComponent(part)}`).join("");
  const queryString = search.toString();
  return `/stores/${encodeURIComponent(String(storeId))}${tail}${queryString ? `?${queryString}` : ""}`;
}
