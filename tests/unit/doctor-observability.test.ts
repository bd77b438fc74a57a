import { describe, expect, it } from "vitest";
import { formatReport, runDoctor, type DoctorReport } from "@/lib/doctor";
import { parseEnv } from "@/lib/env";
import { goodEnv } from "../helpers/doctor-env";

/** The doctor says whether the deploy will be seen running: tracing and metrics, on or off. */

const offline = { skipPlatform: true } as const;

function line(report: DoctorReport, id: string) {
  const found = report.checks.find((check) => check.id === id);
  if (!found) throw new Error(`no ${id} line`);
  return found;
}

describe("doctor: observability", () => {
  it("reports tracing and metrics off when their variables are unset, without failing the deploy", async () => {
    const report = await runDoctor(goodEnv(), offline);
    expect(report.ok).toBe(true);
    expect(line(report, "observability.tracing")).toMatchObject({ status: "skip", detail: "off (OTEL_EXPORTER_OTLP_ENDPOINT unset)" });
    expect(line(report, "observability.metrics")).toMatchObject({ status: "skip", detail: "off (METRICS_SECRET unset: /api/metrics answers 404)" });
  });

  it("reports both on when set, naming the collector's origin only and never the secret", async () => {
    const secret = "metrics-secret-0123456789abcdef";
    const report = await runDoctor(
      { ...goodEnv(), METRICS_SECRET: secret, OTEL_EXPORTER_OTLP_ENDPOINT: "https://otlp.vendor.example/otlp?api_key=k3y-value" },
      offline,
    );
    expect(report.ok).toBe(true);
    expect(line(report, "observability.tracing")).toMatchObject({ status: "pass", detail: "on: spans go to https://otlp.vendor.example over OTLP/HTTP" });
    expect(line(report, "observability.metrics").status).toBe("pass");
    const printed = formatReport(report);
    expect(printed).toContain("Tracing");
    expect(printed).not.toContain(secret);
    expect(printed).not.toContain("k3y-value");
  });

  it("fails a metrics secret that is too short and a collector URL that is not one", async () => {
    const report = await runDoctor({ ...goodEnv(), METRICS_SECRET: "short", OTEL_EXPORTER_OTLP_ENDPOINT: "localhost:4318" }, offline);
    expect(report.ok).toBe(false);
    expect(line(report, "env.METRICS_SECRET")).toMatchObject({ status: "fail", detail: expect.stringContaining("at least 16 characters") });
    expect(line(report, "env.OTEL_EXPORTER_OTLP_ENDPOINT")).toMatchObject({ status: "fail", detail: expect.stringContaining("must be an http:// or https:// URL") });
  });

  it("leaves both off in development too unless set (no development default opens /api/metrics)", () => {
    const env = parseEnv({ NODE_ENV: "development" });
    expect(env.METRICS_SECRET).toBeUndefined();
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(parseEnv({ NODE_ENV: "development", OTEL_EXPORTER_OTLP_ENDPOINT: "http://localhost:4318/" }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe("http://localhost:4318");
  });
});
