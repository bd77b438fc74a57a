import { describe, expect, it } from "vitest";
import { parseEnvelope } from "@/lib/webhooks/envelope";
import { sampleEnvelope } from "@/lib/webhooks/samples";

describe("webhook envelope", () => {
  it("reads a status event into the app's order shape, keeping undocumented fields", () => {
    const envelope = sampleEnvelope("order.shipped", {
      id: "evt_00ff",
      storeId: 101,
      orderId: 42,
      previousStatus: "confirmed",
      at: new Date("2026-05-01T08:00:00Z"),
    });
    (envelope.data as { order: Record<string, unknown> }).order.loyalty_points = 12;
    const result = parseEnvelope(envelope);
    expect(result.ok).toBe(true);
    if (!result.ok || result.event.kind !== "order") throw new Error("expected an order event");
    expect(result.event).toMatchObject({ id: "evt_00ff", event: "order.shipped", storeId: 101, status: "shipped", previousStatus: "confirmed" });
    expect(result.event.order).toMatchObject({ id: 42, storeId: 101, status: "shipped", total: "7900", shippingCost: "400" });
    expect(result.event.order.updatedAt.toISOString()).toBe("2026-05-01T08:00:00.000Z");
    expect(result.event.order.items).toHaveLength(2);
    expect(result.event.order.extra).toEqual({ loyalty_points: 12 });
  });

  it("order.created takes the status from the order itself", () => {
    const result = parseEnvelope(sampleEnvelope("order.created", { storeId: 101, status: "confirmed" }));
    expect(result.ok && result.event.kind === "order" && result.event.status).toBe("confirmed");
  });

  it("reads app.uninstalled and webhook.verify, and passes unknown events through", () => {
    const uninstalled = parseEnvelope(sampleEnvelope("app.uninstalled", { storeId: 102, installId: 9, at: new Date("2026-05-02T00:00:00Z") }));
    expect(uninstalled).toMatchObject({ ok: true, event: { kind: "app.uninstalled", storeId: 102, installId: 9 } });
    expect(parseEnvelope(sampleEnvelope("webhook.verify"))).toMatchObject({ ok: true, event: { kind: "webhook.verify", storeId: 0 } });
    expect(parseEnvelope(sampleEnvelope("customer.created", { storeId: 101 }))).toMatchObject({ ok: true, event: { kind: "unknown" } });
  });

  it("refuses envelopes that break the documented shape", () => {
    const valid = sampleEnvelope("order.created", { storeId: 101, orderId: 1 });
    const problems = [
      { ...valid, id: "12345" },
      { ...valid, id: undefined },
      { ...valid, store_id: "101" },
      { ...valid, created_at: "yesterday" },
      { ...valid, data: null },
      { ...valid, store_id: 102 },
      { ...valid, data: { items: [] } },
      { ...sampleEnvelope("app.uninstalled", { storeId: 101 }), store_id: 103 },
      "a string",
      null,
    ];
    for (const body of problems) expect(parseEnvelope(body).ok).toBe(false);
  });
});
