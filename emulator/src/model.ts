/**
 * The emulator's whole state, as plain JSON-serialisable data so it can be persisted to `.data/emulator/state.json`
 * and restored after a restart. Every module reads and mutates this through an EmulatorContext.
 * Times are ISO strings on the emulator's clock (which may run faster than real time, or be advanced).
 */

export type Plan = "free" | "basic" | "pro" | "enterprise";
export const PLAN_RANK: Record<Plan, number> = { free: 0, basic: 1, pro: 2, enterprise: 3 };

export type AppStatus = "draft" | "in_review" | "approved" | "rejected" | "suspended";

export type Merchant = {
  id: number;
  name: string;
  email: string;
};

export type Store = {
  id: number;
  name: string;
  ownerMerchantId: number;
  /** Merchants who are team members (not owners) of this store. */
  teamMerchantIds: number[];
  plan: Plan;
  /** A paid plan past this date counts as below any minimum plan. ISO date or null. */
  planExpiresAt: string | null;
  /** Per-store REST limit override (requests per minute); null means the enterprise budget of 600. */
  rateLimitPerMinute: number | null;
  /** Monthly request quota set for the store, or null for none (402 quota_exceeded when reached). */
  monthlyQuota: number | null;
  messagingWalletBalance: number;
  /**
   * Whether analytics answers keep their revenue figures for app tokens (the spec removes them unless the key
   * belongs to the store owner, and leaves open whose key an install token is). Absent means removed.
   */
  analyticsRevenueVisible?: boolean;
};

export type App = {
  id: number;
  name: string;
  clientId: string;
  clientSecret: string;
  developerMerchantId: number;
  status: AppStatus;
  minimumPlan: Plan;
  /** Registered redirect URIs, compared character for character. */
  redirectUris: string[];
  /** Scopes registered on the app (what an empty `scope` requests). */
  scopes: string[];
  /**
   * Emulator only, for trying a section that adds a scope: scopes every consent leaves out of the grant, as if the
   * store had been installed by the app's older version with its older scope list. Absent or empty: none.
   */
  withheldScopes?: string[];
  webhook: {
    url: string;
    secret: string;
    verified: boolean;
    /** Disabled after 10 consecutive failed attempts; re-enabled by a successful verify. */
    disabled: boolean;
    consecutiveFailures: number;
  };
};

export type Install = {
  id: number;
  appId: number;
  storeId: number;
  scopes: string[];
  /** Current token; older tokens of the install are revoked the moment a new one is issued. */
  accessToken: string;
  keyId: string;
  active: boolean;
  installedAt: string;
  uninstalledAt: string | null;
};

export type ConsentRequest = {
  id: string;
  appId: number;
  merchantId: number | null;
  redirectUri: string;
  scopes: string[];
  state: string;
  codeChallenge: string;
  createdAt: string;
  answered: boolean;
};

export type AuthorizationCode = {
  code: string;
  appId: number;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  storeIds: number[];
  merchantId: number;
  createdAt: string;
  used: boolean;
};

export type CategoryStatus = "active" | "inactive";

export type Category = {
  id: number;
  storeId: number;
  name: string;
  slug: string;
  status: CategoryStatus;
  parentId: number | null;
  sortOrder: number;
  productCount: number;
  createdAt: string;
  updatedAt: string;
};

export type Customer = {
  id: number;
  storeId: number;
  name: string;
  phone: string;
  email: string | null;
  wilayaId: number | null;
  createdAt: string;
};

export type OrderStatus = "pending" | "confirmed" | "processing" | "shipped" | "delivered" | "cancelled" | "returned";

export type OrderItem = {
  product_id: number;
  variant_id: number | null;
  product_name: string;
  variant_name: string | null;
  sku: string | null;
  price: number;
  quantity: number;
  total: number;
  source: string;
};

/** Field names as the platform sends them (snake_case), so webhook payloads and list items are built directly. */
export type Order = {
  id: number;
  store_id: number;
  order_number: string;
  store_seq: number;
  status: OrderStatus;
  payment_status: string;
  payment_method: string;
  delivery_type: string;
  desk_name: string | null;
  customer_name: string;
  customer_phone: string;
  customer_email: string | null;
  wilaya_id: number;
  wilaya_name: string;
  commune: string;
  address: string;
  subtotal: number;
  shipping_cost: number;
  discount: number;
  total: number;
  promo_code: string | null;
  customer_notes: string | null;
  tracking_number: string | null;
  delivery_company: string | null;
  created_at: string;
  updated_at: string;
  items: OrderItem[];
};

/** What the order checker has already announced per install: each status event at most once per order. */
export type OrderEventLedger = Record<string /* `${installId}:${orderId}` */, string[] /* statuses sent */>;

export type WebhookAttempt = {
  at: string;
  status: number | null;
  error: string | null;
  durationMs: number;
  /** First 500 characters of the answer body. */
  responseSnippet: string;
};

export type DeliveryState = "pending" | "succeeded" | "dead" | "dropped";

export type WebhookDelivery = {
  id: string;
  eventId: string;
  event: string;
  installId: number | null;
  storeId: number;
  /** The exact JSON body sent on every attempt. */
  body: string;
  state: DeliveryState;
  attempts: WebhookAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
  droppedReason: string | null;
};

export type IdempotencyRecord = {
  /** `${keyId}:${idempotencyKey}` */
  key: string;
  method: string;
  path: string;
  bodyHash: string;
  status: number;
  responseBody: string;
  storedAt: string;
};

/** The merchant's change history: category create, update and delete (reorder is not recorded; undo stays with the merchant). */
export type ChangeRecord = {
  id: number;
  storeId: number;
  at: string;
  action: "create" | "update" | "delete";
  entity: "category";
  entityId: number;
  before: Category | null;
  after: Category | null;
  /** Who made the change, e.g. `app:1` for an install token. */
  actor: string;
};

export type EmulatorState = {
  version: 1;
  /** Offset in milliseconds added to the scaled real clock (advance moves it forward). */
  clockOffsetMs: number;
  nextIds: Record<string, number>;
  merchants: Merchant[];
  stores: Store[];
  apps: App[];
  installs: Install[];
  /** Every token ever issued, so a revoked one answers 401 (not an unknown-token error of another kind). */
  revokedTokens: string[];
  consentRequests: ConsentRequest[];
  authorizationCodes: AuthorizationCode[];
  categories: Category[];
  customers: Customer[];
  orders: Order[];
  orderEventLedger: OrderEventLedger;
  deliveries: WebhookDelivery[];
  idempotency: IdempotencyRecord[];
  /** Monthly request counts per store: `${storeId}:${yyyy-mm}` -> count. */
  monthlyUsage: Record<string, number>;
  /** Optional so states saved before it existed still load. */
  changes?: ChangeRecord[];
};
