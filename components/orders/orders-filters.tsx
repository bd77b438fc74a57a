import { ORDER_STATUSES } from "@/lib/ui/order-status";
import { statusLabel } from "@/lib/ui/order-status";

/** A plain GET form: the filters live in the URL (?status=, ?phone=), so they work without JavaScript and can be shared. */
export function OrdersFilters({ action, status, phone }: { action: string; status: string | null; phone: string | null }) {
  return (
    <form action={action} method="get" role="search" aria-label="Filter orders" className="flex flex-wrap items-end gap-3">
      <div className="flex flex-col gap-1">
        <label htmlFor="filter-status" className="text-sm font-medium text-slate-700">
          Status
        </label>
        <select
          id="filter-status"
          name="status"
          defaultValue={status ?? ""}
          className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
        >
          <option value="">All statuses</option>
          {ORDER_STATUSES.map((value) => (
            <option key={value} value={value}>
              {statusLabel(value)}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="filter-phone" className="text-sm font-medium text-slate-700">
          Customer phone
        </label>
        <input
          id="filter-phone"
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          defaultValue={phone ?? ""}
          placeholder="Exact number"
          dir="ltr"
          className="w-44 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900"
        />
      </div>
      <button
        type="submit"
        className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      >
        Apply filters
      </button>
      {status || phone ? (
        <a href={action} className="py-1.5 text-sm font-medium text-slate-700 underline underline-offset-2">
          Clear filters
        </a>
      ) : null}
    </form>
  );
}
