import type { EventEffect } from "./handlers";

/**
 * What the receiver answers a delivery. A module of its own so the delivery metrics (lib/observability/webhooks.ts)
 * can read it without importing the receiver that reports to them.
 */
export type WebhookOutcome = {
  status: number;
  body: { ok: true; duplicate: boolean; effect?: EventEffect } | { ok: false; error: string };
  /** The connection is closed after the answer: its sender stopped sending mid-body. */
  close?: boolean;
};
