ALTER TABLE "post_targets" ADD COLUMN "platform" text NOT NULL;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "step" text;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "container_id" text;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "waiting_reason" text;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "polls" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "retry_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "platform_post_id" text;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "permalink" text;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "error" jsonb;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "first_comment_id" text;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "first_comment_error" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "status" text DEFAULT 'scheduled' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "text" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "media_ids" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "platform_options" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "scheduled_at" timestamp with time zone NOT NULL;--> statement-breakpoint
CREATE INDEX "post_targets_post_idx" ON "post_targets" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "post_targets_account_idx" ON "post_targets" USING btree ("account_id","post_id");--> statement-breakpoint
CREATE INDEX "posts_owner_idx" ON "posts" USING btree ("owner_id","id");--> statement-breakpoint
CREATE INDEX "posts_scheduled_idx" ON "posts" USING btree ("owner_id","scheduled_at");