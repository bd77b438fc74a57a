import { INSTALL_STATES, type InstallState } from "@/db/schema";

/**
 * What each state of an install means to the app, decided here once: whether its token may be sent to the platform
 * (and so whether the poller reads the store and its pages show live data), whether the platform cut the app off
 * for good, and what the merchant reads about it. The API client (lib/platform/credentials.ts), the poller, the
 * token store, the guard (lib/tenancy.ts), lib/installs/record-state.ts and the pages all ask the predicates below;
 * none of them lists or compares states of its own, and db/queries take the states they need as arguments
 * (closedInstallStates()).
 *
 * Every text here is a message catalogue key (messages/*.json), translated where it is shown.
 *
 * The states are the platform's 403 codes (spec, "States and transitions") plus the two the app records itself:
 * `uninstalled` (the app.uninstalled event, or a 403 app_uninstalled) and `revoked` (a 401: the token is dead).
 */

// The list itself is the installs table's vocabulary (db/schema.ts), so that the queries can name it too.
export { INSTALL_STATES, type InstallState };

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

const MEANINGS = {
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
} as const satisfies Record<InstallState, Meaning>;

/**
 * The states in which the platform has cut the app off for good (uninstalled, or a 401 revoked the token): the
 * token is dead and destroyed, no session opens the store, and only a new install helps. Exactly the known states
 * that may not call.
 */
export type ClosedInstallState = {
  [S in InstallState]: (typeof MEANINGS)[S]["callsPlatform"] extends false ? S : never;
}[InstallState];

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

/**
 * The app may send this install's token: the API client calls (the other states are refused before any network
 * call), the order poller reads the store, and its pages show live data (the rest are read-only).
 */
export function mayCallPlatform(state: string): boolean {
  return meaningOf(state).callsPlatform;
}

/**
 * The platform cut the app off for good (see ClosedInstallState). A value no known state names is not closed: its
 * pages open and say the app cannot reach the store (the UNKNOWN notice), though it may not call.
 */
export function isClosed(state: string): state is ClosedInstallState {
  return isInstallState(state) && !MEANINGS[state].callsPlatform;
}

/** Every closed state, for queries that filter on them (db/queries take states as arguments, never decide them). */
export function closedInstallStates(): ClosedInstallState[] {
  return INSTALL_STATES.filter(isClosed);
}

/** The merchant uninstalled the app (the install records when: `uninstalledAt`). */
export function isUninstalled(state: string): boolean {
  return state === "uninstalled";
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
