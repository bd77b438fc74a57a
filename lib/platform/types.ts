import "server-only";

/**
 * The app's own types for what the platform holds. The boundary (lib/platform) parses the platform's JSON with
 * zod and reshapes it into these; nothing outside lib/platform sees a raw API shape.
 */

export type CategoryStatus = "active" | "inactive";

export type Category = {
  id: number;
  name: string;
  slug: string;
  status: CategoryStatus;
  /** null for a top-level category. */
  parentId: number | null;
  sortOrder: number;
  productCount: number;
};

export type CategoryWithChildren = Category & { children: Category[] };

export type CategoryInput = {
  name: string;
  status?: CategoryStatus;
  parentId?: number | null;
};

export type CategoryPatch = Partial<CategoryInput>;

export type OrderStatus = "pending" | "confirmed" | "processing" | "shipped" | "delivered" | "cancelled" | "returned";

export type PlatformOrderItem = {
  productId: number | null;
  variantId: number | null;
  productName: string | null;
  variantName: string | null;
  sku: string | null;
  /** Money as decimal strings, exactly as the platform sent them, so nothing is lost to floating point. */
  price: string | null;
  quantity: number | null;
  total: string | null;
  source: string | null;
};

/** An order as the platform describes it (webhook `data.order` + `data.items`, or an orders list item). */
export type PlatformOrder = {
  id: number;
  storeId: number;
  orderNumber: string;
  storeSeq: number | null;
  status: string;
  paymentStatus: string | null;
  paymentMethod: string | null;
  deliveryType: string | null;
  deskName: string | null;
  customerName: string | null;
  customerPhone: string | null;
  customerEmail: string | null;
  wilayaId: number | null;
  wilayaName: string | null;
  commune: string | null;
  address: string | null;
  subtotal: string | null;
  shippingCost: string | null;
  discount: string | null;
  total: string | null;
  promoCode: string | null;
  customerNotes: string | null;
  trackingNumber: string | null;
  deliveryCompany: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Items when the source carried them; null when it did not (then stored items are left as they are). */
  items: PlatformOrderItem[] | null;
  /** Fields the platform sent that this type does not model. */
  extra: Record<string, unknown>;
};

export type Customer = {
  id: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  extra: Record<string, unknown>;
};

export type Whoami = {
  keyId: string;
  storeId: number;
  type: string;
  rateLimitTier: string;
  pilot: boolean;
  scopes: string[];
  app: { appId: number; clientId: string; installId: number } | null;
};

export type AnalyticsRange = "today" | "yesterday" | "7d" | "30d" | "this_month" | "last_month" | "this_year" | "custom";

/**
 * One part of the analytics report. The spec names the parts but not their fields, so each is read on its own:
 * `missing` when the platform sent nothing for it, `unreadable` when it sent a shape this app does not know,
 * `removed` for revenue figures the platform withholds (they are absent unless the key is the store owner's).
 */
export type ReportPart<T> = { state: "ok"; value: T } | { state: "missing" } | { state: "unreadable" } | { state: "removed" };

export type AnalyticsKpiName = "orders" | "revenue" | "averageOrderValue" | "profit" | "visitors" | "conversionRate";

export type AnalyticsKpi = {
  value: number;
  /** The previous period of the same length, when given. */
  previous: number | null;
  /** Percent against the previous period; null when the platform gives none (for example, nothing before). */
  change: number | null;
};

/** One day (or other step) of a series: `date` as the platform wrote it, usually `YYYY-MM-DD`. */
export type AnalyticsPoint = { date: string; value: number };

/** A named share (devices, traffic sources): `label` is the platform's own word, e.g. `mobile`, `facebook`. */
export type AnalyticsShare = { label: string; value: number };

/** A row of a top list: product or wilaya name as the platform wrote it (wilaya names are Arabic). */
export type AnalyticsRankRow = { name: string; count: number | null; revenue: number | null };

export type AnalyticsReport = {
  /** The period the platform computed, as it reported it (null when it did not say). */
  range: string | null;
  from: string | null;
  to: string | null;
  /** When the platform computed the figures; a cached answer (up to 120 s) repeats the first computation's time. */
  generatedAt: Date | null;
  kpis: Record<AnalyticsKpiName, ReportPart<AnalyticsKpi>>;
  /** True when the platform withheld revenue figures (the token's owner is not the store owner). */
  revenueRemoved: boolean;
  charts: {
    orders: ReportPart<AnalyticsPoint[]>;
    revenue: ReportPart<AnalyticsPoint[]>;
    visitors: ReportPart<AnalyticsPoint[]>;
    devices: ReportPart<AnalyticsShare[]>;
    trafficSources: ReportPart<AnalyticsShare[]>;
    topProducts: ReportPart<AnalyticsRankRow[]>;
    topWilayas: ReportPart<AnalyticsRankRow[]>;
  };
};

export type Page<T> = { items: T[]; nextCursor: string | null; hasMore: boolean };

/** One store entry of a token exchange: the app keeps one token per store. */
export type InstalledStore = {
  storeId: number;
  storeName: string;
  installId: number;
  accessToken: string;
};

export type TokenExchangeResult = {
  scopes: string[];
  stores: InstalledStore[];
};
