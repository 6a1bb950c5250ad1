CREATE TABLE "sandbox"."app_subscriptions" (
	"account_id" text PRIMARY KEY NOT NULL,
	"fields" text[] NOT NULL,
	"subscribed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "platform_aliases" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "comment_notices" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "comment_notices_error" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "comment_notices_retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "comment_notices_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."accounts" ADD COLUMN "private" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "accounts_notice_subscription_idx" ON "accounts" USING btree ("comment_notices_retry_at") WHERE "accounts"."comment_notices" = 'pending' and "accounts"."status" = 'connected';--> statement-breakpoint
-- Accounts connected before the service subscribed them to comment notices: the schedule subscribes them now.
UPDATE "accounts" SET "comment_notices" = 'pending', "comment_notices_retry_at" = now() WHERE "platform" IN ('instagram', 'threads', 'facebook');
