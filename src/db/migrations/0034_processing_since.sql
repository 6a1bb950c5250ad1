ALTER TABLE "post_targets" ADD COLUMN "processing_since" timestamp with time zone;--> statement-breakpoint
-- Targets already waiting on a platform count their wait from their last step.
UPDATE "post_targets" SET "processing_since" = "updated_at" WHERE "step" IN ('items', 'processing', 'publish', 'recheck');
