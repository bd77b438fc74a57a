import { describe, expect, it } from "vitest";
import { runDoctor } from "@/lib/doctor";
import { checkRequestedScopes } from "@/lib/doctor/scope-checks";
import { NEEDED_SCOPES } from "@/lib/installs/scopes";
import { goodEnv } from "../helpers/doctor-env";

describe("doctor: the scopes the consent asks for", () => {
  it("passes SVC_SCOPES unset (every registered scope) and a list holding every needed scope, extras included", () => {
    expect(checkRequestedScopes({ ...goodEnv(), SVC_SCOPES: undefined })).toMatchObject({ id: "scopes.requested", status: "pass" });
    const all = [...NEEDED_SCOPES, "products:write"].join("  ");
    expect(checkRequestedScopes({ ...goodEnv(), SVC_SCOPES: ` ${all} ` })).toMatchObject({ status: "pass" });
  });

  it("fails a list that leaves out a scope a section needs, naming it in the detail and the fix", () => {
    const withoutCustomers = NEEDED_SCOPES.filter((scope) => scope !== "customers:read").join(" ");
    const check = checkRequestedScopes({ ...goodEnv(), SVC_SCOPES: withoutCustomers });
    expect(check.status).toBe("fail");
    expect(check.detail).toContain("customers:read");
    expect(check.fix).toContain("customers:read");
    expect(check.detail).not.toContain("orders:read");
  });

  it("fails the whole report when the order sync's scope is left out", async () => {
    const report = await runDoctor({ ...goodEnv(), SVC_SCOPES: "categories:read" }, { skipPlatform: true });
    const line = report.checks.find((check) => check.id === "scopes.requested");
    expect(line?.status).toBe("fail");
    expect(line?.detail).toContain("orders:read");
    expect(report.ok).toBe(false);
  });
});
