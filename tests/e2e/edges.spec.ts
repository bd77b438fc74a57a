import { connect } from "node:net";
import { expect, test } from "@playwright/test";
import { DEV_APP } from "../../lib/dev-app";
import { signatureHeaders } from "../../lib/webhooks/signature";
import { APP_PORT } from "./support/servers";
import { installThroughConsent } from "./support/install";

/**
 * The production build's edges, as an attacker tries them: paths proxy.ts skips still answer with nosniff and
 * framing protection, the webhook route refuses unverifiable headers before the body and a body that never comes,
 * and a control character in a filter is a notice rather than a 500.
 */

const SKIPPED = ["/api/webhooks/x", "/api/webhooksX", "/robots.txt", "/favicon.ico", "/_next/static/chunks/missing.js", "/no-such-page"];

test("every answer carries nosniff, and every HTML answer framing protection, on paths the proxy skips too", async ({ request }) => {
  for (const path of SKIPPED) {
    const response = await request.get(path, { maxRedirects: 0 });
    const headers = response.headers();
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    if ((headers["content-type"] ?? "").includes("text/html")) expect(headers["x-frame-options"], path).toBe("DENY");
  }
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toMatch(/User-Agent: \*\s+Disallow: \//);
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/");
  // The proxy's own pages keep theirs.
  const home = await request.get("/");
  expect(home.headers()["x-frame-options"]).toBe("DENY");
  expect(home.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
});

test("the webhook route refuses headers that could never verify before reading the body", async ({ request }) => {
  const response = await request.post("/api/webhooks", { data: "{}", headers: { "content-type": "application/json" } });
  expect(response.status()).toBe(401);
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
});

test("a webhook body that does not arrive is not waited for: headers without a signature are answered at once", async () => {
  // Content-Length promises 100 bytes and none are sent: the answer must come without them.
  const socket = connect(APP_PORT, "127.0.0.1");
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
  socket.write(["POST /api/webhooks HTTP/1.1", `Host: localhost:${APP_PORT}`, "Content-Type: application/json", "Content-Length: 100", "", ""].join("\r\n"));
  await expect.poll(() => answer).toMatch(/^HTTP\/1\.1 401 /);
  socket.destroy();
});

test("a webhook body that stops arriving gets 408 after 10 s, and its connection is closed", async () => {
  test.setTimeout(60_000);
  const headers = signatureHeaders(DEV_APP.webhookSecret, new TextEncoder().encode("{}"), Math.floor(Date.now() / 1000));
  const socket = connect(APP_PORT, "127.0.0.1");
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk.toString("utf8")));
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  // Two bytes promised, one sent, then nothing: a trickle.
  socket.write(
    [
      "POST /api/webhooks HTTP/1.1",
      `Host: localhost:${APP_PORT}`,
      "Content-Type: application/json",
      "Content-Length: 2",
      `X-SVC-Timestamp: ${headers["x-svc-timestamp"]}`,
      `X-SVC-Signature: ${headers["x-svc-signature"]}`,
      "",
      "{",
    ].join("\r\n"),
  );
  await closed;
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(answer.toLowerCase()).toContain("connection: close");
});

test("a control character in the orders' phone filter is a notice on the page, not a 500", async ({ page }) => {
  await installThroughConsent(page, { storeIds: [101] });
  const response = await page.goto("/stores/101/orders?phone=%00x");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("status").filter({ hasText: "The phone filter held characters no phone number has" })).toBeVisible();
});
