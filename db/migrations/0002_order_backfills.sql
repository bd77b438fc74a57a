CREATE TABLE "order_backfills" (
	"store_id" integer PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"status" text NOT NULL,
	"cursor" text,
	"pages" integer DEFAULT 0 NOT NULL,
	"imported" integer DEFAULT 0 NOT NULL,
	"newest_created_at" timestamp with time zone,
	"last_error" text,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_sync_state" DROP COLUMN "lease_owner";--> statement-breakpoint
ALTER TABLE "order_sync_state" DROP COLUMN "lease_until";