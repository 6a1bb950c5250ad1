CREATE TABLE "project_upload_days" (
	"platform" text NOT NULL,
	"project" text NOT NULL,
	"day" text NOT NULL,
	"uploads" integer DEFAULT 0 NOT NULL,
	"spent" boolean DEFAULT false NOT NULL,
	CONSTRAINT "project_upload_days_platform_project_day_pk" PRIMARY KEY("platform","project","day")
);
