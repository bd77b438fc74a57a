/**
 * What each state of an install means to the app, decided here once: whether its token may be sent to the platform,
 * whether the order poller reads it, whether only a new install helps, and what the merchant reads about it. The
 * API client (lib/platform/credentials.ts), the poller (lib/sync/orders-sync.ts), the token store, the queries and
 * the pages all ask this table; none of them lists states of its own.
 *
 * Every text here is a message catalogue key (messages/*.json), translated where it is shown.
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

const REINSTALL = { href: "/install", label: "InstallState.reinstall" };

const MEANINGS: Record<InstallState, Meaning> = {
  active: {
    callsPlatform: true,
    liftedByPlatform: false,
    badge: { label: "Stores.state.active", tone: "ok" },
    notice: null,
  },
  app_suspended: {
    callsPlatform: true,
    liftedByPlatform: true,
    badge: { label: "Stores.state.app_suspended", tone: "warning", hint: "Stores.hint.app_suspended" },
    notice: {
      tone: "warning",
      title: "InstallState.app_suspended.title",
      body: "InstallState.app_suspended.body",
    },
  },
  app_plan_required: {
    callsPlatform: true,
    liftedByPlatform: true,
    badge: { label: "Stores.state.app_plan_required", tone: "warning", hint: "Stores.hint.app_plan_required" },
    notice: {
      tone: "warning",
      title: "InstallState.app_plan_required.title",
      body: "InstallState.app_plan_required.body",
    },
  },
  app_not_approved: {
    callsPlatform: true,
    liftedByPlatform: true,
    badge: { label: "Stores.state.app_not_approved", tone: "warning", hint: "Stores.hint.app_not_approved" },
    notice: {
      tone: "info",
      title: "InstallState.app_not_approved.title",
      body: "InstallState.app_not_approved.body",
    },
  },
  revoked: {
    callsPlatform: false,
    liftedByPlatform: false,
    badge: { label: "Stores.state.revoked", tone: "danger", hint: "Stores.hint.revoked" },
    notice: {
      tone: "danger",
      title: "InstallState.revoked.title",
      body: "InstallState.revoked.body",
      action: REINSTALL,
    },
  },
  uninstalled: {
    callsPlatform: false,
    liftedByPlatform: false,
    badge: { label: "Stores.state.uninstalled", tone: "muted", hint: "Stores.hint.uninstalled" },
    notice: {
      tone: "danger",
      title: "InstallState.uninstalled.title",
      body: "InstallState.uninstalled.body",
      action: REINSTALL,
    },
  },
};

/** A value from the database that no longer names a state (a row written by a newer version): treated as dead. */
const UNKNOWN: Meaning = {
  callsPlatform: false,
  liftedByPlatform: false,
  badge: { label: "Stores.state.unknown", tone: "muted", hint: "Stores.hint.unknown" },
  notice: {
    tone: "warning",
    title: "InstallState.unknown.title",
    body: "InstallState.unknown.body",
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

/** The app still holds a working token: its pages may call the platform and show live data (the rest are read-only). */
export function isConnected(state: string): boolean {
  return mayCallPlatform(state);
}
