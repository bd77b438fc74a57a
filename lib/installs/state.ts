/**
 * What each state of an install means to the app, decided here once: whether its token may be sent to the platform,
 * whether the order poller reads it, whether only a new install helps, and what the merchant reads about it. The
 * API client (lib/platform/credentials.ts), the poller (lib/sync/orders-sync.ts), the token store, the queries and
 * the pages all ask this table; none of them lists states of its own.
 *
 * The states are the platform's 403 codes (spec, "States and transitions") plus the two the app records itself:
 * `uninstalled` (the app.uninstalled event, or a 403 app_uninstalled) and `revoked` (a 401: the token is dead).
 */

export const INSTALL_STATES = ["active", "app_suspended", "app_plan_required", "app_not_approved", "revoked", "uninstalled"] as const;

export type InstallState = (typeof INSTALL_STATES)[number];

export type InstallNotice = {
  tone: "danger" | "warning" | "info";
  title: string;
  body: string;
  action?: { href: string; label: string };
};

export type InstallBadge = {
  label: string;
  tone: "ok" | "danger" | "warning" | "muted";
  /** One sentence under the store's name on /stores. */
  hint?: string;
};

type Meaning = {
  /**
   * The stored token may be sent. The three states the platform lifts by itself keep calling: the platform answers
   * 403 with the same code while the condition lasts, and the first call that succeeds is how the app learns it was
   * lifted (the client records the install active again). Webhooks are dropped meanwhile (spec, "Webhook delivery
   * states"), so the poller keeps reading these stores too: that is what catches up on the orders missed.
   */
  callsPlatform: boolean;
  /** The platform lifts this state by itself; a call that succeeds records the install active again. */
  liftedByPlatform: boolean;
  badge: InstallBadge;
  notice: InstallNotice | null;
};

const REINSTALL = { href: "/install", label: "Reinstall the app" };

const MEANINGS: Record<InstallState, Meaning> = {
  active: {
    callsPlatform: true,
    liftedByPlatform: false,
    badge: { label: "Active", tone: "ok" },
    notice: null,
  },
  app_suspended: {
    callsPlatform: true,
    liftedByPlatform: true,
    badge: { label: "App suspended", tone: "warning", hint: "The platform has suspended the app. Access returns when the suspension is lifted." },
    notice: {
      tone: "warning",
      title: "The platform suspended this app",
      body: "Calls to the store are refused for now; they resume by themselves when the suspension is lifted. Orders already received stay visible.",
    },
  },
  app_plan_required: {
    callsPlatform: true,
    liftedByPlatform: true,
    badge: { label: "Plan upgrade needed", tone: "warning", hint: "This store's plan is below the app's minimum plan." },
    notice: {
      tone: "warning",
      title: "This store's plan is below what the app needs",
      body: "Upgrade the store's plan in the platform dashboard (or renew an expired one); the app works again as soon as the plan allows it.",
    },
  },
  app_not_approved: {
    callsPlatform: true,
    liftedByPlatform: true,
    badge: { label: "Awaiting approval", tone: "warning", hint: "The app is not approved yet for stores outside its developer's account." },
    notice: {
      tone: "info",
      title: "The app is awaiting approval",
      body: "Until the platform approves the app, it only works on its developer's own stores.",
    },
  },
  revoked: {
    callsPlatform: false,
    liftedByPlatform: false,
    badge: { label: "Access revoked", tone: "danger", hint: "The platform no longer accepts this store's token. Install again to reconnect." },
    notice: {
      tone: "danger",
      title: "The platform no longer accepts this store's access",
      body: "Its token was revoked (the app was reinstalled elsewhere or uninstalled). Reinstall the app to get a new one.",
      action: REINSTALL,
    },
  },
  uninstalled: {
    callsPlatform: false,
    liftedByPlatform: false,
    badge: { label: "Uninstalled", tone: "muted", hint: "The app was uninstalled from this store. Install it again to reconnect." },
    notice: {
      tone: "danger",
      title: "The app was uninstalled from this store",
      body: "Orders already received stay visible here, but nothing new arrives and categories cannot be changed. Reinstall the app to reconnect the store.",
      action: REINSTALL,
    },
  },
};

/** A value from the database that no longer names a state (a row written by a newer version): treated as dead. */
const UNKNOWN: Meaning = {
  callsPlatform: false,
  liftedByPlatform: false,
  badge: { label: "Needs attention", tone: "muted", hint: "The app cannot reach this store right now. Reinstalling the app usually reconnects it." },
  notice: {
    tone: "warning",
    title: "The app cannot reach this store right now",
    body: "Reinstalling the app usually reconnects it.",
    action: REINSTALL,
  },
};

export function isInstallState(value: string): value is InstallState {
  return Object.hasOwn(MEANINGS, value);
}

function meaningOf(state: string): Meaning {
  return isInstallState(state) ? MEANINGS[state] : UNKNOWN;
}

/** The API client sends this install's token (the other states are refused before any network call). */
export function mayCallPlatform(state: string): boolean {
  return meaningOf(state).callsPlatform;
}

/** The order poller reads this install's orders: exactly the states that may call (see `callsPlatform`). */
export function mayPoll(state: string): boolean {
  return meaningOf(state).callsPlatform;
}

/** Only a new install helps: the token is dead, so the app destroys it and the pages link to /install. */
export function needsReinstall(state: string): boolean {
  return !meaningOf(state).callsPlatform;
}

/** The platform lifts this state by itself; a call that succeeds records the install active again. */
export function isLiftedByPlatform(state: string): boolean {
  return meaningOf(state).liftedByPlatform;
}

/** The state a 403 install-state code records. */
export const STATE_FOR_CODE = {
  app_uninstalled: "uninstalled",
  app_suspended: "app_suspended",
  app_not_approved: "app_not_approved",
  app_plan_required: "app_plan_required",
} as const satisfies Record<string, InstallState>;

/** What the store's pages say about a state: nothing for an active install. */
export function installStateNotice(state: string): InstallNotice | null {
  return meaningOf(state).notice;
}

/** The state's badge on /stores. */
export function installStateBadge(state: string): InstallBadge {
  return meaningOf(state).badge;
}
