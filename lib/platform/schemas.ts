import "server-only";
import { z } from "zod";

/**
 * zod schemas of the platform's documented shapes. Objects are loose: fields the platform adds later pass through
 * instead of failing the parse. Field names stay snake_case here; the operation modules reshape into the app's types.
 */

/** Integers sometimes travel as strings (64-bit ids through JSON); accept both, keep numbers. */
export const intLike = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);

/** Money as a decimal string: the platform may send 1500, 1500.5 or "1500.50". */
export const money = z.union([z.number().finite(), z.string().regex(/^-?\d+(\.\d+)?$/)]).transform((value) => {
  if (typeof value === "string") return value;
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(2) : text;
});

export const isoDate = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO 8601 date-time")
  .transform((value) => new Date(value));

const text = z.string().nullish();

export const envelopeMeta = z.looseObject({ request_id: z.string().optional(), api_version: z.string().optional() });

export const successEnvelope = z.looseObject({ data: z.unknown(), meta: envelopeMeta.optional() });

export const errorEnvelope = z.looseObject({
  error: z.looseObject({
    code: z.string().optional(),
    message: z.string().optional(),
    retry_after: z.union([z.number(), z.string()]).nullish(),
  }),
  meta: envelopeMeta.optional(),
});

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({
    items: z.array(item),
    next_cursor: z.string().nullish(),
    has_more: z.boolean().optional(),
  });
}

export const whoamiSchema = z.looseObject({
  key_id: z.string(),
  store_id: intLike,
  type: z.string(),
  rate_limit_tier: z.string(),
  pilot: z.boolean().optional(),
  scopes: z.array(z.string()),
  app: z
    .looseObject({ app_id: intLike, client_id: z.string(), install_id: intLike })
    .nullish(),
});

const categoryFields = {
  id: intLike,
  name: z.string(),
  slug: z.string().nullish(),
  status: z.string().nullish(),
  parent_id: intLike.nullish(),
  sort_order: intLike.nullish(),
  product_count: intLike.nullish(),
  products_count: intLike.nullish(),
};

export const categorySchema = z.looseObject(categoryFields);

export const categoryWithChildrenSchema = z.looseObject({
  ...categoryFields,
  children: z.array(categorySchema).nullish(),
});

export const categoryDeleteSchema = z.looseObject({ deleted: z.boolean(), id: intLike });

/** "200 with the applied order": an array of categories or of `{ id, sort_order }`, bare or under `categories`/`items`. */
const reorderEntry = z.looseObject({ id: intLike, sort_order: intLike.nullish() });
export const reorderResultSchema = z.union([
  z.array(reorderEntry),
  z.looseObject({ categories: z.array(reorderEntry) }).transform((value) => value.categories),
  z.looseObject({ items: z.array(reorderEntry) }).transform((value) => value.items),
]);

export const orderItemSchema = z.looseObject({
  product_id: intLike.nullish(),
  variant_id: intLike.nullish(),
  product_name: text,
  variant_name: text,
  sku: text,
  price: money.nullish(),
  quantity: intLike.nullish(),
  total: money.nullish(),
  source: text,
});

export const ORDER_FIELDS = [
  "id",
  "store_id",
  "order_number",
  "store_seq",
  "status",
  "payment_status",
  "payment_method",
  "delivery_type",
  "desk_name",
  "customer_name",
  "customer_phone",
  "customer_email",
  "wilaya_id",
  "wilaya_name",
  "commune",
  "address",
  "subtotal",
  "shipping_cost",
  "discount",
  "total",
  "promo_code",
  "customer_notes",
  "tracking_number",
  "delivery_company",
  "created_at",
  "updated_at",
  "items",
] as const;

export const orderSchema = z.looseObject({
  id: intLike,
  store_id: intLike,
  order_number: z.string(),
  store_seq: intLike.nullish(),
  status: z.string(),
  payment_status: text,
  payment_method: text,
  delivery_type: text,
  desk_name: text,
  customer_name: text,
  customer_phone: text,
  customer_email: text,
  wilaya_id: intLike.nullish(),
  wilaya_name: text,
  commune: text,
  address: text,
  subtotal: money.nullish(),
  shipping_cost: money.nullish(),
  discount: money.nullish(),
  total: money.nullish(),
  promo_code: text,
  customer_notes: text,
  tracking_number: text,
  delivery_company: text,
  created_at: isoDate,
  updated_at: isoDate,
  items: z.array(orderItemSchema).nullish(),
});

/** The customer item shape is not documented: the likely fields are read when present, the rest kept as extra. */
export const customerSchema = z.looseObject({
  id: intLike,
  name: text,
  phone: text,
  email: text,
});

