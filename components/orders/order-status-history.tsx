import { StatusBadge } from "@/components/status-badge";
import type { OrderStatusChange } from "@/db/schema";
import type { Translate } from "@/i18n/translate";
import type { Formats } from "@/i18n/format";
import { statusKey } from "@/lib/orders/status";

/**
 * The status the order had when the app first received it by reading the platform's orders (the import at install,
 * or a poll), not by a status event: the app does not know when it reached that status, nor what came before.
 */
function isFirstSeen(change: OrderStatusChange): boolean {
  return change.eventId === null && change.previousStatus === null;
}

/**
 * Oldest first, as a timeline; an order seen only once (no status event yet) shows its current status alone. An
 * imported order's history starts at its import, and says so, rather than dating its status to the platform's last
 * change of the order.
 */
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
      {history.map((change) => {
        const firstSeen = isFirstSeen(change);
        const when = firstSeen ? change.recordedAt : change.changedAt;
        return (
          <li key={change.id} className="flex flex-wrap items-center gap-2 text-sm" data-first-seen={firstSeen || undefined}>
            <StatusBadge status={change.status} t={t} />
            {firstSeen ? (
              <span className="text-slate-600">{t("Order.historyStarts")}</span>
            ) : change.previousStatus ? (
              <span className="text-slate-600">{t("Order.from", { status: t(statusKey(change.previousStatus)) })}</span>
            ) : null}
            <time dateTime={when.toISOString()} className="ms-auto text-slate-600">
              {format.dateTimeWithZone(when)}
            </time>
          </li>
        );
      })}
    </ol>
  );
}
