CREATE TABLE "sandbox"."google_quota_days" (
	"client_id" text NOT NULL,
	"day" text NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "google_quota_days_client_id_day_pk" PRIMARY KEY("client_id","day")
);
--> statement-breakpoint
ALTER TABLE "project_upload_days" ADD COLUMN "units" integer DEFAULT 0 NOT NULL;