import { describe, expect, it } from "vitest";
import { installStateNotice } from "@/lib/installs/state";

describe("installStateNotice", () => {
  it("shows nothing for an active install", () => {
    expect(installStateNotice("active")).toBeNull();
  });

  it("links to /install when only a new install helps", () => {
    for (const state of ["uninstalled", "revoked"]) {
      const notice = installStateNotice(state);
      expect(notice?.action?.href).toBe("/install");
      expect(notice?.body).toMatch(/[Rr]einstall/);
    }
  });

  it("tells the merchant what the platform-side states need, without a reinstall link", () => {
    expect(installStateNotice("app_suspended")?.body).toMatch(/resume .*when the suspension is lifted/);
    expect(installStateNotice("app_plan_required")?.body).toMatch(/Upgrade the store's plan/);
    expect(installStateNotice("app_not_approved")?.title).toMatch(/awaiting approval/);
    for (const state of ["app_suspended", "app_plan_required", "app_not_approved"]) {
      expect(installStateNotice(state)?.action).toBeUndefined();
    }
  });

  it("still says something useful for a state added later", () => {
    expect(installStateNotice("something_new")?.action?.href).toBe("/install");
  });
});
