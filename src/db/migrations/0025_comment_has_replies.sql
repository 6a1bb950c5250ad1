ALTER TABLE "comments" ADD COLUMN "has_replies" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "comments" SET "has_replies" = true WHERE "id" IN (SELECT "comment_id" FROM "comment_replies");
