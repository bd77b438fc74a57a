import { describe, expect, it } from "vitest";
import { DEV_APP } from "@/lib/dev-app";
import { formatReport, isLocalPlatform, runDoctor, type DoctorReport } from "@/lib/doctor";
import { goodEnv } from "../helpers/doctor-env";

const offline = { skipPlatform: true } as const;

function line(report: DoctorReport, id: string) {
  const found = report.checks.find((check) => check.id === id);
  if (!found) throw new Error(`no ${id} line`);
  return found;
}

/** A rehearsal against the emulator, as `npm run setup` writes it: fresh secrets, the emulator's app. */
function emulatorEnv(): Record<string, string | undefined> {
  return {
    ...goodEnv(),
    APP_URL: "http://localhost:3000",
    SVC_AUTH_URL: "http://localhost:4000",
    SVC_API_URL: "http://127.0.0.1:4000",
    SVC_CLIENT_ID: DEV_APP.clientId,
    SVC_CLIENT_SECRET: DEV_APP.clientSecret,
    SVC_WEBHOOK_SECRET: DEV_APP.webhookSecret,
  };
}

describe("doctor against the local emulator", () => {
  it("recognises a platform on this machine only when both of its hosts and the app are loopback", () => {
    expect(isLocalPlatform(emulatorEnv())).toBe(true);
    expect(isLocalPlatform({ ...emulatorEnv(), SVC_API_URL: "https://api.svc-platform.com" })).toBe(false);
    expect(isLocalPlatform({ ...emulatorEnv(), SVC_AUTH_URL: "http://localhost.evil.example" })).toBe(false);
    expect(isLocalPlatform(goodEnv())).toBe(false);
    expect(isLocalPlatform({ ...emulatorEnv(), APP_URL: "https://orders.amina-couture.com" })).toBe(false);
    // Not given yet (setup asks for the platform's hosts first): the hosts decide.
    expect(isLocalPlatform({ ...emulatorEnv(), APP_URL: undefined })).toBe(true);
  });

  it("passes, with the real console's webhook rules as a warning and the emulator's app credentials accepted", async () => {
    const report = await runDoctor(emulatorEnv(), offline);
    expect(report.ok).toBe(true);
    expect(report.localPlatform).toBe(true);
    expect(line(report, "env.SVC_AUTH_URL").status).toBe("pass");
    expect(line(report, "env.SVC_CLIENT_SECRET").status).toBe("pass");
    expect(line(report, "webhook-url")).toMatchObject({ status: "warn" });
    expect(line(report, "webhook-url").detail).toContain("must use https");
    expect(formatReport(report)).toContain("The platform is the local emulator");
  });

  it("still refuses the template's development secrets, which protect the app wherever it runs", async () => {
    const report = await runDoctor({ ...emulatorEnv(), SESSION_SECRET: "development-only-session-secret-not-for-production" }, offline);
    expect(report.ok).toBe(false);
    expect(line(report, "env.SESSION_SECRET")).toMatchObject({ status: "fail", detail: "is the template's public development value" });
  });

  it("keeps every rule for a real platform: the emulator's credentials and http hosts fail there", async () => {
    const report = await runDoctor(
      { ...emulatorEnv(), SVC_AUTH_URL: "http://auth.svc-platform.com", SVC_API_URL: "https://api.svc-platform.com" },
      offline,
    );
    expect(report.ok).toBe(false);
    expect(line(report, "env.SVC_AUTH_URL")).toMatchObject({ status: "fail", detail: "must use https in production" });
    expect(line(report, "env.SVC_CLIENT_ID")).toMatchObject({ status: "fail" });
    expect(line(report, "webhook-url").status).toBe("fail");
  });
});
