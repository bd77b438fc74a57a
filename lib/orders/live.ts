import "server-only";
import { createHash } from "node:crypto";
import type { DbOrTx } from "@/db/client";
import { listOrdersPage, type OrderListPage, type OrderListRow } from "@/db/queries/order-views";
import type { SessionInstall } from "@/db/queries/sessions";
import type { OrderBackfill } from "@/db/schema";
import type { CurrentSession } from "@/lib/session";
import { installInSession } from "@/lib/tenancy";
import { hasUnknownCursor, orderListOptions, parseOrderFilters, type OrderFilters } from "./filters";

/**
 * An open orders page stays current by asking "has what I show changed?" every few seconds, and is rendered again
 * only when it has (components/refresh-while-visible.tsx). Rendering the whole page on every tick costs the server
 * a full render and the merchant's phone the page's payload every few seconds per open tab; the
 * question costs the page's two statements and an answer of no content.
 */

/** Everything an orders page shows from the database: the session's stores (switcher, banner), the import notice, the rows. */
export type OrdersPageView = {
  installs: readonly SessionInstall[];
  backfill: OrderBackfill | null;
  page: OrderListPage;
};

/**
 * Each column the list shows, as text: the mapped type makes a column added to OrderListRow fail to compile until
 * it is added here, so the version cannot miss it.
 */
const ROW_TEXT: { [Column in keyof OrderListRow]-?: (value: OrderListRow[Column]) => string } = {
  id: String,
  orderNumber: String,
  createdAt: (value) => String(value.getTime()),
  customerName: (value) => value ?? "",
  customerPhone: (value) => value ?? "",
  wilayaName: (value) => value ?? "",
  total: (value) => value ?? "",
  status: String,
};
const COLUMNS = Object.keys(ROW_TEXT) as (keyof OrderListRow)[];

/**
 * A short digest of what the page shows: any change a reload would show (a new order, a status, a store
 * disconnected, the import's progress) gives another. It travels in the page's HTML, so it holds nothing the page
 * does not already show. Written out field by field: JSON.stringify of the page (its dates above all) costs about
 * twice as much on every render.
 */
export function ordersPageVersion(view: OrdersPageView): string {
  let text = "";
  for (const install of view.installs) text += `${install.storeId}\u0000${install.storeName}\u0000${install.state}\n`;
  const backfill = view.backfill;
  text += backfill ? `${backfill.status}\u0000${backfill.imported}\u0000${backfill.finishedAt?.getTime() ?? ""}\n` : "\n";
  for (const row of view.page.rows) {
    for (const column of COLUMNS) text += `${(ROW_TEXT[column] as (value: unknown) => string)(row[column])}\u0000`;
    text += "\n";
  }
  text += view.page.nextCursor ?? "";
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

/** The query string of the probe for a page with these filters, carrying the version the page was rendered at. */
export function ordersProbeHref(storeId: number, filters: OrderFilters, version: string): string {
  const query = new URLSearchParams();
  if (filters.status) query.set("status", filters.status);
  if (filters.phone) query.set("phone", filters.phone);
  if (filters.cursor) query.set("cursor", filters.cursor);
  query.set("v", version);
  return `/api/stores/${storeId}/orders/version?${query}`;
}

export type OrdersPageCheck =
  | { outcome: "unchanged" }
  | { outcome: "changed"; version: string }
  /** What the page itself answers 404 to: a store this session may not open, or a page marker this app never wrote. */
  | { outcome: "not_found" };

/**
 * The probe's answer, for a session already read (lib/session.ts currentSession, which also ends an expired one):
 * the same guard (lib/tenancy.ts) and the same statement as the page, so "unchanged" means a reload would show
 * the same page.
 */
export async function checkOrdersPage(
  db: DbOrTx,
  session: CurrentSession | null,
  storeIdParam: string,
  query: Record<string, string | string[] | undefined>,
  seenVersion: string | null,
): Promise<OrdersPageCheck> {
  const install = installInSession(session, storeIdParam);
  if (!session || !install) return { outcome: "not_found" };
  const filters = parseOrderFilters(query);
  if (hasUnknownCursor(filters)) return { outcome: "not_found" };
  const page = await listOrdersPage(db, install.storeId, orderListOptions(filters));
  const version = ordersPageVersion({ installs: session.installs, backfill: session.backfills.get(install.storeId) ?? null, page });
  return version === seenVersion ? { outcome: "unchanged" } : { outcome: "changed", version };
}
