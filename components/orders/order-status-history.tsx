import { StatusBadge } from "@/components/status-badge";
import type { OrderStatusChange } from "@/db/schema";
import { formatDateTime } from "@/lib/ui/format";
import { statusLabel } from "@/lib/ui/order-status";

/** Oldest first, as a timeline; an order seen only once (no status event yet) shows its current status alone. */
export function OrderStatusHistory({ history, currentStatus }: { history: OrderStatusChange[]; currentStatus: string }) {
  if (history.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        No status change recorded yet. Current status: <StatusBadge status={currentStatus} />
      </p>
    );
  }
  return (
    <ol className="space-y-2">
      {history.map((change) => (
        <li key={change.id} className="flex flex-wrap items-center gap-2 text-sm">
          <StatusBadge status={change.status} />
          {change.previousStatus ? <span className="text-slate-500">from {statusLabel(change.previousStatus)}</span> : null}
          <time dateTime={change.changedAt.toISOString()} className="ml-auto text-slate-600">
            {formatDateTime(change.changedAt)}
          </time>
        </li>
      ))}
    </ol>
  );
}
