DROP INDEX "orders_store_phone_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "customer_phone_key" text;--> statement-breakpoint
-- The key of every order written before it existed, by lib/phone.ts phoneKey's rule spelled in SQL (Arabic-Indic
-- digits as digits, every non-digit dropped, an Algerian number in its national form 0 + 8 or 9 digits, anything
-- else its digits, null without a digit); tests/integration/phone-key.test.ts holds the two to the same answers.
UPDATE "orders" SET "customer_phone_key" = nullif(regexp_replace(regexp_replace(translate("customer_phone", '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789'), '[^0-9]', '', 'g'), '^(00)?2130?([1-9][0-9]{7,8})$', '0\2'), '') WHERE "customer_phone" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_store_phone_key_idx" ON "orders" USING btree ("store_id","customer_phone_key");
