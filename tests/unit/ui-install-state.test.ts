import { describe, expect, it } from "vitest";
import {
  closedInstallStates,
  INSTALL_STATES,
  installStateNotice,
  isClosed,
  isLiftedByPlatform,
  isUninstalled,
  mayCallPlatform,
} from "@/lib/installs/state";
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
      expect(mayCallPlatform(state)).toBe(false);
    }
  });

  it("tells the merchant what the platform-side states need, without a reinstall", () => {
    expect(t(installStateNotice("app_suspended")?.body ?? "")).toMatch(/resume .*when the suspension is lifted/);
    expect(t(installStateNotice("app_plan_required")?.body ?? "")).toMatch(/Upgrade the store's plan/);
    expect(t(installStateNotice("app_not_approved")?.title ?? "")).toMatch(/awaiting approval/);
    for (const state of ["app_suspended", "app_plan_required", "app_not_approved"]) {
      expect(installStateNotice(state)?.action).toBeUndefined();
      expect(mayCallPlatform(state)).toBe(true);
    }
  });

  it("still says something useful for a state added later", () => {
    const notice = installStateNotice("something_new");
    expect(notice?.action?.href).toBe("/install");
    expect(t(notice?.title ?? "")).toMatch(/cannot reach/);
  });
});

describe("the install-state predicates", () => {
  it("closes uninstalled and revoked installs only: exactly the known states that may not call", () => {
    expect(closedInstallStates()).toEqual(["revoked", "uninstalled"]);
    for (const state of INSTALL_STATES) expect(isClosed(state)).toBe(!mayCallPlatform(state));
  });

  it("lets the platform lift only the three 403 states, which keep calling", () => {
    expect(INSTALL_STATES.filter(isLiftedByPlatform)).toEqual(["app_suspended", "app_plan_required", "app_not_approved"]);
    expect(isLiftedByPlatform("active")).toBe(false);
  });

  it("treats a state it does not know as unable to call, yet not closed: its pages open and explain", () => {
    expect(mayCallPlatform("something_new")).toBe(false);
    expect(isClosed("something_new")).toBe(false);
    expect(isLiftedByPlatform("something_new")).toBe(false);
  });

  it("names the uninstall apart from a revoked token", () => {
    expect(INSTALL_STATES.filter(isUninstalled)).toEqual(["uninstalled"]);
  });
});
