CREATE TABLE "installs" (
	"store_id" integer PRIMARY KEY NOT NULL,
	"install_id" integer NOT NULL,
	"store_name" text NOT NULL,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"state_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"token_ciphertext" text,
	"token_key_id" text,
	"installed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uninstalled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"store_id" integer NOT NULL,
	"order_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"product_id" bigint,
	"variant_id" bigint,
	"product_name" text,
	"variant_name" text,
	"sku" text,
	"price" numeric(14, 2),
	"quantity" integer,
	"total" numeric(14, 2),
	"source" text,
	CONSTRAINT "order_items_store_id_order_id_position_pk" PRIMARY KEY("store_id","order_id","position")
);
--> statement-breakpoint
CREATE TABLE "order_status_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"order_id" bigint NOT NULL,
	"status" text NOT NULL,
	"previous_status" text,
	"changed_at" timestamp with time zone NOT NULL,
	"event_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_sync_state" (
	"store_id" integer PRIMARY KEY NOT NULL,
	"last_synced_at" timestamp with time zone,
	"since_cursor" timestamp with time zone,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"store_id" integer NOT NULL,
	"id" bigint NOT NULL,
	"order_number" text NOT NULL,
	"store_seq" integer,
	"status" text NOT NULL,
	"payment_status" text,
	"payment_method" text,
	"delivery_type" text,
	"desk_name" text,
	"customer_name" text,
	"customer_phone" text,
	"customer_email" text,
	"wilaya_id" integer,
	"wilaya_name" text,
	"commune" text,
	"address" text,
	"subtotal" numeric(14, 2),
	"shipping_cost" numeric(14, 2),
	"discount" numeric(14, 2),
	"total" numeric(14, 2),
	"promo_code" text,
	"customer_notes" text,
	"tracking_number" text,
	"delivery_company" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"extra" jsonb,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_store_id_id_pk" PRIMARY KEY("store_id","id")
);
--> statement-breakpoint
CREATE TABLE "rate_buckets" (
	"bucket" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_buckets_bucket_window_start_pk" PRIMARY KEY("bucket","window_start")
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"store_id" integer NOT NULL,
	"delivery_id" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "installs_install_id_key" ON "installs" USING btree ("install_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_status_history_once_idx" ON "order_status_history" USING btree ("store_id","order_id","status");--> statement-breakpoint
CREATE INDEX "orders_store_created_idx" ON "orders" USING btree ("store_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_store_status_created_idx" ON "orders" USING btree ("store_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_store_phone_idx" ON "orders" USING btree ("store_id","customer_phone");--> statement-breakpoint
CREATE INDEX "webhook_events_store_idx" ON "webhook_events" USING btree ("store_id","received_at");