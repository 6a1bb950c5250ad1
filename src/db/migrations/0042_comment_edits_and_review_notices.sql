CREATE TABLE "sandbox"."notification_settings" (
	"account" text PRIMARY KEY NOT NULL,
	"pubsub_topic" text NOT NULL,
	"notification_types" text[] NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."push_subscriptions" (
	"name" text PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"push_endpoint" text NOT NULL,
	"service_account_email" text NOT NULL,
	"audience" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox"."comments" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_deliveries" ADD COLUMN "authorization" text;