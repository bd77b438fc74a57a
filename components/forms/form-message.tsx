import type { ActionState } from "@/lib/actions/validated-action";

/**
 * The outcome of the last submission of a form, next to it. Refusals are alerts (announced at once); successes
 * are polite status messages. A refusal that only a new install can cure always carries the way to it.
 */
export function FormMessage({ state, reinstallLabel, children }: { state: ActionState; reinstallLabel: string; children?: React.ReactNode }) {
  if (!state.message) return null;
  return (
    <div
      role={state.ok ? "status" : "alert"}
      data-outcome={state.ok ? "ok" : "refused"}
      className={`rounded-md px-3 py-2 text-sm ${state.ok ? "bg-emerald-50 text-emerald-900" : "bg-rose-50 text-rose-900"}`}
    >
      {state.message}
      {children}
      {state.reinstall ? (
        <a href="/install" className="ms-2 font-medium underline underline-offset-2">
          {reinstallLabel}
        </a>
      ) : null}
    </div>
  );
}
