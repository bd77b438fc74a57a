import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * The states an install's row can hold: the platform's 403 codes plus the two the app records itself
 * (`uninstalled`, `revoked`). What each means (may it call, is it polled, what the merchant reads) is decided in
 * lib/installs/state.ts, which hands this list on.
 */
export const INSTALL_STATES = ["active", "app_suspended", "app_plan_required", "app_not_approved", "revoked", "uninstalled"] as const;

export type InstallState = (typeof INSTALL_STATES)[number];

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/**
 * One row per store the app is installed on. The platform's install_id is stable per app and store, and a new
 * install on the same store replaces the token, so the store id is the key and everything else is upserted.
 */
export const installs = pgTable(
  "installs",
  {
    storeId: integer("store_id").primaryKey(),
    installId: integer("install_id").notNull(),
    storeName: text("store_name").notNull(),
    scopes: text("scopes").array().notNull().default(sql`'{}'::text[]`),
    /** One of INSTALL_STATES; what each means is in lib/installs/state.ts. */
    state: text("state").$type<InstallState>().notNull().default("active"),
    stateChangedAt: timestamp("state_changed_at", { withTimezone: true }).notNull().defaultNow(),
    /** AES-256-GCM of the access token: base64(iv | ciphertext | tag). Null once the token is destroyed. */
    tokenCiphertext: text("token_ciphertext"),
    /** Which key encrypted it, so keys can be rotated (`npm run tokens:rotate`). */
    tokenKeyId: text("token_key_id"),
    installedAt: timestamp("installed_at", { withTimezone: true }).notNull().defaultNow(),
    uninstalledAt: timestamp("uninstalled_at", { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex("installs_install_id_key").on(table.installId)],
);

/** Every webhook event id ever applied: the unique key is what makes redelivered events a no-op. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    event: text("event").notNull(),
    storeId: integer("store_id").notNull(),
    deliveryId: text("delivery_id"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("webhook_events_store_idx").on(table.storeId, table.receivedAt)],
);

export const orders = pgTable(
  "orders",
  {
    storeId: integer("store_id").notNull(),
    id: bigint("id", { mode: "number" }).notNull(),
    orderNumber: text("order_number").notNull(),
    storeSeq: integer("store_seq"),
    status: text("status").notNull(),
    paymentStatus: text("payment_status"),
    paymentMethod: text("payment_method"),
    deliveryType: text("delivery_type"),
    deskName: text("desk_name"),
    customerName: text("customer_name"),
    /** The phone exactly as the platform sent it: what the pages show. */
    customerPhone: text("customer_phone"),
    /** What phones are matched on, one key for every spelling of a number (lib/phone.ts phoneKey decides it). */
    customerPhoneKey: text("customer_phone_key"),
    customerEmail: text("customer_email"),
    wilayaId: integer("wilaya_id"),
    wilayaName: text("wilaya_name"),
    commune: text("commune"),
    address: text("address"),
    subtotal: numeric("subtotal", { precision: 14, scale: 2 }),
    shippingCost: numeric("shipping_cost", { precision: 14, scale: 2 }),
    discount: numeric("discount", { precision: 14, scale: 2 }),
    total: numeric("total", { precision: 14, scale: 2 }),
    promoCode: text("promo_code"),
    customerNotes: text("customer_notes"),
    trackingNumber: text("tracking_number"),
    deliveryCompany: text("delivery_company"),
    /** The platform's own timestamps: updated_at decides whether an incoming copy is newer than the stored one. */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    /** Fields the platform sends that this schema does not model yet, kept so nothing is lost. */
    extra: jsonb("extra").$type<Record<string, unknown>>(),
    syncedAt: timestamp("synced_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.storeId, table.id] }),
    index("orders_store_created_idx").on(table.storeId, table.createdAt.desc(), table.id.desc()),
    index("orders_store_status_created_idx").on(table.storeId, table.status, table.createdAt.desc(), table.id.desc()),
    index("orders_store_phone_key_idx").on(table.storeId, table.customerPhoneKey),
  ],
);

export const orderItems = pgTable(
  "order_items",
  {
    storeId: integer("store_id").notNull(),
    orderId: bigint("order_id", { mode: "number" }).notNull(),
    position: integer("position").notNull(),
    productId: bigint("product_id", { mode: "number" }),
    variantId: bigint("variant_id", { mode: "number" }),
    productName: text("product_name"),
    variantName: text("variant_name"),
    sku: text("sku"),
    price: numeric("price", { precision: 14, scale: 2 }),
    quantity: integer("quantity"),
    total: numeric("total", { precision: 14, scale: 2 }),
    source: text("source"),
  },
  (table) => [primaryKey({ columns: [table.storeId, table.orderId, table.position] })],
);

/** Status history of an order, one row per status reached (the platform sends each status event at most once). */
export const orderStatusHistory = pgTable(
  "order_status_history",
  {
    id: serial("id").primaryKey(),
    storeId: integer("store_id").notNull(),
    orderId: bigint("order_id", { mode: "number" }).notNull(),
    status: text("status").notNull(),
    previousStatus: text("previous_status"),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
    eventId: text("event_id"),
    recordedAt: createdAt(),
  },
  (table) => [uniqueIndex("order_status_history_once_idx").on(table.storeId, table.orderId, table.status)],
);

/**
 * Request budgets shared by every app instance: one row per bucket and clock minute. The platform's windows are
 * fixed and reset at each clock minute, so a counter per minute mirrors them exactly.
 */
export const rateBuckets = pgTable(
  "rate_buckets",
  {
    bucket: text("bucket").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    used: integer("used").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.bucket, table.windowStart] })],
);

