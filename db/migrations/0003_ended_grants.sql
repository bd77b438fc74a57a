CREATE TABLE "ended_grants" (
	"session_id" text NOT NULL,
	"store_id" integer NOT NULL,
	"reason" text NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ended_grants_session_id_store_id_pk" PRIMARY KEY("session_id","store_id")
);
--> statement-breakpoint
CREATE INDEX "ended_grants_ended_idx" ON "ended_grants" USING btree ("ended_at");