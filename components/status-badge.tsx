import type { Translate } from "@/i18n/translate";
import { statusBadgeClass, statusKey } from "@/lib/ui/order-status";

/** Rendered once per order row: kept small (the translator comes from the caller, no per-row lookups). */
export function StatusBadge({ status, t }: { status: string; t: Translate }) {
  return (
    <span className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${statusBadgeClass(status)}`}>
      {t(statusKey(status))}
    </span>
  );
}
