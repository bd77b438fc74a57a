import type { Translate } from "@/lib/language";

/**
 * The platform's payment and delivery codes in the merchant's words ("cod" is cash on delivery). A code the
 * platform adds later is shown as sent rather than guessed at.
 */
const PAYMENT_KEYS: Record<string, string> = {
  cod: "Payment.cod",
  unpaid: "Payment.unpaid",
  paid: "Payment.paid",
  refunded: "Payment.refunded",
};

const DELIVERY_KEYS: Record<string, string> = {
  home: "Delivery.home",
  desk: "Delivery.desk",
};

function label(keys: Record<string, string>, fallback: string, value: string | null | undefined, t: Translate): string {
  if (!value) return "—";
  const key = keys[value.toLowerCase()];
  return key ? t(key) : t(fallback, { value });
}

export function paymentLabel(value: string | null | undefined, t: Translate): string {
  return label(PAYMENT_KEYS, "Payment.other", value, t);
}

export function deliveryLabel(value: string | null | undefined, t: Translate): string {
  return label(DELIVERY_KEYS, "Delivery.other", value, t);
}
