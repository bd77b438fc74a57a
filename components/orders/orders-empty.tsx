/** No orders at all, or none matching the filters: say which, and where the next step is. */
export function OrdersEmpty({
  filtered,
  clearHref,
  dashboardUrl,
}: {
  filtered: boolean;
  clearHref: string;
  dashboardUrl: string | null;
}) {
  if (filtered) {
    return (
      <section className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
        <h2 className="text-base font-semibold">No orders match these filters</h2>
        <p className="mt-1 text-sm text-slate-600">The phone number must match exactly, as the customer typed it.</p>
        <a href={clearHref} className="mt-3 inline-block text-sm font-medium underline underline-offset-2">
          Clear filters
        </a>
      </section>
    );
  }
  return (
    <section className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
      <h2 className="text-base font-semibold">No orders yet</h2>
      <p className="mx-auto mt-1 max-w-prose text-sm text-slate-600">
        New orders arrive here by webhook within a minute or two of being placed, and this page shows them without a
        reload.
      </p>
      {dashboardUrl ? (
        <p className="mx-auto mt-3 max-w-prose text-sm text-slate-600">
          Using the emulator? Place a test order from its{" "}
          <a href={dashboardUrl} target="_blank" rel="noreferrer" className="font-medium text-slate-900 underline underline-offset-2">
            dashboard
          </a>{" "}
          and it will appear here.
        </p>
      ) : null}
    </section>
  );
}
