import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_APP } from "@/lib/dev-app";
import { startEmulator, type RunningEmulator } from "@/emulator/src/index";
import { checkApiReachable, checkClientCredentials, type PlatformCheckInput } from "@/lib/doctor/platform-checks";
import { APP_USER_AGENT } from "@/lib/platform";

/** Real HTTP against the in-process emulator, which implements the token endpoint's order of checks. */
describe("doctor: platform checks against the emulator", () => {
  let emulator: RunningEmulator;
  let input: PlatformCheckInput;
  let notThePlatform: Server;
  let notThePlatformUrl: string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, appUrl: "http://localhost:3999", dataFile: null, autoTick: false, quiet: true });
    input = {
      authUrl: emulator.url,
      apiUrl: emulator.url,
      appUrl: "http://localhost:3999",
      clientId: DEV_APP.clientId,
      clientSecret: DEV_APP.clientSecret,
    };
    // Some web server that is not the platform: answers 200 HTML to everything.
    notThePlatform = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end("<h1>hello</h1>"));
    await new Promise<void>((resolve) => notThePlatform.listen(0, "127.0.0.1", resolve));
    notThePlatformUrl = `http://127.0.0.1:${(notThePlatform.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await emulator?.close();
    await new Promise((resolve) => notThePlatform?.close(resolve));
  });

  it("passes real credentials: the platform refuses only the deliberately invalid code", async () => {
    const installsBefore = emulator.ctx.state.installs.length;
    const check = await checkClientCredentials(input);
    expect(check.status).toBe("pass");
    expect(check.detail).toContain("client id and secret accepted");
    expect(check.detail).toContain("nothing is installed or spent");
    expect(emulator.ctx.state.installs.length).toBe(installsBefore);
  });

  it("fails a wrong secret as rejected credentials, and never prints it", async () => {
    const wrongSecret = "svcas_" + "e".repeat(48);
    const check = await checkClientCredentials({ ...input, clientSecret: wrongSecret });
    expect(check.status).toBe("fail");
    expect(check.detail).toBe("the platform rejected the client id or secret (invalid_client)");
    expect(check.fix).toContain("copy SVC_CLIENT_ID and SVC_CLIENT_SECRET again");
    expect(JSON.stringify(check)).not.toContain(wrongSecret);
  });

  it("fails an unknown client id the same way", async () => {
    const check = await checkClientCredentials({ ...input, clientId: "svcapp_" + "0".repeat(20) });
    expect(check.detail).toContain("invalid_client");
  });

  it("fails an auth URL that is not the platform, and one nobody answers", async () => {
    const wrongHost = await checkClientCredentials({ ...input, authUrl: notThePlatformUrl });
    expect(wrongHost.status).toBe("fail");
    expect(wrongHost.detail).toBe("unexpected answer from the token endpoint: HTTP 200");
    const nobody = await checkClientCredentials({ ...input, authUrl: "http://127.0.0.1:1" }, { timeoutMs: 5_000 });
    expect(nobody.status).toBe("fail");
    expect(nobody.detail).toMatch(/^token endpoint unreachable: /);
  });

  it("passes the API when it answers a token-less call with its 401 envelope", async () => {
    const check = await checkApiReachable(input);
    expect(check).toMatchObject({ status: "pass", detail: "reachable (answered 401 to a call without a token, as it should)" });
  });

  it("fails an API URL that is not the platform's", async () => {
    const check = await checkApiReachable({ ...input, apiUrl: notThePlatformUrl });
    expect(check.status).toBe("fail");
    expect(check.detail).toContain("answered HTTP 200 to GET /v1/whoami");
    const unreachable = await checkApiReachable({ ...input, apiUrl: "http://127.0.0.1:1" }, { timeoutMs: 5_000 });
    expect(unreachable.detail).toMatch(/^unreachable: /);
  });

  it("probes through the app's own transport: its User-Agent, no redirects followed, the fetch it is handed", async () => {
    const sent: { url: string; userAgent: string | null; redirect: RequestRedirect | undefined }[] = [];
    const recording: typeof fetch = (url, init) => {
      sent.push({ url: String(url), userAgent: new Headers(init?.headers).get("user-agent"), redirect: init?.redirect });
      return fetch(url, init);
    };
    expect((await checkClientCredentials(input, { fetch: recording })).status).toBe("pass");
    expect((await checkApiReachable(input, { fetch: recording })).status).toBe("pass");
    expect(sent).toEqual([
      { url: `${emulator.url}/oauth/apps/token`, userAgent: APP_USER_AGENT, redirect: "manual" },
      { url: `${emulator.url}/v1/whoami`, userAgent: APP_USER_AGENT, redirect: "manual" },
    ]);
  });

  it("skips when the variables it needs are not usable", async () => {
    expect((await checkClientCredentials({ ...input, clientSecret: null })).status).toBe("skip");
    expect((await checkApiReachable({ ...input, apiUrl: null })).status).toBe("skip");
  });
});
