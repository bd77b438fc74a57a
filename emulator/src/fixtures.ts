import { FIRST_NAMES, LAST_NAMES, STORE_THEMES, WILAYAS } from "./catalog";
import { DEV_APP } from "@/lib/dev-app";
import { redirectUriOf, webhookUrlOf } from "@/lib/webhook-url/app-urls";
import { nextId } from "./ids";
import type { App, Category, Customer, EmulatorState, Merchant, Store } from "./model";
import { ORDER_STATUSES, buildOrder } from "./order-factory";
import { slugify, uniqueSlug } from "./slug";
import { seededRandom } from "./util";

export const DEV_APP_ID = 1;
export const APP_SCOPES = ["products:read", "products:write", "orders:read", "orders:write", "customers:read", "analytics:read"];

export const FIXTURE_MERCHANTS: Merchant[] = [
  { id: 1, name: "Amina Haddad", email: "amina@example.com" },
  { id: 2, name: "Karim Belkacem", email: "karim@example.com" },
  { id: 3, name: "Dev Studio", email: "dev@example.com" },
];

function fixtureStores(): Store[] {
  const store = (id: number, name: string, owner: number, plan: Store["plan"], team: number[] = []): Store => ({
    id,
    name,
    ownerMerchantId: owner,
    teamMerchantIds: team,
    plan,
    planExpiresAt: null,
    rateLimitPerMinute: null,
    monthlyQuota: null,
    messagingWalletBalance: 5000,
  });
  return [
    store(101, "Amina Couture", 1, "pro"),
    store(102, "Amina Maison", 1, "basic"),
    store(103, "Amina Kids", 1, "enterprise"),
    store(104, "Amina Outlet", 1, "free"),
    store(201, "Karim Electronique", 2, "pro", [1]),
    store(301, "Dev Sandbox", 3, "basic"),
  ];
}

export function devApp(appUrl: string): App {
  return {
    id: DEV_APP_ID,
    name: "Store App Starter (development)",
    clientId: DEV_APP.clientId,
    clientSecret: DEV_APP.clientSecret,
    developerMerchantId: 3,
    status: "approved",
    minimumPlan: "basic",
    redirectUris: [redirectUriOf(appUrl)],
    scopes: [...APP_SCOPES],
    // Verified in the fixtures so `npm run dev` receives events at once; the real console needs a verify first.
    webhook: { url: webhookUrlOf(appUrl), secret: DEV_APP.webhookSecret, verified: true, disabled: false, consecutiveFailures: 0 },
  };
}

const ORDER_COUNTS: Record<number, number> = { 101: 40, 102: 40, 103: 40, 104: 6, 201: 12, 301: 8 };
const DAY = 86_400_000;

/** The built-in world: the same merchants, stores, app, categories, customers and orders after every reset. */
export function createFixtureState(options: { appUrl: string; now: Date }): EmulatorState {
  const state: EmulatorState = {
    version: 1,
    clockOffsetMs: 0,
    nextIds: { app: DEV_APP_ID + 1 },
    merchants: FIXTURE_MERCHANTS.map((merchant) => ({ ...merchant })),
    stores: fixtureStores(),
    apps: [devApp(options.appUrl)],
    installs: [],
    revokedTokens: [],
    consentRequests: [],
    authorizationCodes: [],
    categories: [],
    customers: [],
    orders: [],
    orderEventLedger: {},
    deliveries: [],
    idempotency: [],
    monthlyUsage: {},
    changes: [],
  };
  const now = options.now.getTime();
  for (const store of state.stores) {
    const random = seededRandom(store.id * 7919);
    addCategories(state, store.id, random, now);
    addCustomers(state, store.id, random, now);
    addOrders(state, store.id, random, now);
  }
  return state;
}

function addCategories(state: EmulatorState, storeId: number, random: () => number, now: number): void {
  const theme = STORE_THEMES[storeId];
  if (!theme) return;
  const themeCount = theme.categories.length;
  theme.categories.forEach((seed, index) => {
    // Older categories first, so "newest first" lists show the last seeds on top.
    const createdAt = new Date(now - (themeCount - index) * 3 * DAY).toISOString();
    const last = index === themeCount - 1;
    const parent = makeCategory(state, storeId, seed.name, null, index + 1, createdAt);
    // The last top-level category of every store is empty so it can be deleted in a demo.
    parent.productCount = last || seed.children.length ? 0 : 3 + Math.floor(random() * 25);
    seed.children.forEach((childName, childIndex) => {
      const child = makeCategory(state, storeId, childName, parent.id, childIndex + 1, createdAt);
      child.productCount = 2 + Math.floor(random() * 18);
    });
  });
}

function makeCategory(
  state: EmulatorState,
  storeId: number,
  name: string,
  parentId: number | null,
  sortOrder: number,
  createdAt: string,
): Category {
  const category: Category = {
    id: nextId(state, "category"),
    storeId,
    name,
    slug: uniqueSlug(slugify(name), state.categories.filter((other) => other.storeId === storeId).map((other) => other.slug)),
    status: "active",
    parentId,
    sortOrder,
    productCount: 0,
    createdAt,
    updatedAt: createdAt,
  };
  state.categories.push(category);
  return category;
}

function addCustomers(state: EmulatorState, storeId: number, random: () => number, now: number): void {
  for (let index = 0; index < 12; index += 1) {
    const first = FIRST_NAMES[(index + storeId) % FIRST_NAMES.length]!;
    const last = LAST_NAMES[(index * 3 + storeId) % LAST_NAMES.length]!;
    const prefix = ["05", "06", "07"][index % 3]!;
    const customer: Customer = {
      id: nextId(state, "customer"),
      storeId,
      name: `${first} ${last}`,
      phone: `${prefix}${String(storeId * 100000 + index * 7919).padStart(8, "0").slice(-8)}`,
      email: index % 4 === 0 ? null : `${first.toLowerCase()}.${last.toLowerCase()}@example.com`,
      wilayaId: WILAYAS[index % WILAYAS.length]!.id,
      createdAt: new Date(now - (90 - index * 5) * DAY - Math.floor(random() * DAY)).toISOString(),
    };
    state.customers.push(customer);
  }
}

function addOrders(state: EmulatorState, storeId: number, random: () => number, now: number): void {
  const count = ORDER_COUNTS[storeId] ?? 0;
  for (let index = 0; index < count; index += 1) {
    // Spread over the last 60 days, oldest first, the newest a few hours ago.
    const age = ((count - index) / count) * 60 * DAY - Math.floor(random() * 6) * 3_600_000;
    const createdAt = new Date(now - Math.max(age, 2 * 3_600_000));
    const status = ORDER_STATUSES[index % ORDER_STATUSES.length]!;
    const updatedAt = status === "pending" ? createdAt : new Date(Math.min(createdAt.getTime() + DAY, now - 60_000));
    state.orders.push(buildOrder(state, storeId, { random, createdAt, status, updatedAt }));
  }
}
