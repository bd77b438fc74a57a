import type { ActionState } from "@/lib/actions/validated-action";

/** aria wiring of one input: invalid when the last submission refused it, described by its error paragraph. */
export function fieldProps(state: ActionState, name: string, errorId: string) {
  const invalid = Boolean(state.fieldErrors?.[name]?.length);
  return { "aria-invalid": invalid || undefined, "aria-describedby": invalid ? errorId : undefined } as const;
}

/** The value to show after a refusal (what was typed), else the current value. */
export function typed(state: ActionState, name: string, fallback: string): string {
  return !state.ok && state.values && name in state.values ? (state.values[name] ?? fallback) : fallback;
}
