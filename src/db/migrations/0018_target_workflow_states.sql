-- Post targets' states are now the pairs of (status, step) that the publishing workflow names:
-- a finished, waiting or cancelled target has no step, and the step after publishing has a
-- name of its own rather than the one platform's that first used it.
UPDATE "post_targets" SET "step" = NULL WHERE "status" IN ('draft', 'scheduled', 'failed', 'cancelled') AND "step" IS NOT NULL;--> statement-breakpoint
UPDATE "post_targets" SET "step" = 'after_publish' WHERE "step" = 'first_comment';--> statement-breakpoint
UPDATE "post_targets" SET "step" = 'after_publish_running' WHERE "step" = 'first_comment_sending';--> statement-breakpoint
UPDATE "post_targets" SET "step" = NULL WHERE "status" = 'published' AND "step" IS NOT NULL AND "step" NOT IN ('after_publish', 'after_publish_running');
