import type { Translate } from "@/i18n/translate";
import { statusKey } from "@/lib/orders/status";

/**
 * Rendered once per order row, so it is one short element: its look is the `[data-badge]` rule of app/globals.css,
 * keyed by the status (a status the platform adds later gets the neutral badge). The translator comes from the caller.
 */
export function StatusBadge({ status, t }: { status: string; t: Translate }) {
  return (
    <span data-badge={status}>
      {t(statusKey(status))}
    </span>
  );
}
