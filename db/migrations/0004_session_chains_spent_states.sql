CREATE TABLE "session_replacements" (
	"replaced_id" text PRIMARY KEY NOT NULL,
	"replacing_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spent_install_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
