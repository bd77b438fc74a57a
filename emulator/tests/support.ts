import { createHash, randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { DEV_APP } from "@/lib/dev-app";
import { startEmulator, type RunningEmulator, type StartOptions } from "../src/index";
import { startReceiver, type Receiver } from "../src/webhooks/test-kit";

/** Shared by the emulator's own tests: an in-process emulator on a random port, in memory, ticking only on demand. */
export function startTestEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, dataFile: null, autoTick: false, quiet: true, ...options });
}

/**
 * Starts a value in beforeAll and stops it in afterAll, so a test file holds it from its top level without a `let`
 * filled in by hooks. The handle reads and writes through to the started value, which exists only from beforeAll on.
 */
function forTestFile<T extends object>(start: () => Promise<T>, stop: (value: T) => Promise<void>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    if (started) await stop(started);
  });
  const current = (): T => {
    if (!started) throw new Error("started in beforeAll: use it in hooks and tests, not while the file loads");
    return started;
  };
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(current(), key),
    set: (_target, key, value) => Reflect.set(current(), key, value),
  });
}

/**
 * One test emulator for the calling test file. Options may be a function when they depend on something started
 * by an earlier hook (the receiver's origin as the app URL).
 */
export function startEmulatorForFile(options: StartOptions | (() => StartOptions) = {}): RunningEmulator {
  return forTestFile(
    () => startTestEmulator(typeof options === "function" ? options() : options),
    (emulator) => emulator.close(),
  );
}

/** One webhook receiver for the calling test file, cleared before each test so none sees another's requests. */
export function startReceiverForFile(): Receiver {
  const receiver = forTestFile(startReceiver, (started) => started.close());
  beforeEach(() => receiver.clear());
  return receiver;
}

/** Back to the fixtures, with the development app installed on one store; returns that install's access token. */
export function resetWithInstall(emu: RunningEmulator, storeId: number): string {
  emu.control.reset();
  return emu.control.mintInstall(storeId).accessToken;
}

export const UA = "emulator-tests/1.0";
export const REDIRECT_URI = `${DEV_APP.appUrl}/oauth/callback`;

export type ApiOptions = { body?: unknown; rawBody?: string; key?: string; headers?: Record<string, string> };

export async function api(emu: RunningEmulator, token: string | null, method: string, path: string, options: ApiOptions = {}) {
  const headers: Record<string, string> = { "user-agent": UA, ...options.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.key !== undefined) headers["idempotency-key"] = options.key;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined && method !== "GET") {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  const response = await fetch(`${emu.url}${path}`, { method, headers, body });
  const text = await response.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json = text ? (JSON.parse(text) as any) : null;
  return { status: response.status, headers: response.headers, json, text };
}

let keyCounter = 0;
export function newKey(): string {
  keyCounter += 1;
  return `test-key-${Date.now()}-${keyCounter}`;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  return { verifier, challenge };
}

export function authorizeQuery(overrides: Record<string, string | null> = {}, challenge = pkce().challenge): string {
  const params: Record<string, string | null> = {
    response_type: "code",
    client_id: DEV_APP.clientId,
    redirect_uri: REDIRECT_URI,
    state: "state-123",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...overrides,
  };
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null) search.set(name, value);
  return search.toString();
}

export async function browserGet(emu: RunningEmulator, path: string, merchantId: number | null) {
  const headers: Record<string, string> = { "user-agent": UA };
  if (merchantId !== null) headers.cookie = `emu_merchant=${merchantId}`;
  const response = await fetch(`${emu.url}${path}`, { headers, redirect: "manual" });
  return { status: response.status, location: response.headers.get("location"), text: await response.text(), headers: response.headers };
}

export async function formPost(
  emu: RunningEmulator,
  path: string,
  fields: [string, string][],
  options: { merchantId?: number | null; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { "user-agent": UA, "content-type": "application/x-www-form-urlencoded", ...options.headers };
  if (options.merchantId) headers.cookie = `emu_merchant=${options.merchantId}`;
  const response = await fetch(`${emu.url}${path}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  return { status: response.status, location: response.headers.get("location"), text: await response.text(), headers: response.headers };
}

/** Opens the consent screen and returns its request id. */
export async function openConsent(emu: RunningEmulator, merchantId: number, query: string): Promise<string> {
  const page = await browserGet(emu, `/oauth/apps/authorize?${query}`, merchantId);
  const match = /name="request_id" value="([^"]+)"/.exec(page.text);
  if (page.status !== 200 || !match) throw new Error(`consent screen did not open (HTTP ${page.status})`);
  return match[1]!;
}

/** Authorize, approve the given stores, and return the code and the verifier behind it. */
export async function obtainCode(emu: RunningEmulator, merchantId: number, storeIds: number[], overrides: Record<string, string | null> = {}) {
  const { verifier, challenge } = pkce();
  const requestId = await openConsent(emu, merchantId, authorizeQuery(overrides, challenge));
  const approved = await formPost(
    emu,
    "/oauth/apps/approve",
    [["request_id", requestId], ...storeIds.map((id): [string, string] => ["store_id", String(id)])],
    { merchantId },
  );
  if (approved.status !== 302 || !approved.location) throw new Error(`approve failed (HTTP ${approved.status})`);
  const code = new URL(approved.location).searchParams.get("code");
  if (!code) throw new Error("no code in the redirect");
  return { code, verifier, location: approved.location };
}

export function tokenFields(code: string, verifier: string, extra: [string, string][] = []): [string, string][] {
  return [
    ["grant_type", "authorization_code"],
    ["code", code],
    ["redirect_uri", REDIRECT_URI],
    ["code_verifier", verifier],
    ["client_id", DEV_APP.clientId],
    ["client_secret", DEV_APP.clientSecret],
    ...extra,
  ];
}

export async function exchange(emu: RunningEmulator, fields: [string, string][], headers: Record<string, string> = {}) {
  const response = await formPost(emu, "/oauth/apps/token", fields, { headers: { accept: "application/json", ...headers } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { ...response, json: response.text.startsWith("{") ? (JSON.parse(response.text) as any) : null };
}

/** A raw request, for what fetch cannot do (send no User-Agent at all). */
export function rawRequest(
  emu: RunningEmulator,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = "",
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${emu.url}${path}`, { method, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