/**
 * Per-store order polling progress. One poller per store is the job engine's business (lib/jobs: a singleton per
 * store), so this holds only the mark and the last outcome.
 */
export const orderSyncState = pgTable("order_sync_state", {
  storeId: integer("store_id").primaryKey(),
  lastSyncedAt: timestamp("last_synced_at", { withTimezone: true }),
  /**
   * Created-at high-water mark passed as `since` on the next poll. It only moves once every order below it is
   * stored: at the end of a complete backfill or a complete poll, never after a partial one.
   */
  sinceCursor: timestamp("since_cursor", { withTimezone: true }),
  lastError: text("last_error"),
  updatedAt: updatedAt(),
});

/**
 * A store's full order import (lib/jobs/backfill.ts), page by page. The platform's cursor is saved after each
 * page, so a failed or killed import resumes from the page it reached. `runId` tells a re-install's new import
 * from a late chunk of the previous one.
 */
export const orderBackfills = pgTable("order_backfills", {
  storeId: integer("store_id").primaryKey(),
  runId: text("run_id").notNull(),
  /** running | done | failed (failed: retries ran out; the merchant may start it again from the saved cursor). */
  status: text("status").notNull(),
  /** The next page to read; null before the first page. */
  cursor: text("cursor"),
  pages: integer("pages").notNull().default(0),
  imported: integer("imported").notNull().default(0),
  /** The newest created_at seen (the first page's): the polling mark once the import is complete. */
  newestCreatedAt: timestamp("newest_created_at", { withTimezone: true }),
  lastError: text("last_error"),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  updatedAt: updatedAt(),
});

/**
 * One row per signed-in browser. The cookie carries a random secret; only its SHA-256 is stored here, so a copy of
 * this table opens no session. Deleting the row ends the session on the server: every copy of the cookie stops
 * working at once (sign out, sign out everywhere, expiry).
 */
export const sessions = pgTable("sessions", {
  id: text("id").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  /** Moved at most once a minute (see lib/session-policy.ts), so reading pages does not mean writing rows. */
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull(),
});

/**
 * The stores a session may open: each one the merchant chose on the platform's consent screen in that browser.
 * An uninstall deletes the store's rows (every session loses it at once, the others keep theirs); purging a store
 * deletes its install row and, through the foreign key, these.
 */
export const sessionStores = pgTable(
  "session_stores",
  {
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    storeId: integer("store_id")
      .notNull()
      .references(() => installs.storeId, { onDelete: "cascade" }),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.storeId] }), index("session_stores_store_idx").on(table.storeId)],
);

/**
 * Why a browser lost a store it held, kept after its session (or its hold on the store) ended: the browser that
 * still presents that session's cookie is told what happened (app/not-found.tsx), while a browser that never held
 * the store gets the plain 404. Keyed by the session's id (the hash of its secret), never the secret. No foreign
 * keys: the session row is gone by the time this one matters, and a purged store's rows are cleared with it.
 */
export const endedGrants = pgTable(
  "ended_grants",
  {
    sessionId: text("session_id").notNull(),
    storeId: integer("store_id").notNull(),
    /** signed_out | signed_out_everywhere | expired | store_closed (lib/lost-access.ts reads them). */
    reason: text("reason").notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.storeId] }), index("ended_grants_ended_idx").on(table.endedAt)],
);

/**
 * A session replaced by a later consent in the same browser (or with a copy of its cookie), and the session that
 * replaced it. A sign-out presented with the replaced session's cookie follows these rows and ends the replacing
 * sessions too. A row lives as long as the replaced session's cookie could still be presented (its 12 hours).
 */
export const sessionReplacements = pgTable("session_replacements", {
  replacedId: text("replaced_id").primaryKey(),
  replacingId: text("replacing_id").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/**
 * Install `state` values already presented to the callback, as SHA-256, kept for the attempt's 10 minutes: a
 * replayed callback (a copied attempt cookie) is refused before it reaches the token endpoint.
 */
export const spentInstallStates = pgTable("spent_install_states", {
  stateHash: text("state_hash").primaryKey(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/**
 * The job queue's one drain on a serverless host (JOBS_WORKER=requests, lib/jobs/drain-lease.ts): a lease a drain
 * holds until its function's time limit, so at most one drain works the queue at a time across every instance, and
 * the moment a page view last asked for one, so a burst of views asks once. A row, not a session advisory lock: a
 * pooler in transaction mode (PgBouncer, Neon's pooled URL) does not keep a session's lock, and a lease ends by
 * itself when the platform kills its holder.
 */
export const jobDrain = pgTable("job_drain", {
  name: text("name").primaryKey(),
  holder: text("holder"),
  heldUntil: timestamp("held_until", { withTimezone: true }).notNull(),
  askedAt: timestamp("asked_at", { withTimezone: true }),
});

/**
 * The deployments that migrated this database: their environment (Vercel's VERCEL_ENV, or NODE_ENV) and APP_URL,
 * written by `npm run db:migrate`. The doctor reads it to warn when a preview shares a database with another
 * environment (lib/doctor).
 */
export const appEnvironments = pgTable(
  "app_environments",
  {
    environment: text("environment").notNull(),
    appUrl: text("app_url").notNull(),
    migratedAt: timestamp("migrated_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.environment, table.appUrl] })],
);

export type Install = typeof installs.$inferSelect;
export type NewInstall = typeof installs.$inferInsert;
export type Order = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type OrderItem = typeof orderItems.$inferSelect;
export type NewOrderItem = typeof orderItems.$inferInsert;
export type OrderStatusChange = typeof orderStatusHistory.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type WebhookEventRecord = typeof webhookEvents.$inferSelect;
export type OrderBackfill = typeof orderBackfills.$inferSelect;
