CREATE TABLE "app_environments" (
	"environment" text NOT NULL,
	"app_url" text NOT NULL,
	"migrated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "app_environments_environment_app_url_pk" PRIMARY KEY("environment","app_url")
);
--> statement-breakpoint
CREATE TABLE "job_drain" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text,
	"held_until" timestamp with time zone NOT NULL,
	"asked_at" timestamp with time zone
);
