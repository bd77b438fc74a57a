CREATE TABLE "session_stores" (
	"session_id" text NOT NULL,
	"store_id" integer NOT NULL,
	"granted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "session_stores_session_id_store_id_pk" PRIMARY KEY("session_id","store_id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_stores" ADD CONSTRAINT "session_stores_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_stores" ADD CONSTRAINT "session_stores_store_id_installs_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."installs"("store_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_stores_store_idx" ON "session_stores" USING btree ("store_id");