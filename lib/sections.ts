/**
 * The store's sections: the one list the navigation, the store card, the store switcher, the requested scopes
 * (PAGE_SCOPES) and every store URL (storeHref, storesHref) are made from, and the one reading of a store URL back
 * (storeIdOfPath). `npm run new:section` adds an entry here with its page, messages and test (docs/extending.md,
 * "Add a store section").
 *
 * Plain data and pure functions with no imports: lib/env.ts, client components and the browser tests read it.
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
// The registry always has a section that needs no connection (tested).
export const SWITCHER_SECTION: SectionSlug = SECTIONS.find((section) => !section.needsConnection)!.slug;

export function sectionOf(slug: SectionSlug): Section {
  return SECTIONS.find((section) => section.slug === slug) as Section;
}

/** A section, or a section and the path below it (["orders", orderId] for an order's page). */
export type SectionPath = SectionSlug | readonly [SectionSlug, ...(string | number)[]];

/** A query string's values; empty ones are left out, so URLs stay short and shareable. */
export type HrefQuery = Record<string, string | number | null | undefined>;

/** The store list: every URL of the app's stores starts here, and a merchant lands here after an install. */
const STORES_PATH = "/stores";

/** `?a=1&b=2` of the non-empty values, or "". Commas stay commas (`?installed=101,102` reads as written). */
function queryString(query: HrefQuery | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined && value !== "") search.set(name, String(value));
  }
  const text = search.toString().replace(/%2C/g, ",");
  return text ? `?${text}` : "";
}

/** The store list's URL: storesHref() is `/stores`, storesHref({ installed: "101,102" }) announces new installs. */
export function storesHref(query?: HrefQuery): string {
  return `${STORES_PATH}${queryString(query)}`;
}

/**
 * Every URL of a store's pages is built here: `/stores/{id}[/{segment}[/{more}]][?query]`, each part encoded.
 * storeHref(7) is the store's home, storeHref(7, "orders", { status: "new" }) its new orders,
 * storeHref(7, ["orders", 42]) one order.
 */
export function storeHref(storeId: number | string, path: SectionPath = "overview", query?: HrefQuery): string {
  const [slug, ...rest] = typeof path === "string" ? [path] : path;
  const parts = [sectionOf(slug).segment, ...rest.map(String)].filter((part) => part !== "");
  const tail = parts.map((part) => `/${encodeURIComponent(part)}`).join("");
  return `${STORES_PATH}/${encodeURIComponent(String(storeId))}${tail}${queryString(query)}`;
}

const MAX_INT4 = 2_147_483_647;

/** A store id as written in a URL: digits only, no sign, no leading zero, within the database's integer. */
export function parseStoreId(value: string): number | null {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_INT4 ? id : null;
}

/**
 * The way back out of a store URL: the store a path opens ("/stores/101/orders?status=new" is 101), or null for a
 * path outside a store (`/stores`, `/install`) or an id that cannot be a store's.
 */
export function storeIdOfPath(path: string | null | undefined): number | null {
  if (!path?.startsWith(`${STORES_PATH}/`)) return null;
  // split() always returns a first element: the text before any "/", "?" or "#".
  const segment = path.slice(STORES_PATH.length + 1).split(/[/?#]/)[0]!;
  return parseStoreId(segment);
}
