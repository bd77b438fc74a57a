/**
 * Test support for the webhook side: a real HTTP receiver on a free port, and an emulator context built from the
 * real fixtures, clock and engine (no server), for tests that drive the engine directly.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { createClock } from "../clock";
import { createFixtureState } from "../fixtures";
import type { EmulatorConfig, EmulatorContext } from "../http/types";
import { nextId } from "../ids";
import { createWebhookEngine } from "./engine";

export type ReceivedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: Buffer };
export type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

export type Receiver = {
  origin: string;
  requests: ReceivedRequest[];
  /** How the receiver answers each request (default 200 "ok"). */
  answer: (request: ReceivedRequest) => Answer;
  /** Forgets the requests received and goes back to the default answer. */
  clear(): void;
  close(): Promise<void>;
};

const answerOk = (): Answer => ({ status: 200, body: "ok" });

export async function startReceiver(): Promise<Receiver> {
  // Bumped by clear(): a request that began before it (say, one its sender gave up on, still arriving on a loaded
  // machine) belongs to the previous test and is not recorded for the next.
  let generation = 0;
  const receiver: Omit<Receiver, "origin" | "close"> = {
    requests: [],
    answer: answerOk,
    clear: () => {
      generation += 1;
      receiver.requests.length = 0;
      receiver.answer = answerOk;
    },
  };
  const server = createServer((req, res) => {
    const startedIn = generation;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (startedIn !== generation) {
        res.writeHead(200).end("ok");
        return;
      }
      const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      receiver.requests.push(request);
      const answer = receiver.answer(request);
      const reply = () => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    origin: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A context on the built-in fixtures whose app URL is `appUrl` (so the webhook URL is `${appUrl}/api/webhooks`). */
export function createTestContext(options: { appUrl: string; config?: Partial<EmulatorConfig> }): EmulatorContext {
  const clock = createClock({ timeScale: 1, offsetMs: 0 });
  const config: EmulatorConfig = {
    origin: "http://localhost:4000",
    appUrl: options.appUrl,
    allowLocalhostWebhooks: true,
    timeScale: 1,
    autoTick: false,
    dataFile: null,
    ...options.config,
  };
  const ctx: EmulatorContext = {
    state: createFixtureState({ appUrl: options.appUrl, now: clock.now() }),
    config,
    clock,
    save: () => {},
    nextId: (kind) => nextId(ctx.state, kind),
    webhooks: undefined as unknown as EmulatorContext["webhooks"],
  };
  ctx.webhooks = createWebhookEngine(ctx);
  return ctx;
}
