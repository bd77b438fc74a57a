import { beforeEach, describe, expect, it } from "vitest";
import { verifySignature } from "../src/webhooks/signing";
import { startEmulatorForFile, startReceiverForFile, startTestEmulator } from "./support";

const receiver = startReceiverForFile();
const emulator = startEmulatorForFile(() => ({ appUrl: receiver.origin }));
beforeEach(() => {
  emulator.control.reset();
  const app = emulator.ctx.state.apps[0]!;
  app.webhook.url = `${receiver.origin}/api/webhooks`;
});

const AMINA = "emu_merchant=1";

async function get(path: string, cookie?: string) {
  const response = await fetch(`${emulator.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  return { status: response.status, location: response.headers.get("location"), text: await response.text() };
}

async function post(path: string, fields: Record<string, string>, options: { cookie?: string; origin?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin) headers.origin = options.origin;
  const response = await fetch(`${emulator.url}${path}`, { method: "POST", headers, body: new URLSearchParams(fields), redirect: "manual" });
  return { status: response.status, location: response.headers.get("location"), text: await response.text() };
}

const storeOrders = (storeId: number) => emulator.ctx.state.orders.filter((order) => order.store_id === storeId);

describe("index", () => {
  it("links the dashboard and the console", async () => {
    const page = await get("/");
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/dashboard"');
    expect(page.text).toContain('href="/console"');
  });
});

describe("merchant dashboard", () => {
  it("asks to sign in when no merchant cookie is present", async () => {
    const page = await get("/dashboard");
    expect(page.text).toContain('href="/login?next=/dashboard"');
    expect(page.text).not.toContain("Amina Couture");
  });

  it("shows the signed-in merchant's own stores only", async () => {
    const page = await get("/dashboard", AMINA);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Amina Couture");
    expect(page.text).not.toContain("Dev Sandbox");
  });

  it("places a test order, then 303s back to the dashboard", async () => {
    const before = storeOrders(101).length;
    const result = await post("/dashboard/stores/101/orders", { customer_name: "Lina Test", customer_phone: "0555123456" }, { cookie: AMINA });
    expect(result.status).toBe(303);
    expect(result.location).toMatch(/^\/dashboard\?notice=.*#store-101$/);
    const orders = storeOrders(101);
    expect(orders).toHaveLength(before + 1);
    const order = orders.at(-1)!;
    expect(order).toMatchObject({ customer_name: "Lina Test", customer_phone: "0555123456", status: "pending" });
    expect((await get("/dashboard", AMINA)).text).toContain(order.order_number);
  });

  it("escapes what it shows", async () => {
    await post("/dashboard/stores/101/orders", { customer_name: "<script>alert(1)</script>" }, { cookie: AMINA });
    const page = await get("/dashboard", AMINA);
    expect(page.text).not.toContain("<script>alert(1)</script>");
    expect(page.text).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
  });

  it("moves an order through its statuses, and the app hears of it once", async () => {
    emulator.control.mintInstall(101);
    await post("/dashboard/stores/101/orders", {}, { cookie: AMINA });
    const order = storeOrders(101).at(-1)!;
    await emulator.control.tick();
    const result = await post(`/dashboard/orders/${order.id}/status`, { status: "confirmed" }, { cookie: AMINA });
    expect(result.status).toBe(303);
    expect(order.status).toBe("confirmed");
    await emulator.control.tick();
    await emulator.control.tick();
    const events = receiver.requests.map((request) => request.headers["x-svc-event"]);
    expect(events).toEqual(["order.created", "order.confirmed"]);
  });

  it("uninstalls the app: the token is revoked and app.uninstalled goes out", async () => {
    emulator.control.mintInstall(101);
    const result = await post("/dashboard/stores/101/uninstall", {}, { cookie: AMINA });
    expect(result.status).toBe(303);
    expect(emulator.ctx.state.installs.find((install) => install.storeId === 101)?.active).toBe(false);
    await emulator.control.tick();
    expect(receiver.requests.map((request) => request.headers["x-svc-event"])).toEqual(["app.uninstalled"]);
  });

  it("refuses changes to another merchant's store", async () => {
    const before = storeOrders(301).length;
    const result = await post("/dashboard/stores/301/orders", {}, { cookie: AMINA });
    expect(result.location).toMatch(/error=/);
    expect(storeOrders(301)).toHaveLength(before);
    const foreign = storeOrders(301)[0]!;
    await post(`/dashboard/orders/${foreign.id}/status`, { status: "cancelled" }, { cookie: AMINA });
    expect(foreign.status).not.toBe("cancelled");
  });

  it("refuses a form posted from another site", async () => {
    const before = storeOrders(101).length;
    const result = await post("/dashboard/stores/101/orders", {}, { cookie: AMINA, origin: "https://evil.example" });
    expect(result.status).toBe(403);
    expect(storeOrders(101)).toHaveLength(before);
  });

  it("reports a bad status as a message, not a crash", async () => {
    const order = storeOrders(101)[0]!;
    const result = await post(`/dashboard/orders/${order.id}/status`, { status: "teleported" }, { cookie: AMINA });
    expect(result.status).toBe(303);
    expect(new URL(result.location ?? "", emulator.url).searchParams.get("error")).toContain("Unknown order status");
  });
});

describe("developer console", () => {
  const app = () => emulator.ctx.state.apps[0]!;

  it("shows the endpoint and says the development setting allows localhost", async () => {
    const page = await get("/console");
    expect(page.status).toBe(200);
    expect(page.text).toContain(app().webhook.url);
    expect(page.text).toContain("Development setting");
    expect(page.text).toContain("verified");
  });

  it("refuses a URL that breaks a rule and names the rule", async () => {
    const before = app().webhook.url;
    const result = await post("/console/webhook-url", { url: "https://my-app.vercel.app/api/webhooks" });
    expect(result.status).toBe(303);
    expect(new URL(result.location ?? "", emulator.url).searchParams.get("error")).toContain("not_serverless_subdomain");
    expect(app().webhook.url).toBe(before);
  });

  it("saves a valid URL as unverified, and verify verifies it", async () => {
    await post("/console/webhook-url", { url: `${receiver.origin}/hooks/v2` });
    expect(app().webhook).toMatchObject({ url: `${receiver.origin}/hooks/v2`, verified: false });
    const result = await post("/console/verify", {});
    expect(result.status).toBe(303);
    expect(app().webhook.verified).toBe(true);
    expect(receiver.requests.map((request) => request.path)).toEqual(["/hooks/v2"]);
  });

  it("rotates the secret, shows it once in the answer (not in a URL), and signs with it", async () => {
    const result = await post("/console/rotate-secret", {});
    expect(result.status).toBe(200);
    expect(result.location).toBeNull();
    const secret = app().webhook.secret;
    expect(result.text).toContain(secret);
    expect((await get("/console")).text).not.toContain(secret);
    await post("/console/verify", {});
    const request = receiver.requests[0]!;
    expect(verifySignature(secret, request.headers["x-svc-signature"] as string, request.body)).toBe(true);
  });

  it("shows every attempt of a delivery with its answer, escaped", async () => {
    receiver.answer = () => ({ status: 500, body: "<b>database down</b>" });
    emulator.control.mintInstall(101);
    emulator.control.placeOrder(101);
    await emulator.control.tick();
    emulator.control.advanceClock(61);
    await emulator.control.tick();
    const page = await get("/console");
    expect(page.text.match(/answered HTTP 500/g)).toHaveLength(2);
    expect(page.text).toContain("&#60;b&#62;database down&#60;/b&#62;");
    expect(page.text).not.toContain("<b>database down</b>");
    expect(page.text).toContain("next attempt");
  });

  it("approves and suspends the app", async () => {
    await post("/console/app-status", { status: "suspended" });
    expect(app().status).toBe("suspended");
    await post("/console/app-status", { status: "approved" });
    expect(app().status).toBe("approved");
  });

  it("changes a store's plan, with an optional expiry", async () => {
    await post("/console/stores/102/plan", { plan: "enterprise", expires: "2001-02-03" });
    const store = emulator.ctx.state.stores.find((candidate) => candidate.id === 102)!;
    expect(store).toMatchObject({ plan: "enterprise", planExpiresAt: "2001-02-03T00:00:00.000Z" });
  });

  it("arms a fault for the next N deliveries", async () => {
    emulator.control.mintInstall(101);
    await post("/console/faults", { kind: "duplicate", times: "1" });
    emulator.control.placeOrder(101);
    await emulator.control.tick();
    expect(receiver.requests).toHaveLength(2);
    await post("/console/faults/clear", {});
  });

  it("queues a sample event and runs the webhooks on demand", async () => {
    emulator.control.mintInstall(101);
    const queued = await post("/console/send", { event: "order.shipped", storeId: "101" });
    expect(queued.status).toBe(303);
    await post("/console/tick", {});
    expect(receiver.requests.map((request) => request.headers["x-svc-event"])).toEqual(["order.shipped"]);
  });
});

describe("developer console without the development setting", () => {
  it("does not advertise localhost and refuses it", async () => {
    const strict = await startTestEmulator({ allowLocalhostWebhooks: false });
    try {
      const page = await (await fetch(`${strict.url}/console`)).text();
      expect(page).not.toContain("Development setting");
      const response = await fetch(`${strict.url}/console/webhook-url`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ url: "http://localhost:3000/api/webhooks" }),
        redirect: "manual",
      });
      expect(response.headers.get("location")).toContain("https_only");
    } finally {
      await strict.close();
    }
  });
});
