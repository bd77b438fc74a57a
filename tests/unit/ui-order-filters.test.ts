import { describe, expect, it } from "vitest";
import { emulatorDashboardUrl } from "@/app/stores/[storeId]/orders/emulator-link";
import { ordersHref, parseOrderFilters } from "@/lib/orders/filters";

describe("parseOrderFilters", () => {
  it("keeps a known status and drops an unknown one", () => {
    expect(parseOrderFilters({ status: "Shipped" }).status).toBe("shipped");
    expect(parseOrderFilters({ status: "lost" }).status).toBeNull();
    expect(parseOrderFilters({ status: ["delivered", "shipped"] }).status).toBe("delivered");
  });

  it("removes spaces typed inside a phone number and ignores an empty one", () => {
    expect(parseOrderFilters({ phone: " 0555 12 34 56 " }).phone).toBe("0555123456");
    expect(parseOrderFilters({ phone: "   " }).phone).toBeNull();
  });

  it("refuses a phone holding control characters, and strips invisible direction marks", () => {
    for (const phone of ["\u0000x", "0555\u0000", "05\u007f55", "\u0085", "0555\u{e000}"]) {
      expect(parseOrderFilters({ phone })).toEqual({ status: null, phone: null, cursor: null, phoneRefused: true });
    }
    expect(parseOrderFilters({ phone: "\u200f0555 12\t34\n56\u200e" })).toEqual({ status: null, phone: "0555123456", cursor: null });
    expect(parseOrderFilters({ phone: "0555" })).not.toHaveProperty("phoneRefused");
  });

  it("round-trips through the URL builder, leaving empty filters out", () => {
    const filters = parseOrderFilters({ status: "confirmed", phone: "+213555", cursor: "abc" });
    expect(ordersHref(101, filters)).toBe("/stores/101/orders?status=confirmed&phone=%2B213555&cursor=abc");
    expect(parseOrderFilters(Object.fromEntries(new URL(`http://x${ordersHref(101, filters)}`).searchParams))).toEqual(filters);
    expect(ordersHref(101, { status: null, phone: null })).toBe("/stores/101/orders");
  });
});

describe("emulatorDashboardUrl", () => {
  it("links to the emulator in development and for a loopback platform, never for the real one", () => {
    expect(emulatorDashboardUrl("development", "http://localhost:4000")).toBe("http://localhost:4000/dashboard");
    expect(emulatorDashboardUrl("production", "http://127.0.0.1:4100/")).toBe("http://127.0.0.1:4100/dashboard");
    expect(emulatorDashboardUrl("production", "https://auth.platform.example")).toBeNull();
  });
});
