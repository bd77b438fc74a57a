import type { EmulatorState } from "./model";

/** Where each id sequence starts, so ids of different kinds never look alike in logs and tests. */
const FIRST_IDS: Record<string, number> = {
  app: 1,
  install: 9001,
  category: 1001,
  customer: 5001,
  order: 70001,
  change: 1,
};

export function nextId(state: EmulatorState, kind: string): number {
  const current = state.nextIds[kind] ?? FIRST_IDS[kind] ?? 1;
  state.nextIds[kind] = current + 1;
  return current;
}
