CREATE TABLE "sandbox"."webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"platform" text NOT NULL,
	"callback_url" text NOT NULL,
	"body" text NOT NULL,
	"signature" text NOT NULL,
	"status" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."webhooks" (
	"platform" text PRIMARY KEY NOT NULL,
	"callback_url" text NOT NULL,
	"verify_token" text NOT NULL,
	"app_secret" text NOT NULL,
	"app_id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sandbox_webhook_deliveries_platform_idx" ON "sandbox"."webhook_deliveries" USING btree ("platform","id");