ALTER TABLE "accounts" ADD COLUMN "expiring_notice_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "account_wait_until" timestamp with time zone;