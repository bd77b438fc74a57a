/**
 * Fault injection for webhook deliveries, so an app's receiver can be tested against what "at least once" really
 * means. Faults are development tooling, not platform state: they live in memory beside the context and are
 * not persisted.
 *
 * - duplicate: each of the next N sent deliveries reaches the receiver twice (same event id and delivery id).
 * - reorder: the next N dispatcher runs with two or more due deliveries send them newest first; a lone due
 *   delivery is held back (up to REORDER_HOLD_MS) so that the one after it overtakes it.
 * - bad-signature: the next N delivery attempts are signed with a key the app cannot know.
 */
import type { EmulatorContext } from "../http/types";

export const FAULT_KINDS = ["duplicate", "reorder", "bad-signature"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const REORDER_HOLD_MS = 10 * 60 * 1000;
/** Marks the extra attempt a duplicate fault makes, so it never counts towards the 5 attempts or the failures. */
export const DUPLICATE_ATTEMPT_NOTE = "fault injection: duplicate send";

export type FaultState = {
  remaining: Record<FaultKind, number>;
  /** Deliveries held back by a reorder fault: id -> emulated time the hold began. */
  held: Map<string, number>;
};

const states = new WeakMap<EmulatorContext, FaultState>();

export function faultState(ctx: EmulatorContext): FaultState {
  let state = states.get(ctx);
  if (!state) {
    state = { remaining: { duplicate: 0, reorder: 0, "bad-signature": 0 }, held: new Map() };
    states.set(ctx, state);
  }
  return state;
}

export function isFaultKind(value: unknown): value is FaultKind {
  return typeof value === "string" && (FAULT_KINDS as readonly string[]).includes(value);
}

export function addFault(ctx: EmulatorContext, kind: FaultKind, times: number): void {
  faultState(ctx).remaining[kind] += times;
}

export function clearFaults(ctx: EmulatorContext): void {
  const state = faultState(ctx);
  for (const kind of FAULT_KINDS) state.remaining[kind] = 0;
  state.held.clear();
}

/** Uses one occurrence of a fault if any is armed. */
export function takeFault(ctx: EmulatorContext, kind: FaultKind): boolean {
  const state = faultState(ctx);
  if (state.remaining[kind] <= 0) return false;
  state.remaining[kind]--;
  return true;
}

export function faultSummary(ctx: EmulatorContext): { remaining: Record<FaultKind, number>; held: string[] } {
  const state = faultState(ctx);
  return { remaining: { ...state.remaining }, held: [...state.held.keys()] };
}

/**
 * Orders a dispatcher run's due deliveries (oldest first) under an armed reorder fault: returns what to send now.
 */
export function applyReorder<T extends { id: string }>(ctx: EmulatorContext, due: T[], nowMs: number): T[] {
  const state = faultState(ctx);
  if (state.remaining.reorder <= 0) {
    state.held.clear();
    return due;
  }
  if (due.length >= 2) {
    state.remaining.reorder--;
    state.held.clear();
    return [...due].reverse();
  }
  const only = due[0];
  if (!only) return due;
  const heldSince = state.held.get(only.id);
  if (heldSince === undefined) {
    state.held.set(only.id, nowMs);
    return [];
  }
  if (nowMs - heldSince >= REORDER_HOLD_MS) {
    // Nothing came to overtake it; do not hold a delivery hostage forever.
    state.held.delete(only.id);
    return due;
  }
  return [];
}
