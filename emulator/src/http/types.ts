import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Clock } from "../clock";
import type { EmulatorState } from "../model";

export type EmulatorConfig = {
  /** Origin the emulator is reachable at, e.g. http://localhost:4000. */
  origin: string;
  /** The app the fixtures register: redirect `${appUrl}/oauth/callback`, webhook `${appUrl}/api/webhooks`. */
  appUrl: string;
  /** Development setting: allow http://localhost webhook URLs (the real console refuses them). */
  allowLocalhostWebhooks: boolean;
  /** How many emulated seconds pass per real second (1 = real time). */
  timeScale: number;
  /** Run the order checker and dispatcher by themselves once per emulated minute. */
  autoTick: boolean;
  /** Where state is persisted; null keeps it in memory only (tests). */
  dataFile: string | null;
};

export type EmulatorContext = {
  state: EmulatorState;
  config: EmulatorConfig;
  clock: Clock;
  /** Persist the state (debounced); call after every mutation. */
  save(): void;
  nextId(kind: string): number;
  /** Set by startEmulator once the engine exists; actions such as uninstall notify it. */
  webhooks: WebhookEngine;
};

export type EmuRequest = {
  method: string;
  url: URL;
  /** Lower-cased header names, as node gives them. */
  headers: IncomingHttpHeaders;
  params: Record<string, string>;
  /** The raw body bytes. */
  body: Buffer;
  cookies: Record<string, string>;
  raw: IncomingMessage;
  rawResponse: ServerResponse;
};

export type EmuResponse = {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
};

export type Handler = (request: EmuRequest, ctx: EmulatorContext) => Promise<EmuResponse> | EmuResponse;

export type Route = { method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT"; path: string; handler: Handler };

/** The webhook side of the emulator (emulator/src/webhooks/engine.ts implements it). */
export type WebhookEngine = {
  /** What happens every emulated minute: the order checker, then the dispatcher. */
  tick(): Promise<void>;
  /** Queue the app.uninstalled notice for an install that was just uninstalled. */
  onUninstalled(install: import("../model").Install): void;
  /** An install (new or again on the same store): drops a pending uninstall notice of that store, per the spec. */
  onInstalled(install: import("../model").Install): void;
  /** The console's verify button: one webhook.verify request, 2xx within 6 seconds. */
  verify(): Promise<{ ok: boolean; status: number | null; error: string | null }>;
  stop(): void;
};
