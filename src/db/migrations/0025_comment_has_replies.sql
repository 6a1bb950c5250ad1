ALTER TABLE "comments" ADD COLUMN "has_replies" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "comments" SET "has_replies" = true WHERE "id" IN (SELECT "comment_id" FROM "comment_replies");--> statement-breakpoint
-- Set by the database, not by the code that writes a reply, so that a reply written by any
-- release (an older one during a rolling upgrade, or after a rollback) is listed with its comment.
CREATE FUNCTION "comment_replies_mark_comment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "comments" SET "has_replies" = true WHERE "id" = NEW."comment_id" AND NOT "has_replies";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "comment_replies_mark_comment" AFTER INSERT ON "comment_replies"
  FOR EACH ROW EXECUTE FUNCTION "comment_replies_mark_comment"();
