import { describe, expect, it } from "vitest";
import { installStateNotice, isConnected } from "@/lib/installs/state";
import { translator } from "../helpers/i18n";

const t = translator("en");

describe("installStateNotice", () => {
  it("shows nothing for an active install", () => {
    expect(installStateNotice("active")).toBeNull();
  });

  it("offers a reinstall when only a new install helps", () => {
    for (const state of ["uninstalled", "revoked"]) {
      const notice = installStateNotice(state);
      expect(notice?.action?.href).toBe("/install");
      expect(t(notice?.body ?? "")).toMatch(/[Rr]einstall/);
      expect(isConnected(state)).toBe(false);
    }
  });

  it("tells the merchant what the platform-side states need, without a reinstall", () => {
    expect(t(installStateNotice("app_suspended")?.body ?? "")).toMatch(/resume .*when the suspension is lifted/);
    expect(t(installStateNotice("app_plan_required")?.body ?? "")).toMatch(/Upgrade the store's plan/);
    expect(t(installStateNotice("app_not_approved")?.title ?? "")).toMatch(/awaiting approval/);
    for (const state of ["app_suspended", "app_plan_required", "app_not_approved"]) {
      expect(installStateNotice(state)?.action).toBeUndefined();
      expect(isConnected(state)).toBe(true);
    }
  });

  it("still says something useful for a state added later", () => {
    const notice = installStateNotice("something_new");
    expect(notice?.action?.href).toBe("/install");
    expect(t(notice?.title ?? "")).toMatch(/cannot reach/);
  });
});
