import { LinkWithStatus } from "@/components/link-with-status";
import { notFound } from "next/navigation";
import { LiveRefresh } from "@/components/live-refresh";
import { OrderItemsTable } from "@/components/orders/order-items-table";
import { OrderStatusHistory } from "@/components/orders/order-status-history";
import { StatusBadge } from "@/components/status-badge";
import { getDb } from "@/lib/database/app-database";
import { getOrderDetail } from "@/db/queries/order-views";
import { orDash } from "@/i18n/format";
import { telHref } from "@/lib/phone";
import { mayCallPlatform } from "@/lib/installs/state";
import { deliveryLabel, paymentLabel } from "@/lib/orders/labels";
import { storeHref } from "@/lib/sections";
import { sectionMetadata, storePage } from "../../_components/store-page";

export const generateMetadata = sectionMetadata("orders");

/** Order ids are bigints on the platform; anything else in the URL is simply not an order. */
function parseOrderId(value: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

function Field({ label, children, auto }: { label: string; children: React.ReactNode; auto?: boolean }) {
  return (
    <div className="flex min-w-0 justify-between gap-4 py-1.5 sm:block">
      <dt className="shrink-0 text-sm text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-end text-sm font-medium sm:text-start" dir={auto ? "auto" : undefined}>
        {children}
      </dd>
    </div>
  );
}

function Card({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={id} className="mb-2 text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** One order with its items, totals, status history, customer, address and delivery. */
export default storePage<{ orderId: string }>(
  "orders",
  async ({ storeId, install, params, ui: { t, format } }) => {
    const orderId = parseOrderId(params.orderId);
    if (orderId === null) notFound();
    const detail = await getOrderDetail(await getDb(), storeId, orderId);
    if (!detail) notFound();
    const { order, items, history } = detail;

    return (
      <div className="space-y-4">
        <LinkWithStatus href={storeHref(storeId, "orders")} className="text-sm font-medium text-slate-700 underline underline-offset-2">
          <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
            ←
          </span>{" "}
          {t("Order.back")}
        </LinkWithStatus>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="min-w-0">
            <h1 className="break-words text-2xl font-semibold tracking-tight">{order.orderNumber}</h1>
            <p className="text-sm text-slate-600">
              {t("Order.placed")} <time dateTime={order.createdAt.toISOString()}>{format.dateTimeWithZone(order.createdAt)}</time>
            </p>
          </div>
          <div className="flex flex-col items-end gap-1">
            <StatusBadge status={order.status} t={t} />
            {mayCallPlatform(install.state) ? <LiveRefresh t={t} /> : null}
          </div>
        </div>

        {/* min-w-0 on the columns: a grid item otherwise grows to its widest content and the page scrolls sideways. */}
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
          <div className="min-w-0 space-y-4 lg:col-span-2">
            <Card id="card-items" title={t("Order.items")}>
              <OrderItemsTable items={items} t={t} format={format} />
            </Card>
            <Card id="card-totals" title={t("Order.totals")}>
              <dl className="divide-y divide-slate-100 sm:grid sm:grid-cols-3 sm:gap-3 sm:divide-y-0">
                <Field label={t("Order.subtotal")}>{format.money(order.subtotal)}</Field>
                <Field label={t("Order.shipping")}>{format.money(order.shippingCost)}</Field>
                <Field label={t("Order.discount")}>{format.money(order.discount)}</Field>
                <Field label={t("Order.promoCode")} auto>
                  {orDash(order.promoCode)}
                </Field>
                <Field label={t("Order.payment")}>
                  {t("Order.paymentSummary", { method: paymentLabel(order.paymentMethod, t), status: paymentLabel(order.paymentStatus, t) })}
                </Field>
                <Field label={t("Order.total")}>
                  <span className="text-base">{format.money(order.total)}</span>
                </Field>
              </dl>
            </Card>
            <Card id="card-history" title={t("Order.history")}>
              <OrderStatusHistory history={history} currentStatus={order.status} t={t} format={format} />
            </Card>
          </div>
          <div className="min-w-0 space-y-4">
            <Card id="card-customer" title={t("Order.customer")}>
              <dl className="divide-y divide-slate-100 sm:divide-y-0">
                <Field label={t("Order.name")} auto>
                  {orDash(order.customerName)}
                </Field>
                <Field label={t("Order.phone")}>
                  {telHref(order.customerPhone) ? (
                    // A link to call: cash-on-delivery merchants phone the customer to confirm the order.
                    <a
                      href={telHref(order.customerPhone) ?? undefined}
                      dir="ltr"
                      className="inline-flex min-h-11 items-center font-medium text-indigo-700 underline underline-offset-2"
                    >
                      {order.customerPhone}
                    </a>
                  ) : (
                    <bdi dir="ltr">{orDash(order.customerPhone)}</bdi>
                  )}
                </Field>
                <Field label={t("Order.email")}>
                  <bdi dir="ltr" className="break-all">
                    {orDash(order.customerEmail)}
                  </bdi>
                </Field>
              </dl>
            </Card>
            <Card id="card-address" title={t("Order.address")}>
              <dl className="divide-y divide-slate-100 sm:divide-y-0">
                <Field label={t("Order.wilaya")} auto>
                  {order.wilayaId ? `${order.wilayaId} · ` : ""}
                  {orDash(order.wilayaName)}
                </Field>
                <Field label={t("Order.commune")} auto>
                  {orDash(order.commune)}
                </Field>
                <Field label={t("Order.street")} auto>
                  {orDash(order.address)}
                </Field>
                <Field label={t("Order.notes")} auto>
                  {orDash(order.customerNotes)}
                </Field>
              </dl>
            </Card>
            <Card id="card-delivery" title={t("Order.delivery")}>
              <dl className="divide-y divide-slate-100 sm:divide-y-0">
                <Field label={t("Order.deliveryType")}>{deliveryLabel(order.deliveryType, t)}</Field>
                {order.deskName ? (
                  <Field label={t("Order.desk")} auto>
                    {order.deskName}
                  </Field>
                ) : null}
                <Field label={t("Order.deliveryCompany")} auto>
                  {orDash(order.deliveryCompany)}
                </Field>
                <Field label={t("Order.trackingNumber")}>
                  <bdi dir="ltr">{orDash(order.trackingNumber)}</bdi>
                </Field>
              </dl>
            </Card>
          </div>
        </div>
      </div>
    );
  },
  { below: (params) => [params.orderId] },
);
