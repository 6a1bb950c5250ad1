-- When a run claimed a target's publish: another run of the target leaves a claim younger than a
-- run's publish calls can last to the run making them. A target claimed before this column has
-- its claim dated by its last change, which the claim was.
ALTER TABLE "post_targets" ADD COLUMN "claimed_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "post_targets" SET "claimed_at" = "updated_at" WHERE "status" = 'publishing' AND "step" = 'publish';
