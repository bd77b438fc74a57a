import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LiveRefresh } from "@/components/live-refresh";
import { OrderItemsTable } from "@/components/orders/order-items-table";
import { OrderStatusHistory } from "@/components/orders/order-status-history";
import { StatusBadge } from "@/components/status-badge";
import { getDb } from "@/db/index";
import { getOrderDetail } from "@/db/queries/order-views";
import { requireStore } from "@/lib/tenancy";
import { formatDateTime, formatMoney, humanize, orDash } from "@/lib/ui/format";

export const metadata: Metadata = { title: "Order" };

/** Order ids are bigints on the platform; anything else in the URL is simply not an order. */
function parseOrderId(value: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

function Field({ label, children, auto }: { label: string; children: React.ReactNode; auto?: boolean }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 sm:block">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="text-right text-sm font-medium sm:text-left" dir={auto ? "auto" : undefined}>
        {children}
      </dd>
    </div>
  );
}

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  const id = `card-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={id} className="mb-2 text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default async function OrderPage({ params }: { params: Promise<{ storeId: string; orderId: string }> }) {
  const { storeId: storeIdParam, orderId: orderIdParam } = await params;
  const { storeId } = await requireStore(storeIdParam);
  const orderId = parseOrderId(orderIdParam);
  if (orderId === null) notFound();
  const detail = await getOrderDetail(await getDb(), storeId, orderId);
  if (!detail) notFound();
  const { order, items, history } = detail;

  return (
    <div className="space-y-4">
      <Link href={`/stores/${storeId}/orders`} className="text-sm font-medium text-slate-700 underline underline-offset-2">
        ← All orders
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{order.orderNumber}</h1>
          <p className="text-sm text-slate-600">
            Placed <time dateTime={order.createdAt.toISOString()}>{formatDateTime(order.createdAt)}</time>
          </p>
        </div>
        <div className="flex flex-col items-end gap-1">
          <StatusBadge status={order.status} />
          <LiveRefresh />
        </div>
      </div>

      <div className="grid gap-4 lg:grid-cols-3">
        <div className="space-y-4 lg:col-span-2">
          <Card title="Items">
            <OrderItemsTable items={items} />
          </Card>
          <Card title="Totals">
            <dl className="divide-y divide-slate-100 sm:grid sm:grid-cols-3 sm:gap-3 sm:divide-y-0">
              <Field label="Subtotal">{formatMoney(order.subtotal)}</Field>
              <Field label="Shipping">{formatMoney(order.shippingCost)}</Field>
              <Field label="Discount">{formatMoney(order.discount)}</Field>
              <Field label="Promo code" auto>
                {orDash(order.promoCode)}
              </Field>
              <Field label="Payment">
                {humanize(order.paymentMethod)} · {humanize(order.paymentStatus)}
              </Field>
              <Field label="Total">
                <span className="text-base">{formatMoney(order.total)}</span>
              </Field>
            </dl>
          </Card>
          <Card title="Status history">
            <OrderStatusHistory history={history} currentStatus={order.status} />
          </Card>
        </div>
        <div className="space-y-4">
          <Card title="Customer">
            <dl className="divide-y divide-slate-100 sm:divide-y-0">
              <Field label="Name" auto>
                {orDash(order.customerName)}
              </Field>
              <Field label="Phone">
                <span dir="ltr">{orDash(order.customerPhone)}</span>
              </Field>
              <Field label="Email">{orDash(order.customerEmail)}</Field>
            </dl>
          </Card>
          <Card title="Address">
            <dl className="divide-y divide-slate-100 sm:divide-y-0">
              <Field label="Wilaya" auto>
                {order.wilayaId ? `${order.wilayaId} · ` : ""}
                {orDash(order.wilayaName)}
              </Field>
              <Field label="Commune" auto>
                {orDash(order.commune)}
              </Field>
              <Field label="Address" auto>
                {orDash(order.address)}
              </Field>
              <Field label="Customer notes" auto>
                {orDash(order.customerNotes)}
              </Field>
            </dl>
          </Card>
          <Card title="Delivery">
            <dl className="divide-y divide-slate-100 sm:divide-y-0">
              <Field label="Delivery type">{humanize(order.deliveryType)}</Field>
              {order.deskName ? (
                <Field label="Desk" auto>
                  {order.deskName}
                </Field>
              ) : null}
              <Field label="Delivery company" auto>
                {orDash(order.deliveryCompany)}
              </Field>
              <Field label="Tracking number">
                <span dir="ltr">{orDash(order.trackingNumber)}</span>
              </Field>
            </dl>
          </Card>
        </div>
      </div>
    </div>
  );
}
