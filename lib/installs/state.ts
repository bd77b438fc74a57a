/**
 * What the merchant sees when a store's install is not active: which state, what it means, and what to do. The
 * states are the installs.state values of db/schema.ts (the platform's 403 codes plus uninstalled and revoked).
 */

export type InstallNotice = {
  tone: "danger" | "warning" | "info";
  title: string;
  body: string;
  action?: { href: string; label: string };
};

const REINSTALL = { href: "/install", label: "Reinstall the app" };

export function installStateNotice(state: string): InstallNotice | null {
  switch (state) {
    case "active":
      return null;
    case "uninstalled":
      return {
        tone: "danger",
        title: "The app was uninstalled from this store",
        body: "Orders already received stay visible here, but nothing new arrives and categories cannot be changed. Reinstall the app to reconnect the store.",
        action: REINSTALL,
      };
    case "revoked":
      return {
        tone: "danger",
        title: "The platform no longer accepts this store's access",
        body: "Its token was revoked (the app was reinstalled elsewhere or uninstalled). Reinstall the app to get a new one.",
        action: REINSTALL,
      };
    case "app_suspended":
      return {
        tone: "warning",
        title: "The platform suspended this app",
        body: "Calls to the store are refused for now; they resume by themselves when the suspension is lifted. Orders already received stay visible.",
      };
    case "app_plan_required":
      return {
        tone: "warning",
        title: "This store's plan is below what the app needs",
        body: "Upgrade the store's plan in the platform dashboard (or renew an expired one); the app works again as soon as the plan allows it.",
      };
    case "app_not_approved":
      return {
        tone: "info",
        title: "The app is awaiting approval",
        body: "Until the platform approves the app, it only works on its developer's own stores.",
      };
    default:
      return {
        tone: "warning",
        title: "The app cannot reach this store right now",
        body: "Reinstalling the app usually reconnects it.",
        action: REINSTALL,
      };
  }
}
