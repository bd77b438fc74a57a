/**
 * An order as the queries store it: the platform's copy of it (webhook `data.order` + `data.items`, or an orders
 * list item), already parsed. lib/platform/orders.ts's PlatformOrder is built on it, so the ground floor names
 * nothing of lib/ and the two cannot drift apart.
 */
export type OrderCopy = {
  id: number;
  orderNumber: string;
  storeSeq: number | null;
  status: string;
  paymentStatus: string | null;
  paymentMethod: string | null;
  deliveryType: string | null;
  deskName: string | null;
  customerName: string | null;
  customerPhone: string | null;
  /** The key the phone is matched on (lib/phone.ts phoneKey), null without a phone. */
  customerPhoneKey: string | null;
  customerEmail: string | null;
  wilayaId: number | null;
  wilayaName: string | null;
  commune: string | null;
  address: string | null;
  subtotal: string | null;
  shippingCost: string | null;
  discount: string | null;
  total: string | null;
  promoCode: string | null;
  customerNotes: string | null;
  trackingNumber: string | null;
  deliveryCompany: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Items when the source carried them; null when it did not (then stored items are left as they are). */
  items: OrderCopyItem[] | null;
  /** Fields the platform sent that the columns do not model (stored as JSON). */
  extra: Record<string, unknown>;
};

export type OrderCopyItem = {
  productId: number | null;
  variantId: number | null;
  productName: string | null;
  variantName: string | null;
  sku: string | null;
  /** Money as decimal strings, exactly as the platform sent them. */
  price: string | null;
  quantity: number | null;
  total: string | null;
  source: string | null;
};
