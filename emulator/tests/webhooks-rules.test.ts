import { describe, expect, it } from "vitest";
import { EVENT_KINDS, isoWithOffset, statusEventName } from "../src/webhooks/events";
import { retryWaitSeconds, MAX_ATTEMPTS } from "../src/webhooks/retry";
import { deliveryHeaders, signPayload, verifySignature } from "../src/webhooks/signing";
import { checkWebhookUrl, URL_RULE_IDS, type UrlRuleId } from "@/lib/webhook-url/rules";
import type { OrderStatus } from "../src/model";

describe("signature", () => {
  it("is the lowercase hex HMAC-SHA256 of `<t>.<body>` (fixed vector computed with openssl)", () => {
    expect(signPayload("svcwhsec_test", 1700000000, '{"id":"evt_1"}')).toBe(
      "2f192c1dabd1675089c91e14774857ac46f0109b47fca2ed59de950f530fcf9e",
    );
  });

  it("sends exactly the documented headers, X-SVC-Delivery only when there is a delivery id", () => {
    const body = '{"id":"evt_1","event":"order.created"}';
    const headers = deliveryHeaders({ event: "order.created", body, secret: "s3cret-s3cret", timestamp: 1700000000, deliveryId: "dlv_1" });
    expect(headers).toEqual({
      "Content-Type": "application/json",
      "X-SVC-Timestamp": "1700000000",
      "X-SVC-Signature": `t=1700000000,v1=${signPayload("s3cret-s3cret", 1700000000, body)}`,
      "X-SVC-Event": "order.created",
      "X-SVC-Delivery": "dlv_1",
      "User-Agent": "Svc-Webhooks/1.0",
    });
    const verify = deliveryHeaders({ event: "webhook.verify", body, secret: "s3cret-s3cret", timestamp: 1, deliveryId: null });
    expect(Object.keys(verify)).not.toContain("X-SVC-Delivery");
    expect(Object.keys(headers)).not.toContain("X-SVC-Token");
  });

  it("a bad-signature fault signs with a key the app cannot verify", () => {
    const body = "{}";
    const good = deliveryHeaders({ event: "e", body, secret: "s3cret-s3cret", timestamp: 5, deliveryId: "d" });
    const bad = deliveryHeaders({ event: "e", body, secret: "s3cret-s3cret", timestamp: 5, deliveryId: "d", badSignature: true });
    expect(verifySignature("s3cret-s3cret", good["X-SVC-Signature"]!, body)).toBe(true);
    expect(verifySignature("s3cret-s3cret", bad["X-SVC-Signature"]!, body)).toBe(false);
    expect(verifySignature("s3cret-s3cret", good["X-SVC-Signature"]!, "{ }")).toBe(false);
  });
});

describe("retry waits (spec table)", () => {
  it.each([
    [1, 60],
    [2, 300],
    [3, 1800],
    [4, 7200],
    [5, null],
  ])("after failed attempt %i the minimum wait is %s seconds", (attempt, wait) => {
    expect(retryWaitSeconds(attempt)).toBe(wait);
  });

  it("allows at most 5 attempts", () => {
    expect(MAX_ATTEMPTS).toBe(5);
  });
});

describe("event kinds (spec table)", () => {
  it("lists exactly the documented events", () => {
    expect(EVENT_KINDS.map((kind) => kind.event)).toEqual([
      "order.created",
      "order.confirmed",
      "order.processing",
      "order.shipped",
      "order.delivered",
      "order.cancelled",
      "order.returned",
      "app.uninstalled",
      "webhook.verify",
    ]);
  });

  it.each<[OrderStatus, string | null]>([
    ["pending", null],
    ["confirmed", "order.confirmed"],
    ["processing", "order.processing"],
    ["shipped", "order.shipped"],
    ["delivered", "order.delivered"],
    ["cancelled", "order.cancelled"],
    ["returned", "order.returned"],
  ])("status %s announces %s", (status, event) => {
    expect(statusEventName(status)).toBe(event);
  });

  it("writes created_at as ISO 8601 with a UTC offset", () => {
    expect(isoWithOffset(new Date("2025-03-01T10:00:00.000Z"))).toBe("2025-03-01T10:00:00.000+00:00");
  });
});

describe("webhook URL rules (spec list)", () => {
  const strict = { allowLocalhost: false, serviceDomains: ["svcplatform.com"] };

  it.each<[UrlRuleId, string]>([
    ["max_length", `https://hooks.example-shop.com/${"a".repeat(256 - "https://hooks.example-shop.com/".length)}`],
    ["valid_url", "not a url"],
    ["https_only", "http://hooks.example-shop.com/webhooks"],
    ["port_443", "https://hooks.example-shop.com:8443/webhooks"],
    ["no_credentials", "https://user:pass@hooks.example-shop.com/webhooks"],
    ["no_ip_address", "https://203.0.113.7/webhooks"],
    ["no_ip_address", "https://[2001:db8::1]/webhooks"],
    ["public_hostname", "https://webhooks/receive"],
    ["public_hostname", "https://hooks.internal/receive"],
    ["not_service_domain", "https://hooks.svcplatform.com/receive"],
    ["not_serverless_subdomain", "https://my-app.vercel.app/api/webhooks"],
  ])("refuses with %s: %s", (rule, url) => {
    const check = checkWebhookUrl(url, strict);
    expect(check).toMatchObject({ ok: false, rule });
  });

  it("covers every rule id in the table above", () => {
    expect(URL_RULE_IDS).toEqual([
      "max_length",
      "valid_url",
      "https_only",
      "port_443",
      "no_credentials",
      "no_ip_address",
      "public_hostname",
      "not_service_domain",
      "not_serverless_subdomain",
    ]);
  });

  it.each([
    "https://hooks.example-shop.com/api/webhooks",
    "https://hooks.example-shop.com:443/api/webhooks",
    "https://my-app.com/api/webhooks?source=svc",
    `https://hooks.example-shop.com/${"a".repeat(255 - "https://hooks.example-shop.com/".length)}`,
  ])("accepts %s", (url) => {
    expect(checkWebhookUrl(url, strict).ok).toBe(true);
  });

  it("accepts http://localhost on any port only with the development setting", () => {
    expect(checkWebhookUrl("http://localhost:3000/api/webhooks", { ...strict, allowLocalhost: true }).ok).toBe(true);
    expect(checkWebhookUrl("http://localhost:3000/api/webhooks", strict)).toMatchObject({ ok: false, rule: "https_only" });
    // The setting is about localhost only, not any private address.
    expect(checkWebhookUrl("http://127.0.0.1:3000/api/webhooks", { ...strict, allowLocalhost: true }).ok).toBe(false);
  });
});
