import type { Translate } from "@/i18n/translate";
import { statusKey } from "@/lib/orders/status";

/**
 * An order's status as a badge (the order page, its history). One short element: its look is the `[data-badge]` rule
 * of app/globals.css, keyed by the status (a status the platform adds later gets the neutral badge); the orders list
 * draws the same element in its client rows (components/orders/order-rows.tsx). The translator comes from the caller.
 */
export function StatusBadge({ status, t }: { status: string; t: Translate }) {
  return (
    <span data-badge={status}>
      {t(statusKey(status))}
    </span>
  );
}
