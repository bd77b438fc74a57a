import { StatusBadge } from "@/components/status-badge";
import type { OrderStatusChange } from "@/db/schema";
import type { Translate } from "@/i18n/translate";
import type { Formats } from "@/i18n/format";
import { statusKey } from "@/lib/orders/status";

/** Oldest first, as a timeline; an order seen only once (no status event yet) shows its current status alone. */
export function OrderStatusHistory({
  history,
  currentStatus,
  t,
  format,
}: {
  history: OrderStatusChange[];
  currentStatus: string;
  t: Translate;
  format: Formats;
}) {
  if (history.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        {t("Order.noHistory")} <StatusBadge status={currentStatus} t={t} />
      </p>
    );
  }
  return (
    <ol className="space-y-2">
      {history.map((change) => (
        <li key={change.id} className="flex flex-wrap items-center gap-2 text-sm">
          <StatusBadge status={change.status} t={t} />
          {change.previousStatus ? (
            <span className="text-slate-600">{t("Order.from", { status: t(statusKey(change.previousStatus)) })}</span>
          ) : null}
          <time dateTime={change.changedAt.toISOString()} className="ms-auto text-slate-600">
            {format.dateTimeWithZone(change.changedAt)}
          </time>
        </li>
      ))}
    </ol>
  );
}
